-- Shared defaults of the hcl-types Neovim plugin: used by `lsp/hcl_types.lua`
-- (Neovim 0.11+, `vim.lsp.config`/`vim.lsp.enable`) and by
-- `require('hcl-types').setup()` (Neovim 0.8+).
local M = {}

M.name = 'hcl_types'
M.cmd = { 'hcl-types', 'lsp' }
M.filetypes = { 'terraform', 'terraform-vars', 'hcl', 'pcl' }
-- Searched in this order, upward from the file; the first hit decides the
-- root (the workspace folder). The server analyses each directory as a
-- module whatever the root is, so the root only decides how many servers run:
-- one per repository by default.
M.root_markers = { '.git', '.terraform', 'Pulumi.yaml' }

-- The server's settings (see the project README, "Settings"), under the key
-- `hclTypes`:
--   dialects   = { ['**/*.hcl'] = 'terraform' },          -- terraform|pcl|hcl
--   severity   = { ['unsafe-conversion'] = 'off' },        -- error|warning|hint|off
--   inlayHints = { enable = true },
function M.default_settings()
  return { hclTypes = { inlayHints = { enable = true } } }
end

--- Makes `initializationOptions` and `settings` carry the same values: the
--- server reads the first at start and the second from
--- `workspace/didChangeConfiguration`, which Neovim sends right after start
--- and which replaces all settings. So whatever the user put in either one
--- is merged (settings win) into both; `config.settings` is filled in place,
--- because the client keeps a reference to that very table.
--- Use as `before_init`.
function M.before_init(params, config)
  local merged = vim.tbl_deep_extend('force', {}, config.init_options or {}, config.settings or {})
  params.initializationOptions = merged
  if type(config.settings) == 'table' then
    for k, v in pairs(merged) do
      config.settings[k] = v
    end
  end
end

return M
