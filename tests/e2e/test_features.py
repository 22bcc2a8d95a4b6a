"""Hover on a PCL conditional of eventuals, dialect-aware type completion, and a
clean shutdown, through pytest-lsp with real editor capabilities."""

import asyncio
import time

import pytest
from lsprotocol import types

from support import capabilities, first_block, initialize, open_doc, pos, uri, wait_published

# `output` and `promise` are not type keywords of the pcl dialect
# (type-expressions.md §1): these two labels are reported as `type-dialect`
# errors that still yield their types, so the conditional is typed exactly.
PROGRAM = """\
# A program with an astral character before the conditional: 😀
config "flag" "bool" {
  default = true
}

config "o" "output(string)" {}
config "p" "promise(int)" {}

typed = { note = "😀é", v = flag ? o : p }
"""


@pytest.mark.parametrize("enc", ["utf-8", "utf-16"])
async def test_hover_on_a_conditional_of_output_and_promise_in_pcl(client, tmp_path, enc):
    await initialize(client, tmp_path, enc)
    doc = open_doc(client, tmp_path / "main.pp", PROGRAM, "pcl")
    published = await wait_published(client, doc, 1)
    assert sorted((d.code, d.range.start.line) for d in published.diagnostics) == [("type-dialect", 5), ("type-dialect", 6)]

    cond = PROGRAM.index("flag ? o : p")
    for offset in (PROGRAM.index("? o"), cond + 2):  # on the `?`, and inside `flag`
        hover = await client.text_document_hover_async(
            types.HoverParams(text_document=types.TextDocumentIdentifier(uri=doc), position=pos(PROGRAM, offset, enc))
        )
        if offset == cond + 2:
            # Inside `flag`, the innermost expression is the reference.
            assert first_block(hover) == "bool"
            continue
        assert hover.contents.kind == types.MarkupKind.Markdown
        assert first_block(hover) == "output(string)", hover.contents.value
        prose = hover.contents.value.split("\n```", 1)[1]
        assert "`output(string)`" in prose and "`promise(int)`" in prose, prose
        assert "`output(string)` and `promise(int)` unify to `output(string)`" in prose, prose
        # The range is the whole conditional, counted after the astral characters.
        assert hover.range.start == pos(PROGRAM, cond, enc), hover.range
        assert hover.range.end == pos(PROGRAM, cond + len("flag ? o : p"), enc), hover.range

    # Hover on a config's name gives the value type of what it declares.
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=doc), position=pos(PROGRAM, PROGRAM.index('"p"') + 1, enc))
    )
    assert first_block(hover) == "promise(int)"


def labels(result) -> list[str]:
    items = result.items if isinstance(result, types.CompletionList) else result
    return [i.label for i in items]


TERRAFORM = ["string", "number", "bool", "any", "list", "set", "map", "tuple", "object"]
NOT_TERRAFORM = ["int", "none", "union", "promise", "output", "optional"]


@pytest.mark.parametrize("enc", ["utf-8", "utf-16"])
async def test_type_completion_follows_the_dialect(client, tmp_path, enc):
    await initialize(client, tmp_path, enc)

    text = 'variable "x" {\n  description = "😀 ünï"\n  type = list(\n}\n'
    doc = open_doc(client, tmp_path / "variables.tf", text, "terraform")
    at = text.index("list(") + len("list(")
    result = await client.text_document_completion_async(
        types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=doc),
            position=pos(text, at, enc),
            context=types.CompletionContext(trigger_kind=types.CompletionTriggerKind.TriggerCharacter, trigger_character="("),
        )
    )
    got = labels(result)
    for want in TERRAFORM:
        assert want in got, f"{want} missing from {got}"
    for no in NOT_TERRAFORM:  # type-expressions.md §1: not in terraform (optional only inside object types)
        assert no not in got, f"{no} is not terraform: {got}"
    items = result.items if isinstance(result, types.CompletionList) else result
    snippet = {i.label: i for i in items}
    assert snippet["list"].insert_text == "list(${1})"
    assert snippet["list"].insert_text_format == types.InsertTextFormat.Snippet
    assert snippet["object"].insert_text == "object({${1}})"

    # A PCL config's type label: pcl has `int` and `optional(T)` anywhere, but
    # not `none`, `union`, `promise` or `output` (those are hcl-only).
    text = 'config "c" "list(" {}\n'
    doc = open_doc(client, tmp_path / "main.pp", text, "pcl")
    result = await client.text_document_completion_async(
        types.CompletionParams(text_document=types.TextDocumentIdentifier(uri=doc), position=pos(text, text.index("(") + 1, enc))
    )
    got = labels(result)
    for want in TERRAFORM + ["int", "optional"]:
        assert want in got, f"{want} missing from pcl {got}"
    for no in ["none", "union", "promise", "output"]:
        assert no not in got, f"{no} is not pcl: {got}"

    # Plain .hcl has the whole extended system.
    text = 'variable "z" {\n  type = \n}\n'
    doc = open_doc(client, tmp_path / "types.hcl", text)
    result = await client.text_document_completion_async(
        types.CompletionParams(text_document=types.TextDocumentIdentifier(uri=doc), position=pos(text, text.index("= ") + 2, enc))
    )
    got = labels(result)
    for want in TERRAFORM + ["int", "none", "union", "promise", "output"]:
        assert want in got, f"{want} missing from hcl {got}"


async def test_shutdown_then_exit_ends_the_process_with_status_0(client, tmp_path):
    await initialize(client, tmp_path, "utf-16")
    open_doc(client, tmp_path / "a.tf", "locals {\n  a = 1\n}\n", "terraform")
    await wait_published(client, uri(tmp_path / "a.tf"), 1)
    result = await asyncio.wait_for(client.shutdown_async(None), 5)
    assert result is None
    client.did_shutdown = True
    client.exit(None)
    server = client._server
    assert server is not None
    start = time.monotonic()
    code = await asyncio.wait_for(server.wait(), 5)
    assert code == 0, f"exit status {code}"
    assert time.monotonic() - start < 5


@pytest.mark.parametrize("supported", [True, False])
async def test_schema_loading_reports_progress_only_to_a_client_that_takes_it(client, tmp_path, supported):
    """`$/progress` (after `window/workDoneProgress/create`) while the schema files
    that settings name load, only for a client whose `window.workDoneProgress`
    says so (lsp.md, `window/logMessage` and progress)."""
    caps = capabilities("utf-16")
    caps.window = types.WindowClientCapabilities(work_done_progress=supported)
    await client.initialize_session(
        types.InitializeParams(capabilities=caps, root_uri=uri(tmp_path), workspace_folders=None)
    )
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"hclTypes": {"providerSchemas": [str(tmp_path / "none.json")]}})
    )
    # A request after the notification: its answer comes once the settings were taken.
    open_doc(client, tmp_path / "main.tf", 'variable "x" {}\n')
    await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=uri(tmp_path / "main.tf")))
    )
    # (The workspace's symbol index and its check report on tokens of their own.)
    schema_reports = lambda: [
        rs
        for token, rs in client.progress_reports.items()
        if token != "hcl-types/index" and not str(token).startswith("hcl-types/check/")
    ]
    for _ in range(50):
        if not supported or any(r for r in schema_reports() if r and r[-1].kind == "end"):
            break
        await asyncio.sleep(0.05)
    reports = [r for rs in schema_reports() for r in rs]
    if supported:
        assert [r.kind for r in reports] == ["begin", "end"], reports
        assert reports[0].title == "Loading schemas"
    else:
        assert reports == []
