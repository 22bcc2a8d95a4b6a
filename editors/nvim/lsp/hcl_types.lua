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
  -- A function, so that of `json` buffers only `*.tf.json` and `*.tofu.json`
  -- attach (a root_dir that never calls `on_dir` attaches nothing); else the
  -- first of the root markers upward (none: single-file mode).
  root_dir = function(bufnr, on_dir)
    if not defaults.wanted(bufnr) then
      return
    end
    on_dir(vim.fs.root(bufnr, defaults.root_markers))
  end,
  settings = defaults.default_settings(),
  init_options = defaults.default_settings(),
  before_init = defaults.before_init,
}
