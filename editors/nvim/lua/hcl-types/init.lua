-- hcl-types for Neovim 0.8-0.10 (works on 0.11+ too, but there prefer
-- `vim.lsp.enable('hcl_types')`; do not use both):
--
--   require('hcl-types').setup({
--     cmd = { 'hcl-types', 'lsp' },                       -- optional
--     settings = { hclTypes = { severity = { ['unsafe-conversion'] = 'off' } } },
--   })
--
-- Starts (or reuses) a client with vim.lsp.start() for every buffer whose
-- filetype is terraform, terraform-vars, opentofu (`.tofu`), hcl or pcl, and
-- for `*.tf.json` / `*.tofu.json` buffers (filetype json).
local defaults = require('hcl-types.config')

local M = {}

local uv = vim.uv or vim.loop

--- The root of `path`: the directory holding the first marker found upward
--- (markers tried in order, like Neovim 0.11's `root_markers`), else the
--- file's own directory.
---@param path string absolute file path
---@param markers string[]
---@return string
function M.root_dir(path, markers)
  local dir = vim.fs.dirname(path)
  for _, marker in ipairs(markers) do
    local found = vim.fs.find(marker, { upward = true, path = dir })
    if found[1] then
      return vim.fs.dirname(found[1])
    end
  end
  return dir
end

M.options = nil

--- Starts the client for `bufnr` (does nothing for buffers without a file
--- name or of another filetype).
---@param bufnr integer
---@return integer|nil client id
function M.start(bufnr)
  local opts = M.options
  if not opts then
    return nil
  end
  if not vim.tbl_contains(opts.filetypes, vim.bo[bufnr].filetype) or not defaults.wanted(bufnr) then
    return nil
  end
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == '' or name:match('^%a[%w+.-]*://') then
    return nil
  end
  local path = vim.fs.normalize(name)
  if path:sub(1, 1) ~= '/' and not path:match('^%a:') then
    path = vim.fs.normalize(uv.cwd() .. '/' .. path)
  end
  local config = {
    name = defaults.name,
    cmd = opts.cmd,
    root_dir = M.root_dir(path, opts.root_markers),
    settings = vim.deepcopy(opts.settings),
    init_options = vim.deepcopy(opts.init_options),
    before_init = defaults.before_init,
    capabilities = opts.capabilities,
    on_attach = opts.on_attach,
    on_init = opts.on_init,
    on_exit = opts.on_exit,
    handlers = opts.handlers,
  }
  return vim.lsp.start(config, { bufnr = bufnr })
end

--- Options (all optional):
---   cmd          = { 'hcl-types', 'lsp' }
---   settings     = { hclTypes = { dialects = {…}, severity = {…}, inlayHints = { enable = true } } }
---   init_options = same shape as settings (merged with them; settings win)
---   filetypes    = { 'terraform', 'terraform-vars', 'opentofu', 'hcl', 'pcl', 'json' }
---   root_markers = { '.git', '.terraform', 'Pulumi.yaml' }
---   capabilities, on_attach, on_init, on_exit, handlers: passed to vim.lsp.start()
---@param opts table|nil
function M.setup(opts)
  if not vim.lsp.start then
    vim.notify('hcl-types: Neovim 0.8 or later is needed (vim.lsp.start is missing)', vim.log.levels.ERROR)
    return
  end
  opts = opts or {}
  M.options = {
    cmd = opts.cmd or defaults.cmd,
    settings = vim.tbl_deep_extend('force', defaults.default_settings(), opts.settings or {}),
    init_options = opts.init_options or {},
    filetypes = opts.filetypes or defaults.filetypes,
    root_markers = opts.root_markers or defaults.root_markers,
    capabilities = opts.capabilities,
    on_attach = opts.on_attach,
    on_init = opts.on_init,
    on_exit = opts.on_exit,
    handlers = opts.handlers,
  }
  local group = vim.api.nvim_create_augroup('hcl-types', { clear = true })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = M.options.filetypes,
    callback = function(args)
      M.start(args.buf)
    end,
  })
  -- Buffers opened before setup() ran (lazy loading).
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) then
      M.start(bufnr)
    end
  end
end

return M
