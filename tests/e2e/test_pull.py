"""LSP 3.17 pull diagnostics (issue 14) in a real client: a client that
pulls and takes `workspace/diagnostic/refresh` (as VS Code's does) pulls each
document's diagnostics and gets `unchanged` when nothing changed, is asked to
pull again when a called module changes, and sees the closed files of the
affected modules — a closed caller included — through `workspace/diagnostic`,
which is held until something changes. Nothing is published to it."""

import asyncio
import time

from lsprotocol import types

from support import capabilities, change, uri

ROOT = 'module "net" {\n  source = "./net"\n  name   = "main"\n  mtu    = "big"\n}\n'
# (Read by an output: an unread variable would add its unused-variable hint.)
VARS = 'variable "size" {\n  type    = number\n  default = "large"\n}\noutput "size" {\n  value = var.size\n}\n'
CHILD = 'variable "name" {\n  type = string\n}\n\nvariable "mtu" {\n  type    = number\n  default = 1460\n}\n'


def write(root):
    (root / "net").mkdir(parents=True)
    (root / "main.tf").write_text(ROOT)
    (root / "variables.tf").write_text(VARS)
    (root / "net" / "main.tf").write_text(CHILD)


def pulling(caps: types.ClientCapabilities) -> types.ClientCapabilities:
    """VS Code's capabilities with what vscode-languageclient 9 adds for pull
    diagnostics (pytest-lsp's VS Code profile predates them)."""
    caps.text_document.diagnostic = types.DiagnosticClientCapabilities(dynamic_registration=True, related_document_support=False)
    caps.workspace.diagnostics = types.DiagnosticWorkspaceClientCapabilities(refresh_support=True)
    return caps


async def start(client, root):
    result = await client.initialize_session(
        types.InitializeParams(
            capabilities=pulling(capabilities("utf-16")),
            root_uri=uri(root),
            workspace_folders=[types.WorkspaceFolder(uri=uri(root), name="module")],
        )
    )
    return result


def open_doc(client, path, text, version=1):
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri(path), language_id="terraform", version=version, text=text)
        )
    )


async def pull(client, doc_uri, previous=None):
    return await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=doc_uri), previous_result_id=previous)
    )


def codes(report):
    return [(d.code, d.range.start.line) for d in report.items]


def by_uri(report):
    return {item.uri: item for item in report.items}


async def test_documents_are_pulled_not_published(client, tmp_path):
    write(tmp_path)
    result = await start(client, tmp_path)
    provider = result.capabilities.diagnostic_provider
    assert provider is not None and provider.inter_file_dependencies and provider.workspace_diagnostics, provider
    root_uri = uri(tmp_path / "main.tf")
    open_doc(client, tmp_path / "main.tf", ROOT)

    first = await pull(client, root_uri)
    assert first.kind == "full" and codes(first) == [("invalid-value", 3)], first
    assert first.items[0].related_information[0].location.uri == uri(tmp_path / "net" / "main.tf")
    # Nothing changed: unchanged, with the same id.
    again = await pull(client, root_uri, first.result_id)
    assert again.kind == "unchanged" and again.result_id == first.result_id, again

    # An edit, then the pull the client makes right after it: the answer is
    # of the new text (fixed), never the old analysis.
    text = change(client, root_uri, 2, ROOT, '"big"', "9000")
    fixed = await pull(client, root_uri, first.result_id)
    assert fixed.kind == "full" and not fixed.items, fixed
    # Typing where no diagnostic moves keeps the list: unchanged.
    change(client, root_uri, 3, text, '"main"', '"mainx"')
    same = await pull(client, root_uri, fixed.result_id)
    assert same.kind == "unchanged", same

    await asyncio.sleep(0.3)
    assert client.published == [], [p.uri for p in client.published]


async def test_a_called_module_change_asks_the_client_to_pull_again(client, tmp_path):
    write(tmp_path)
    await start(client, tmp_path)
    root_uri, child_uri = uri(tmp_path / "main.tf"), uri(tmp_path / "net" / "main.tf")
    open_doc(client, tmp_path / "main.tf", ROOT)
    open_doc(client, tmp_path / "net" / "main.tf", CHILD)
    first = await pull(client, root_uri)
    assert codes(first) == [("invalid-value", 3)], first
    await pull(client, child_uri)
    refreshes = client.refreshes

    # mtu becomes a string in the child: the caller's "big" now converts.
    change(client, child_uri, 2, CHILD, "number", "string")
    deadline = time.monotonic() + 15
    while client.refreshes == refreshes and time.monotonic() < deadline:
        await asyncio.sleep(0.02)
    assert client.refreshes > refreshes, "no workspace/diagnostic/refresh after the called module changed"
    now = await pull(client, root_uri, first.result_id)
    assert now.kind == "full" and not now.items, now


async def test_workspace_pull_reports_closed_files_and_closed_callers(client, tmp_path):
    write(tmp_path)
    await start(client, tmp_path)
    child_uri = uri(tmp_path / "net" / "main.tf")
    root_uri, vars_uri = uri(tmp_path / "main.tf"), uri(tmp_path / "variables.tf")
    # Only the child is open: its caller (closed) is affected by it.
    open_doc(client, tmp_path / "net" / "main.tf", CHILD)
    await pull(client, child_uri)

    report = await asyncio.wait_for(client.workspace_diagnostic_async(types.WorkspaceDiagnosticParams(previous_result_ids=[])), 15)
    items = by_uri(report)
    assert child_uri not in items, "an open document is pulled, not reported by the workspace"
    assert [(d.code, d.range.start.line) for d in items[root_uri].items] == [("invalid-value", 3)], items[root_uri]
    assert [d.code for d in items[vars_uri].items] == ["invalid-value"], items[vars_uri]

    # Asked again with what the client has: held while nothing changes...
    previous = [types.PreviousResultId(uri=u, value=i.result_id) for u, i in items.items()]
    held = asyncio.ensure_future(client.workspace_diagnostic_async(types.WorkspaceDiagnosticParams(previous_result_ids=previous)))
    await asyncio.sleep(0.5)
    assert not held.done(), held.result() if held.done() else None
    # ...and answered once the child's change fixes the closed caller.
    change(client, child_uri, 2, CHILD, "number", "string")
    report = await asyncio.wait_for(held, 15)
    items = by_uri(report)
    assert root_uri in items and not items[root_uri].items, report
    assert vars_uri not in items, "an unchanged file is not sent again"

    # A document pulled after it closed gets its closed file's report.
    open_doc(client, tmp_path / "main.tf", 'module "net" {\n  source = "./net"\n}\n')
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=root_uri)))
    closed = await pull(client, root_uri)
    assert closed.kind == "full" and not closed.items, closed
    never_opened = await pull(client, vars_uri)
    assert [d.code for d in never_opened.items] == ["invalid-value"], never_opened


async def test_workspace_pull_reports_a_closed_pcl_program_calling_an_open_component(client, tmp_path):
    (tmp_path / "net").mkdir()
    (tmp_path / "main.pp").write_text('component "net" "./net" {\n  mtu = "big"\n}\n')
    child = 'config "mtu" "int" {\n}\n'
    (tmp_path / "net" / "main.pp").write_text(child)
    await start(client, tmp_path)
    child_uri, program_uri = uri(tmp_path / "net" / "main.pp"), uri(tmp_path / "main.pp")
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=child_uri, language_id="pcl", version=1, text=child)
        )
    )
    await pull(client, child_uri)
    report = await asyncio.wait_for(client.workspace_diagnostic_async(types.WorkspaceDiagnosticParams(previous_result_ids=[])), 15)
    items = by_uri(report)
    assert [(d.code, d.range.start.line) for d in items[program_uri].items] == [("invalid-value", 1)], report
    # The component's config becomes a string: the closed program is fixed.
    previous = [types.PreviousResultId(uri=u, value=i.result_id) for u, i in items.items()]
    held = asyncio.ensure_future(client.workspace_diagnostic_async(types.WorkspaceDiagnosticParams(previous_result_ids=previous)))
    change(client, child_uri, 2, child, '"int"', '"string"')
    items = by_uri(await asyncio.wait_for(held, 15))
    assert program_uri in items and not items[program_uri].items, items


async def test_a_held_workspace_pull_ends_with_the_session(client, tmp_path):
    write(tmp_path)
    await start(client, tmp_path)
    open_doc(client, tmp_path / "net" / "main.tf", CHILD)
    first = await asyncio.wait_for(client.workspace_diagnostic_async(types.WorkspaceDiagnosticParams(previous_result_ids=[])), 15)
    previous = [types.PreviousResultId(uri=i.uri, value=i.result_id) for i in first.items]
    held = asyncio.ensure_future(client.workspace_diagnostic_async(types.WorkspaceDiagnosticParams(previous_result_ids=previous)))
    await asyncio.sleep(0.3)
    assert not held.done()
    started = time.monotonic()
    await client.shutdown_session()
    client.did_shutdown = True
    assert not (await asyncio.wait_for(held, 5)).items
    assert time.monotonic() - started < 5


async def test_a_large_list_is_pulled_whole(client, tmp_path):
    # Over 64 KB of diagnostics: the transport puts the list's JSON into
    # the answer instead of tower-lsp-server encoding it (splice.rs).
    n = 1500
    text = "".join(f'variable "_v{i}" {{\n  type    = number\n  default = "x{i}"\n}}\n' for i in range(n))
    (tmp_path / "main.tf").write_text(text)
    await start(client, tmp_path)
    root_uri = uri(tmp_path / "main.tf")
    open_doc(client, tmp_path / "main.tf", text)
    report = await pull(client, root_uri)
    assert len(report.items) == n, len(report.items)
    assert [(d.code, d.range.start.line) for d in report.items] == [("invalid-value", 4 * i + 2) for i in range(n)]
    assert report.items[7].message == 'invalid value for `number`: "x7" is not a number', report.items[7].message
    again = await pull(client, root_uri, report.result_id)
    assert again.kind == "unchanged"


async def test_files_no_longer_affected_are_cleared_once(client, tmp_path):
    write(tmp_path)
    await start(client, tmp_path)
    child_uri, root_uri, vars_uri = uri(tmp_path / "net" / "main.tf"), uri(tmp_path / "main.tf"), uri(tmp_path / "variables.tf")
    open_doc(client, tmp_path / "net" / "main.tf", CHILD)
    report = await asyncio.wait_for(client.workspace_diagnostic_async(types.WorkspaceDiagnosticParams(previous_result_ids=[])), 15)
    assert set(by_uri(report)) == {root_uri, vars_uri}, list(by_uri(report))
    # The child closes: nothing open, so nothing is affected; the client's
    # lists for the caller's files are emptied, once.
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=child_uri)))
    previous = [types.PreviousResultId(uri=i.uri, value=i.result_id) for i in report.items]
    report = await asyncio.wait_for(client.workspace_diagnostic_async(types.WorkspaceDiagnosticParams(previous_result_ids=previous)), 15)
    items = by_uri(report)
    assert set(items) == {root_uri, vars_uri} and all(not i.items for i in items.values()), report
    previous = [types.PreviousResultId(uri=i.uri, value=i.result_id) for i in report.items]
    held = asyncio.ensure_future(client.workspace_diagnostic_async(types.WorkspaceDiagnosticParams(previous_result_ids=previous)))
    await asyncio.sleep(0.5)
    assert not held.done(), "a cleared file was reported again"
