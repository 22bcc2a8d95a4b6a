-- hcl-types for Neovim 0.11+:
--
--   vim.lsp.config('hcl_types', { settings = { hclTypes = { severity = { ['unsafe-conversion'] = 'off' } } } })
--   vim.lsp.enable('hcl_types')
--
-- Neovim finds this file on the 'runtimepath' (lsp/<name>.lua) and merges
-- what you pass to vim.lsp.config() over it.
--
-- Whether the server may run `terraform providers schema -json` (executing the
-- provider binaries `terraform init` installed in the module), and which
-- terraform, goes in init_options only, in your own config, never in a
-- project-local file (.nvim.lua, .exrc, .neoconf.json, .lazy.lua):
--
--   vim.lsp.config('hcl_types', { init_options = { hclTypes = {
--     terraform = { runForSchemas = true, path = '/usr/local/bin/terraform' } } } })
local defaults = require('hcl-types.config')

---@type vim.lsp.Config
return {
  cmd = defaults.cmd,
  filetypes = defaults.filetypes,
  root_markers = defaults.root_markers,
  settings = defaults.default_settings(),
  init_options = defaults.default_settings(),
  before_init = defaults.before_init,
}
