---@brief
---
--- https://example.invalid/hcl-types
---
--- Types for HCL: hover the real type of any Terraform, Pulumi PCL or HCL
--- expression (`union`, `promise` and `output` included), type diagnostics
--- (a default, a tfvars value or an argument that cannot convert) and type
--- completion.
---
--- Install the server with `cargo install --locked hcl-types` (or from
--- source: `cargo install --locked --path .` in a clone), or with mason.nvim
--- (`:MasonInstall hcl-types`).
---
--- Settings go under `hclTypes` (see the project's README, "Settings"):
---
--- ```lua
--- vim.lsp.config('hcl_types', {
---   settings = { hclTypes = { severity = { ['unsafe-conversion'] = 'off' } } },
--- })
--- ```
---
--- Whether the server may run `terraform providers schema -json` for a
--- module's provider schemas (which executes the provider binaries that
--- `terraform init` installed) is read from `init_options` only; set it in
--- your own configuration, never in a project-local file:
---
--- ```lua
--- vim.lsp.config('hcl_types', {
---   init_options = { hclTypes = { terraform = { runForSchemas = true } } },
--- })
--- ```
---
--- The server reads its settings from `initializationOptions` at start and
--- from `workspace/didChangeConfiguration`, which replaces them all; so
--- `before_init` below sends the same merge of `init_options` and `settings`
--- both ways (`terraform` and `workspaceTrusted` from `init_options` only).

-- Read only from initializationOptions, and only from init_options here.
local start_only = { 'terraform', 'workspaceTrusted' }

local function without_start_only(t)
  if type(t) == 'table' and type(t.hclTypes) == 'table' then
    for _, k in ipairs(start_only) do
      t.hclTypes[k] = nil
    end
  end
  return t
end

---@type vim.lsp.Config
return {
  cmd = { 'hcl-types', 'lsp' },
  filetypes = { 'terraform', 'terraform-vars', 'hcl', 'pcl', 'json' },
  -- Of `json` buffers only Terraform's and OpenTofu's JSON syntax attaches
  -- (`*.tf.json`, `*.tofu.json`): a root_dir that does not call `on_dir`
  -- attaches nothing.
  root_dir = function(bufnr, on_dir)
    local name = vim.api.nvim_buf_get_name(bufnr)
    if vim.bo[bufnr].filetype == 'json' and not (name:match('%.tf%.json$') or name:match('%.tofu%.json$')) then
      return
    end
    on_dir(vim.fs.root(bufnr, { '.git', '.terraform', 'Pulumi.yaml' }))
  end,
  settings = { hclTypes = { inlayHints = { enable = true } } },
  init_options = { hclTypes = { inlayHints = { enable = true } } },
  before_init = function(params, config)
    local init = vim.deepcopy(config.init_options or {})
    local merged = vim.tbl_deep_extend('force', {}, init, without_start_only(vim.deepcopy(config.settings or {})))
    if type(merged.hclTypes) == 'table' and type(init.hclTypes) == 'table' then
      for _, k in ipairs(start_only) do
        merged.hclTypes[k] = init.hclTypes[k]
      end
    end
    params.initializationOptions = merged
    -- The client keeps this very table for didChangeConfiguration and
    -- workspace/configuration: fill it in place.
    if type(config.settings) == 'table' then
      for k in pairs(config.settings) do
        config.settings[k] = nil
      end
      for k, v in pairs(without_start_only(vim.deepcopy(merged))) do
        config.settings[k] = v
      end
    end
  end,
}
