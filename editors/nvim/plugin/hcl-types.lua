-- Filetype detection for hcl-types: `.pp` is Pulumi PCL (`pcl`), `.hcl` is
-- `hcl`; `.tf`/`.tfvars` become `terraform`/`terraform-vars` where this Neovim
-- does not detect them already. Starting the server is left to
-- `vim.lsp.enable('hcl_types')` (0.11+) or `require('hcl-types').setup()`.
if vim.g.loaded_hcl_types then
  return
end
vim.g.loaded_hcl_types = 1

if not (vim.filetype and vim.filetype.add) then
  return
end

-- Neovim calls `.pp` Puppet or Pascal by content; `g:filetype_pp` is Neovim's
-- own way to force one, and this plugin honours it (set it to 'puppet' to keep
-- Puppet). Otherwise `.pp` is Pulumi PCL.
local function pp(_, _)
  local forced = vim.g.filetype_pp
  if type(forced) == 'string' and forced ~= '' then
    return forced
  end
  return 'pcl'
end

local extension = { pp = pp }

local function detects(name, contents, want)
  local ok, ft = pcall(vim.filetype.match, { filename = name, contents = contents })
  return ok and ft == want
end

if not detects('main.tf', { 'variable "x" {}' }, 'terraform') then
  -- Like Neovim's own rule: `.tf` is TinyFugue only when every non-blank
  -- line starts with `;` or `/`.
  extension.tf = function(_, bufnr)
    for _, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
      if not line:find('^%s*$') and not line:find('^%s*[;/]') then
        return 'terraform'
      end
    end
    return 'tf'
  end
end
if not detects('terraform.tfvars', { 'x = 1' }, 'terraform-vars') then
  extension.tfvars = 'terraform-vars'
end
if not detects('config.hcl', { 'x = 1' }, 'hcl') then
  extension.hcl = 'hcl'
end

vim.filetype.add({ extension = extension })
-- Nomad variable specifications (`nomad var init`'s spec.nv.hcl) are `hcl`.
vim.filetype.add({ pattern = { ['.*%.nv%.hcl'] = 'hcl' } })

-- PCL is HCL syntax: borrow the hcl tree-sitter parser where there is one.
if vim.treesitter and vim.treesitter.language and vim.treesitter.language.register then
  pcall(vim.treesitter.language.register, 'hcl', 'pcl')
end
