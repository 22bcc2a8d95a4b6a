-- Shared defaults of the hcl-types Neovim plugin: used by `lsp/hcl_types.lua`
-- (Neovim 0.11+, `vim.lsp.config`/`vim.lsp.enable`) and by
-- `require('hcl-types').setup()` (Neovim 0.8+).
local M = {}

M.name = 'hcl_types'
M.cmd = { 'hcl-types', 'lsp' }
-- `json` for Terraform's and OpenTofu's JSON syntax: of `json` buffers only
-- `*.tf.json` and `*.tofu.json` are taken (see `M.wanted`).
M.filetypes = { 'terraform', 'terraform-vars', 'opentofu', 'hcl', 'pcl', 'json' }

--- Whether buffer `bufnr` is one for the server: any of its filetypes but
--- `json`, which is not ours to claim; of those, the module files of the JSON
--- syntax (`*.tf.json`, `*.tofu.json`).
---@param bufnr integer
---@return boolean
function M.wanted(bufnr)
  if vim.bo[bufnr].filetype ~= 'json' then
    return true
  end
  local name = vim.api.nvim_buf_get_name(bufnr)
  return name:match('%.tf%.json$') ~= nil or name:match('%.tofu%.json$') ~= nil
end
-- Searched in this order, upward from the file; the first hit decides the
-- root (the workspace folder). The server analyses each directory as a
-- module whatever the root is, so the root only decides how many servers run:
-- one per repository by default.
M.root_markers = { '.git', '.terraform', 'Pulumi.yaml' }

-- The server's settings (see the project README, "Settings"), under the key
-- `hclTypes`:
--   dialects   = { ['**/*.hcl'] = 'terraform' },          -- terraform|opentofu|pulumi-hcl|pcl|hcl
--   severity   = { ['unsafe-conversion'] = 'off' },        -- error|warning|hint|off
--   inlayHints = { enable = true },
-- and, in `init_options` only (the server reads them nowhere else):
--   terraform  = { runForSchemas = true, path = '/usr/local/bin/terraform' },
function M.default_settings()
  return { hclTypes = { inlayHints = { enable = true } } }
end

-- What decides whether the server runs a program (`terraform providers schema
-- -json` for provider schemas): the server takes it from initializationOptions
-- only, and this plugin takes it from `init_options` only, never from
-- `settings`, which project-local configuration (a plugin that reads a
-- project's settings file) may fill.
local START_ONLY = { 'terraform', 'workspaceTrusted' }

--- Makes `initializationOptions` and `settings` carry the same values: the
--- server reads the first at start and the second from
--- `workspace/didChangeConfiguration`, which Neovim sends right after start
--- and which replaces all settings. So whatever the user put in either one
--- is merged (settings win) into both; `config.settings` is filled in place,
--- because the client keeps a reference to that very table. The exception:
--- `hclTypes.terraform` (and `workspaceTrusted`) reach initializationOptions
--- only from `init_options`, and never `settings`.
--- Use as `before_init`.
function M.before_init(params, config)
  local settings = vim.deepcopy(config.settings or {})
  local init = vim.deepcopy(config.init_options or {})
  if type(settings.hclTypes) == 'table' then
    for _, k in ipairs(START_ONLY) do
      settings.hclTypes[k] = nil
    end
  end
  local merged = vim.tbl_deep_extend('force', {}, init, settings)
  if type(merged.hclTypes) == 'table' and type(init.hclTypes) == 'table' then
    for _, k in ipairs(START_ONLY) do
      merged.hclTypes[k] = init.hclTypes[k]
    end
  end
  params.initializationOptions = merged
  if type(config.settings) == 'table' then
    for k in pairs(config.settings) do
      config.settings[k] = nil
    end
    for k, v in pairs(vim.deepcopy(merged)) do
      config.settings[k] = v
    end
    if type(config.settings.hclTypes) == 'table' then
      for _, k in ipairs(START_ONLY) do
        config.settings.hclTypes[k] = nil
      end
    end
  end
end

return M
