-- Tests of the hcl-types Neovim plugin inside real Neovim, against the real
-- server. Run by editors/nvim/test/run, one Neovim per mode:
--
--   HCLT_MODE=enable        vim.lsp.enable('hcl_types') (plugin on 'runtimepath')
--   HCLT_MODE=setup         require('hcl-types').setup({}) (plugin as a start package)
--   HCLT_MODE=settings      vim.lsp.config settings turn a code off; a live
--                           workspace/didChangeConfiguration turns it back on
--   HCLT_MODE=init_options  setup({ init_options = … }) alone reaches the server
--   HCLT_MODE=lspconfig     the nvim-lspconfig file (editors/nvim/lspconfig) alone,
--                           without the plugin: the settings checks
--
-- HCLT_WORK is a copy of test/fixture (outside any git repository);
-- HCLT_RESULTS receives one line per check: "ok - NAME" or
-- "not ok - NAME: REASON". Exit status: 0 when all passed, else 1 (`cquit`).

local MODE = assert(os.getenv('HCLT_MODE'), 'HCLT_MODE unset')
-- How results name this run (the mode, and the Neovim version when not 0.11).
local LABEL = os.getenv('HCLT_LABEL') or MODE
local WORK = assert(os.getenv('HCLT_WORK'), 'HCLT_WORK unset')
local RESULTS = assert(os.getenv('HCLT_RESULTS'), 'HCLT_RESULTS unset')
local FIX = WORK .. '/fixture'
local NAME = 'hcl_types'
local TIMEOUT = 15000

local out = assert(io.open(RESULTS, 'a'))
local failed, passed = 0, 0
local exits = {} -- server exits seen: { code, signal }

local function record(ok, name, reason)
  if ok then
    passed = passed + 1
    out:write(('ok - [%s] %s\n'):format(LABEL, name))
  else
    failed = failed + 1
    out:write(('not ok - [%s] %s: %s\n'):format(LABEL, name, reason))
    io.stderr:write(('FAIL [%s] %s: %s\n'):format(LABEL, name, reason))
  end
  out:flush()
end

local Fail = {}
local function fail(fmt, ...)
  error(setmetatable({ msg = fmt:format(...) }, Fail), 0)
end
local function expect_eq(what, got, want)
  if not vim.deep_equal(got, want) then
    fail('%s: expected %s, got %s', what, vim.inspect(want), vim.inspect(got))
  end
end

-- Runs one check; a failing check does not stop the others.
local function check(name, fn)
  local ok, err = xpcall(fn, function(e)
    if getmetatable(e) == Fail then
      return e.msg
    end
    return 'error in the test script: ' .. tostring(e) .. '\n' .. debug.traceback()
  end)
  record(ok, name, err)
end

local function on_exit(code, signal)
  table.insert(exits, { code = code, signal = signal })
end

-- Why there is no client: the most likely causes first.
local function why_no_client()
  if #exits > 0 then
    local e = exits[#exits]
    return ('the hcl-types server exited (code %s, signal %s): it crashed or failed to start; see %s'):format(
      e.code,
      e.signal,
      vim.lsp.get_log_path()
    )
  end
  if vim.fn.executable('hcl-types') ~= 1 then
    return 'hcl-types is not on PATH, so Neovim cannot start `hcl-types lsp`'
  end
  return 'no hcl_types client attached (see ' .. vim.lsp.get_log_path() .. ')'
end

local function client_for(buf)
  local c = vim.lsp.get_clients({ bufnr = buf, name = NAME })[1]
  if c and c.initialized then
    return c
  end
end

local function wait_client(buf)
  vim.wait(TIMEOUT, function()
    return client_for(buf) ~= nil or #exits > 0
  end, 20)
  local c = client_for(buf)
  if not c then
    fail('%s', why_no_client())
  end
  return c
end

local function open(path)
  vim.cmd.edit(vim.fn.fnameescape(path))
  return vim.api.nvim_get_current_buf()
end

local function diags(buf, code)
  local all = vim.diagnostic.get(buf)
  table.sort(all, function(a, b)
    return a.lnum < b.lnum or (a.lnum == b.lnum and a.col < b.col)
  end)
  if not code then
    return all
  end
  return vim.tbl_filter(function(d)
    return d.code == code
  end, all)
end

local function wait_diags(buf, pred, what)
  local ok = vim.wait(TIMEOUT, function()
    return pred(diags(buf)) or #exits > 0
  end, 20)
  if #exits > 0 then
    fail('%s', why_no_client())
  end
  if not ok then
    fail('timed out waiting for %s; diagnostics now: %s', what, vim.inspect(diags(buf)))
  end
end

-- A request at the cursor, as the editor would send it.
local function request_at_cursor(buf, client, method, row, col)
  vim.api.nvim_win_set_buf(0, buf)
  vim.api.nvim_win_set_cursor(0, { row, col })
  local params = vim.lsp.util.make_position_params(0, client.offset_encoding)
  local res, err = vim.lsp.buf_request_sync(buf, method, params, TIMEOUT)
  if not res then
    fail('%s got no answer (%s); %s', method, tostring(err), #exits > 0 and why_no_client() or '')
  end
  local r = res[client.id]
  if not r then
    fail('%s: no answer from the hcl_types client: %s', method, vim.inspect(res))
  end
  if r.err then
    fail('%s answered an error: %s', method, vim.inspect(r.err))
  end
  return r.result
end

local function first_block(hover)
  local md = hover and hover.contents and hover.contents.value
  if type(md) ~= 'string' then
    fail('hover has no Markdown contents: %s', vim.inspect(hover))
  end
  local block = md:match('^```hcl\n(.-)\n```')
  if not block then
    fail('hover does not open with a ```hcl block: %q', md)
  end
  return block, md
end

local function labels(result)
  local items = result and (result.items or result) or {}
  local l = {}
  for _, i in ipairs(items) do
    l[i.label] = i
  end
  return l
end

local function expect_labels(result, want, never)
  local l = labels(result)
  local have = vim.tbl_keys(l)
  table.sort(have)
  for _, w in ipairs(want) do
    if not l[w] then
      fail('completion lacks `%s`; it offered %s', w, table.concat(have, ' '))
    end
  end
  for _, n in ipairs(never) do
    if l[n] then
      fail('completion offers `%s`, which this dialect does not have; it offered %s', n, table.concat(have, ' '))
    end
  end
  return l
end

-- The 1-based row and 0-based byte column of `needle` in buffer line `row`.
local function col_of(buf, row, needle)
  local line = vim.api.nvim_buf_get_lines(buf, row - 1, row, true)[1]
  local c = line:find(needle, 1, true)
  if not c then
    fail('%q not found on line %d: %q', needle, row, line)
  end
  return c - 1
end

local function row_of(buf, needle)
  for i, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    if line:find(needle, 1, true) then
      return i
    end
  end
  fail('%q not found in buffer %s', needle, vim.api.nvim_buf_get_name(buf))
end

-- Appends lines to a buffer (an edit the server sees as didChange); returns
-- the 1-based row of the first appended line.
local function append(buf, lines)
  local n = vim.api.nvim_buf_line_count(buf)
  vim.api.nvim_buf_set_lines(buf, n, n, true, lines)
  return n + 1
end

local BAD_BOOL = 'invalid value for `bool`: "maybe" is not a bool: only "true", "false", "1" and "0" convert'
local HINT_NUM = '"2" converts implicitly to number'

---------------------------------------------------------------------------
-- Start the client the way the mode says.

vim.lsp.log.set_level(vim.log.levels.WARN)
local function full()
  check('plugin loaded from ' .. (MODE == 'setup' and 'a start package' or "'runtimepath'"), function()
    expect_eq('g:loaded_hcl_types', vim.g.loaded_hcl_types, 1)
    local files = vim.api.nvim_get_runtime_file('lsp/hcl_types.lua', true)
    if #files == 0 then
      fail('lsp/hcl_types.lua is not on the runtimepath')
    end
  end)

  check('filetypes: .pp -> pcl, .tf -> terraform, .tfvars -> terraform-vars, .hcl -> hcl', function()
    expect_eq('main.pp', vim.filetype.match({ filename = FIX .. '/pulumi/main.pp' }), 'pcl')
    expect_eq('extra.hcl', vim.filetype.match({ filename = FIX .. '/pulumi/extra.hcl' }), 'hcl')
    expect_eq('spec.nv.hcl', vim.filetype.match({ filename = '/x/spec.nv.hcl' }), 'hcl')
    for _, name in ipairs({ 'find.tfquery.hcl', 'aws.tfmock.hcl', 'tags.policy.hcl' }) do
      expect_eq(name, vim.filetype.match({ filename = '/x/' .. name }), 'hcl')
    end
    expect_eq('terraform.tfvars', vim.filetype.match({ filename = FIX .. '/terraform/terraform.tfvars' }), 'terraform-vars')
    vim.g.filetype_pp = 'puppet'
    expect_eq('x.pp with g:filetype_pp = puppet', vim.filetype.match({ filename = '/x/site.pp' }), 'puppet')
    vim.g.filetype_pp = nil
    expect_eq('x.pp again', vim.filetype.match({ filename = '/x/site.pp' }), 'pcl')
  end)

  local tf
  check('diagnostics of variables.tf: the bad bool default and the implicit conversion', function()
    tf = open(FIX .. '/terraform/variables.tf')
    expect_eq('filetype of variables.tf', vim.bo[tf].filetype, 'terraform')
    wait_client(tf)
    wait_diags(tf, function(d)
      return #d >= 2
    end, 'two diagnostics')
    local d = diags(tf)
    expect_eq('number of diagnostics', #d, 2)
    expect_eq('error message', d[1].message, BAD_BOOL)
    expect_eq('error code', d[1].code, 'invalid-value')
    expect_eq('error source', d[1].source, 'hcl-types')
    expect_eq('error severity', d[1].severity, vim.diagnostic.severity.ERROR)
    expect_eq('error range (0-based lnum, col, end_lnum, end_col)', { d[1].lnum, d[1].col, d[1].end_lnum, d[1].end_col }, { 4, 12, 4, 19 })
    expect_eq('hint message', d[2].message, HINT_NUM)
    expect_eq('hint code', d[2].code, 'implicit-conversion')
    expect_eq('hint severity', d[2].severity, vim.diagnostic.severity.HINT)
    expect_eq('hint line', d[2].lnum, 9)
  end)

  check('root of a Terraform module: the directory with .terraform', function()
    local c = wait_client(tf)
    expect_eq('root_dir', c.root_dir, FIX .. '/terraform')
    expect_eq('hcl-types found on PATH', vim.fn.exepath('hcl-types'), WORK .. '/bin/hcl-types')
  end)

  check('a closed module of the workspace gets its diagnostics (checked in the background)', function()
    wait_client(tf)
    -- Never opened: Neovim keeps the published list on an unloaded buffer.
    local net = vim.fn.bufadd(FIX .. '/terraform/net/main.tf')
    wait_diags(net, function(d)
      return #d >= 1
    end, 'the closed net/main.tf diagnostics')
    local d = diags(net)
    expect_eq('code', d[1].code, 'invalid-value')
    expect_eq('line (0-based)', d[1].lnum, 2)
    expect_eq('still not loaded', vim.api.nvim_buf_is_loaded(net), false)
  end)

  local pp
  check('hover on a PCL conditional: first block is the unified type', function()
    pp = open(FIX .. '/pulumi/main.pp')
    expect_eq('filetype of main.pp', vim.bo[pp].filetype, 'pcl')
    local c = wait_client(pp)
    expect_eq('root_dir (Pulumi.yaml)', c.root_dir, FIX .. '/pulumi')
    local row = row_of(pp, 'label = verbose ? siteName : replicas')
    local block, md = first_block(request_at_cursor(pp, c, 'textDocument/hover', row, col_of(pp, row, '?')))
    expect_eq('first fenced block', block, 'string')
    if not md:find('`string` and `int` unify to `string`', 1, true) then
      fail('hover prose lacks the unification: %q', md)
    end
  end)

  check('hover on a PCL invoke: promise(any)', function()
    local c = wait_client(pp)
    local row = row_of(pp, 'zones = invoke(')
    local block = first_block(request_at_cursor(pp, c, 'textDocument/hover', row, 1))
    expect_eq('first fenced block', block, 'promise(any)')
  end)

  check('completion inside `type = list(` in a Terraform file: Terraform constructors only', function()
    vim.api.nvim_win_set_buf(0, tf)
    local c = wait_client(tf)
    local row = append(tf, { '', 'variable "x" {', '  type = list()', '}' }) + 2
    local l = expect_labels(
      request_at_cursor(tf, c, 'textDocument/completion', row, col_of(tf, row, ')')),
      { 'string', 'number', 'bool', 'any', 'list', 'set', 'map', 'tuple', 'object' },
      { 'int', 'none', 'union', 'promise', 'output', 'optional' }
    )
    -- A snippet for a client that says it takes them (Neovim 0.11), the
    -- text before the placeholder for one that does not (0.10; lsp.md).
    local caps = vim.lsp.protocol.make_client_capabilities()
    local item = caps.textDocument.completion.completionItem
    if item and item.snippetSupport then
      expect_eq('insertText of list', l.list.insertText, 'list(${1})')
      expect_eq('insertTextFormat of list (snippet)', l.list.insertTextFormat, 2)
    else
      expect_eq('insertText of list (no snippets)', l.list.insertText, 'list(')
      expect_eq('insertTextFormat of list (plain)', l.list.insertTextFormat, 1)
    end
    -- The edit reached the server: list() with no argument is reported.
    wait_diags(tf, function(d)
      for _, x in ipairs(d) do
        if x.lnum == row - 1 then
          return true
        end
      end
    end, 'a diagnostic on the edited line')
  end)

  check('completion inside a PCL config type `"list()"`: int and optional, no eventuals', function()
    local c = wait_client(pp)
    local row = append(pp, { '', 'config "extra" "list()" {', '}' }) + 1
    expect_labels(
      request_at_cursor(pp, c, 'textDocument/completion', row, col_of(pp, row, ')')),
      { 'string', 'int', 'list', 'map', 'object', 'optional' },
      { 'promise', 'output', 'union', 'none' }
    )
  end)

  check('completion in a plain .hcl file: the full system, promise and output included', function()
    local h = open(FIX .. '/pulumi/extra.hcl')
    expect_eq('filetype of extra.hcl', vim.bo[h].filetype, 'hcl')
    local c = wait_client(h)
    local row = append(h, { 'variable "z" {', '  type = list()', '}' }) + 1
    expect_labels(
      request_at_cursor(h, c, 'textDocument/completion', row, col_of(h, row, ')')),
      { 'string', 'int', 'none', 'union', 'promise', 'output', 'object' },
      {}
    )
  end)

  check('a file outside any marker still gets the server', function()
    local h = open(WORK .. '/loose/loose.hcl')
    local c = wait_client(h)
    if MODE == 'setup' then
      expect_eq('root_dir (the file directory)', c.root_dir, WORK .. '/loose')
    else
      expect_eq('root_dir (none: single-file mode)', c.root_dir, nil)
    end
    wait_diags(h, function(d)
      return #d >= 1
    end, 'the loose file diagnostic')
    expect_eq('loose.hcl diagnostic code', diags(h)[1].code, 'invalid-value')
  end)

  -- Terraform's JSON syntax: `*.tf.json` is filetype json in Neovim; the
  -- server takes those buffers, and no other json.
  check('a .tf.json buffer gets the server, another .json does not', function()
    local jdir = WORK .. '/jsonmod'
    vim.fn.mkdir(jdir, 'p')
    vim.fn.writefile({ '{"locals":{"\\u00e9":"x","a":"${var.nope}"}}' }, jdir .. '/main.tf.json')
    vim.fn.writefile({ '{"name": "not terraform"}' }, jdir .. '/package.json')
    local j = open(jdir .. '/main.tf.json')
    expect_eq('filetype of main.tf.json', vim.bo[j].filetype, 'json')
    wait_client(j)
    wait_diags(j, function(d)
      return #vim.tbl_filter(function(x)
        return x.code == 'undefined-reference'
      end, d) >= 1
    end, 'the .tf.json diagnostic')
    -- Beside it, the two locals nothing reads are `unused-local` hints.
    expect_eq('unused-local hints', #diags(j, 'unused-local'), 2)
    local d = diags(j, 'undefined-reference')[1]
    expect_eq('diagnostic code', d.code, 'undefined-reference')
    expect_eq('diagnostic place (line, column)', { d.lnum, d.col }, { 0, 31 })
    local p = open(jdir .. '/package.json')
    vim.wait(500, function()
      return client_for(p) ~= nil
    end, 20)
    expect_eq('a client on package.json', client_for(p) ~= nil, false)
  end)

  -- A module of its own, written now: formatting and renaming edit it.
  local dir = WORK .. '/edits'
  vim.fn.mkdir(dir, 'p')
  vim.fn.writefile({ 'variable "region" {', 'default = "x"', '    description = "d"', '}', '', 'output "r" {', '  value = var.region', '}' }, dir .. '/main.tf')
  vim.fn.writefile({ 'region = "eu"' }, dir .. '/terraform.tfvars')
  local m
  check('formatting: vim.lsp.buf.format writes the file as terraform fmt does', function()
    m = open(dir .. '/main.tf')
    wait_client(m)
    vim.lsp.buf.format({ bufnr = m, async = false, timeout_ms = TIMEOUT, name = NAME })
    expect_eq('formatted lines', vim.api.nvim_buf_get_lines(m, 0, -1, false), {
      'variable "region" {',
      '  default     = "x"',
      '  description = "d"',
      '}',
      '',
      'output "r" {',
      '  value = var.region',
      '}',
    })
  end)

  check('rename: a variable, its use and its tfvars key', function()
    local c = wait_client(m)
    vim.api.nvim_win_set_buf(0, m)
    vim.api.nvim_win_set_cursor(0, { 1, col_of(m, 1, 'region') })
    local params = vim.lsp.util.make_position_params(0, c.offset_encoding)
    params.newName = 'zone'
    local res = vim.lsp.buf_request_sync(m, 'textDocument/rename', params, TIMEOUT)
    local r = res and res[c.id]
    if not r or r.err or not r.result then
      fail('rename got no edit: %s', vim.inspect(res))
    end
    vim.lsp.util.apply_workspace_edit(r.result, c.offset_encoding)
    expect_eq('line 1', vim.api.nvim_buf_get_lines(m, 0, 1, true)[1], 'variable "zone" {')
    expect_eq('the use', vim.api.nvim_buf_get_lines(m, 6, 7, true)[1], '  value = var.zone')
    local tfvars = vim.fn.bufadd(dir .. '/terraform.tfvars')
    vim.fn.bufload(tfvars)
    expect_eq('the tfvars key', vim.api.nvim_buf_get_lines(tfvars, 0, 1, true)[1], 'zone = "eu"')
  end)
end

local function settings_mode()
  local tf
  check('settings: severity invalid-value = off hides the bad default', function()
    tf = open(FIX .. '/terraform/variables.tf')
    local c = wait_client(tf)
    wait_diags(tf, function(d)
      return #d >= 1
    end, 'the hint')
    -- Let the didChangeConfiguration that follows start be answered too.
    vim.lsp.buf_request_sync(tf, 'textDocument/hover', vim.lsp.util.make_position_params(0, c.offset_encoding), TIMEOUT)
    vim.wait(500)
    expect_eq('invalid-value diagnostics', #diags(tf, 'invalid-value'), 0)
    expect_eq('implicit-conversion diagnostics', #diags(tf, 'implicit-conversion'), 1)
  end)

  check('settings: Neovim answers workspace/configuration with them', function()
    local c = wait_client(tf)
    local handler = vim.lsp.handlers['workspace/configuration']
    local res = handler(nil, { items = { { section = 'hclTypes' } } }, { client_id = c.id, method = 'workspace/configuration' })
    expect_eq('hclTypes.severity', res[1].severity, { ['invalid-value'] = 'off' })
    expect_eq('hclTypes.inlayHints (default)', res[1].inlayHints, { enable = true })
  end)

  check('settings: a live workspace/didChangeConfiguration brings it back as a warning', function()
    local c = wait_client(tf)
    c.settings.hclTypes.severity['invalid-value'] = 'warning'
    c:notify('workspace/didChangeConfiguration', { settings = c.settings })
    wait_diags(tf, function()
      return #diags(tf, 'invalid-value') == 1
    end, 'invalid-value back')
    local d = diags(tf, 'invalid-value')[1]
    expect_eq('message', d.message, BAD_BOOL)
    expect_eq('severity', d.severity, vim.diagnostic.severity.WARN)
  end)
end

local function init_options_mode()
  check('terraform settings reach initializationOptions from init_options only', function()
    local params = {}
    local settings = {
      hclTypes = {
        severity = { ['invalid-value'] = 'warning' },
        terraform = { runForSchemas = true, path = '/project/evil' },
        workspaceTrusted = true,
      },
    }
    local config = {
      init_options = { hclTypes = { terraform = { runForSchemas = true, path = '/usr/bin/terraform' } } },
      settings = settings,
    }
    require('hcl-types.config').before_init(params, config)
    expect_eq('initializationOptions', params.initializationOptions, {
      hclTypes = {
        severity = { ['invalid-value'] = 'warning' },
        terraform = { runForSchemas = true, path = '/usr/bin/terraform' },
      },
    })
    expect_eq('settings (sent in didChangeConfiguration)', config.settings, {
      hclTypes = { severity = { ['invalid-value'] = 'warning' } },
    })
    if config.settings ~= settings then
      fail('before_init replaced the settings table the client keeps')
    end
    local only_settings = { settings = { hclTypes = { terraform = { runForSchemas = true } } } }
    local p2 = {}
    require('hcl-types.config').before_init(p2, only_settings)
    expect_eq('from settings alone', p2.initializationOptions, { hclTypes = {} })
  end)
  check('init_options alone: invalid-value = warning, implicit-conversion = off', function()
    local tf = open(FIX .. '/terraform/variables.tf')
    local c = wait_client(tf)
    wait_diags(tf, function(d)
      return #d >= 1
    end, 'the bad default')
    -- Neovim sends didChangeConfiguration after start; it must not undo them.
    vim.lsp.buf_request_sync(tf, 'textDocument/hover', vim.lsp.util.make_position_params(0, c.offset_encoding), TIMEOUT)
    vim.wait(500)
    local d = diags(tf)
    expect_eq('number of diagnostics', #d, 1)
    expect_eq('code', d[1].code, 'invalid-value')
    expect_eq('severity', d[1].severity, vim.diagnostic.severity.WARN)
    expect_eq('client.settings carry them', c.settings.hclTypes.severity, {
      ['invalid-value'] = 'warning',
      ['implicit-conversion'] = 'off',
    })
  end)
end

local function start()
  if MODE == 'enable' then
    vim.lsp.config(NAME, { on_exit = on_exit })
    vim.lsp.enable(NAME)
  elseif MODE == 'setup' then
    require('hcl-types').setup({ on_exit = on_exit })
  elseif MODE == 'settings' then
    vim.lsp.config(NAME, {
      on_exit = on_exit,
      settings = { hclTypes = { severity = { ['invalid-value'] = 'off' } } },
    })
    vim.lsp.enable(NAME)
  elseif MODE == 'lspconfig' then
    check('only the nvim-lspconfig file is loaded, not the plugin', function()
      expect_eq('g:loaded_hcl_types', vim.g.loaded_hcl_types, nil)
      local files = vim.api.nvim_get_runtime_file('lsp/hcl_types.lua', true)
      if #files ~= 1 or not files[1]:find('/lspconfig/lsp/hcl_types.lua', 1, true) then
        fail('lsp/hcl_types.lua on the runtimepath: %s', vim.inspect(files))
      end
    end)
    vim.lsp.config(NAME, {
      on_exit = on_exit,
      settings = { hclTypes = { severity = { ['invalid-value'] = 'off' } } },
    })
    vim.lsp.enable(NAME)
  elseif MODE == 'init_options' then
    require('hcl-types').setup({
      on_exit = on_exit,
      init_options = {
        hclTypes = { severity = { ['invalid-value'] = 'warning', ['implicit-conversion'] = 'off' } },
      },
    })
  else
    error('unknown HCLT_MODE ' .. MODE)
  end
end

local ok, err = xpcall(function()
  start()
  if MODE == 'enable' or MODE == 'setup' then
    full()
  elseif MODE == 'settings' or MODE == 'lspconfig' then
    settings_mode()
  else
    init_options_mode()
  end
  check('the server did not exit during the tests', function()
    if #exits > 0 then
      fail('%s', why_no_client())
    end
  end)
  -- A clean shutdown: every client stops and exits with 0.
  check('clean shutdown', function()
    local clients = vim.lsp.get_clients({ name = NAME })
    for _, c in ipairs(clients) do
      -- A method from 0.11; before, a function whose argument is `force`
      -- (so c:stop() would kill the server).
      if vim.fn.has('nvim-0.11') == 1 then
        c:stop()
      else
        c.stop()
      end
    end
    local done = vim.wait(TIMEOUT, function()
      return #exits >= #clients
    end, 20)
    if not done then
      fail('%d of %d clients exited after stop', #exits, #clients)
    end
    for _, e in ipairs(exits) do
      expect_eq('exit code, signal', { e.code, e.signal }, { 0, 0 })
    end
  end)
end, debug.traceback)
if not ok then
  record(false, 'test script', err)
end

out:write(('# [%s] %d passed, %d failed\n'):format(LABEL, passed, failed))
out:close()
if failed > 0 then
  vim.cmd('cquit 1')
else
  vim.cmd('qall!')
end
