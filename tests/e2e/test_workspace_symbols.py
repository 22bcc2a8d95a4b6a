"""Workspace symbols (issue 32.3): every module of the workspace folder is
indexed in the background, with `$/progress` shown to a client that takes
it; `workspace/symbol` finds names across modules, an open document's
unsaved text standing for its file."""

import asyncio

from lsprotocol import types

from support import initialize, uri

MAIN = """\
variable "region" {}

module "net" {
  source = "./modules/net"
}
"""

NET = """\
# 😀 an astral character before the label: UTF-16 columns differ
resource "aws_vpc" "main" {}

output "vpc_id" {
  value = aws_vpc.main.id
}
"""


async def symbols(client, query):
    return await client.workspace_symbol_async(types.WorkspaceSymbolParams(query=query)) or []


async def test_workspace_symbols_across_modules_with_progress(client, tmp_path):
    (tmp_path / "main.tf").write_text(MAIN, encoding="utf-8")
    (tmp_path / "modules" / "net").mkdir(parents=True)
    (tmp_path / "modules" / "net" / "main.tf").write_text(NET, encoding="utf-8")
    # Installed modules are not the user's: never indexed.
    (tmp_path / ".terraform" / "modules" / "x").mkdir(parents=True)
    (tmp_path / ".terraform" / "modules" / "x" / "main.tf").write_text('variable "vendored" {}\n', encoding="utf-8")
    result = await initialize(client, tmp_path, "utf-16")
    assert result.capabilities.workspace_symbol_provider

    found = []
    for _ in range(100):
        found = await symbols(client, "vpc")
        if found:
            break
        await asyncio.sleep(0.1)
    # A name whose last part starts with the query first.
    assert [s.name for s in found] == ["output.vpc_id", "aws_vpc.main"]
    vpc = found[1]
    assert vpc.location.uri == uri(tmp_path / "modules" / "net" / "main.tf")
    assert vpc.kind == types.SymbolKind.Struct
    # `"main"` on line 1; the comment's 😀 is on line 0, so columns are plain.
    assert (vpc.location.range.start.line, vpc.location.range.start.character) == (1, 19)
    assert (vpc.location.range.end.line, vpc.location.range.end.character) == (1, 25)
    assert vpc.container_name == str(tmp_path / "modules" / "net")

    names = [s.name for s in await symbols(client, "")]
    assert names == ["aws_vpc.main", "module.net", "output.vpc_id", "var.region"], names
    assert not await symbols(client, "vendored")
    # Fuzzy: the query's characters in order.
    assert [s.name for s in await symbols(client, "vreg")] == ["var.region"]

    # The bar was shown: begun, reported, ended.
    reports = client.progress_reports.get("hcl-types/index", [])
    kinds = [r.kind for r in reports]
    assert kinds[0] == "begin" and kinds[-1] == "end", kinds

    # An open document's unsaved text stands for its file.
    doc = uri(tmp_path / "main.tf")
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=doc, language_id="terraform", version=1, text=MAIN + 'variable "zone" {}\n'
            )
        )
    )
    assert [s.name for s in await symbols(client, "zone")] == ["var.zone"]


async def test_a_client_that_watches_nothing_still_sees_new_files_in_watched_modules(client, tmp_path):
    """Neovim on Linux registers no file watching: the server's own watch
    of the modules it analyses tells the symbol index of a new file."""
    (tmp_path / "main.tf").write_text(MAIN, encoding="utf-8")
    await initialize(client, tmp_path, "utf-8")
    doc = uri(tmp_path / "main.tf")
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=doc, language_id="terraform", version=1, text=MAIN)
        )
    )
    for _ in range(100):
        if await symbols(client, "region"):
            break
        await asyncio.sleep(0.1)
    # Analysed (and so watched by the server) once its diagnostics came.
    for _ in range(100):
        if doc in client.diagnostics:
            break
        await asyncio.sleep(0.1)
    assert doc in client.diagnostics
    # Written behind the editor's back, beside the open module.
    (tmp_path / "extra.tf").write_text('variable "added_outside" {}\n', encoding="utf-8")
    found = []
    for _ in range(100):
        found = await symbols(client, "added_outside")
        if found:
            break
        await asyncio.sleep(0.1)
    assert [s.name for s in found] == ["var.added_outside"]
