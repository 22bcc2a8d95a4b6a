"""References and rename across a caller and a callee in a real client
(issue 32 item 2): renaming a module's variable edits its declaration, its
`var.` uses and the argument in the caller, which is not open; references of
an output reach `module.net.id` in the caller; prepareRename refuses a
meta-argument; edits come as documentChanges or changes as the client says."""

import pytest
from lsprotocol import types

from support import capabilities, initialize, offset_to_position, uri, wait_published, write_module

ROOT = 'module "net" {\n  source = "./net"\n  name   = "main"\n}\n\noutput "id" {\n  value = module.net.id\n}\n'
CHILD = 'variable "name" {\n  type = string\n}\n\noutput "id" {\n  value = "net-${var.name}"\n}\n'


def write(root):
    (root / "net").mkdir(parents=True)
    write_module(root, {"main.tf": ROOT, "net/main.tf": CHILD})


def pos(text, needle, delta=0):
    p = offset_to_position(text, text.index(needle) + delta, "utf-16")
    return types.Position(line=p["line"], character=p["character"])


async def open_doc(client, path, text):
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(uri=uri(path), language_id="terraform", version=1, text=text))
    )
    await wait_published(client, uri(path), 1)


def edited(text, edits):
    """`text` with LSP edits applied (single-line ranges, utf-16 = ASCII here)."""
    lines = text.split("\n")
    for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        s, t = e.range.start, e.range.end
        assert s.line == t.line
        line = lines[s.line]
        lines[s.line] = line[: s.character] + e.new_text + line[t.character :]
    return "\n".join(lines)


async def test_rename_a_module_variable_edits_the_closed_caller(client, tmp_path):
    write(tmp_path)
    await initialize(client, tmp_path, "utf-16")
    child = tmp_path / "net" / "main.tf"
    await open_doc(client, child, CHILD)

    prepared = await client.text_document_prepare_rename_async(
        types.PrepareRenameParams(text_document=types.TextDocumentIdentifier(uri=uri(child)), position=pos(CHILD, '"name"', 2))
    )
    assert prepared == types.Range(start=pos(CHILD, '"name"', 1), end=pos(CHILD, '"name"', 5)), prepared

    result = await client.text_document_rename_async(
        types.RenameParams(
            text_document=types.TextDocumentIdentifier(uri=uri(child)), position=pos(CHILD, "var.name", 5), new_name="label"
        )
    )
    # VS Code takes documentChanges: the open child carries its version.
    assert result.changes is None and result.document_changes, result
    by_uri = {d.text_document.uri: d for d in result.document_changes}
    assert by_uri[uri(child)].text_document.version == 1
    assert by_uri[uri(tmp_path / "main.tf")].text_document.version is None
    assert edited(CHILD, by_uri[uri(child)].edits) == CHILD.replace('"name"', '"label"').replace("var.name", "var.label")
    assert edited(ROOT, by_uri[uri(tmp_path / "main.tf")].edits) == ROOT.replace("  name   =", "  label   =")


async def test_references_of_an_output_reach_the_caller_and_meta_arguments_are_refused(client, tmp_path):
    write(tmp_path)
    await initialize(client, tmp_path, "utf-16")
    root = tmp_path / "main.tf"
    await open_doc(client, root, ROOT)

    refs = await client.text_document_references_async(
        types.ReferenceParams(
            text_document=types.TextDocumentIdentifier(uri=uri(root)),
            position=pos(ROOT, "module.net.id", 12),
            context=types.ReferenceContext(include_declaration=True),
        )
    )
    got = sorted((r.uri, r.range.start.line, r.range.start.character) for r in refs)
    child_decl = pos(CHILD, '"id"', 1)
    use = pos(ROOT, "module.net.id", 11)
    assert got == sorted([(uri(root), use.line, use.character), (uri(tmp_path / "net" / "main.tf"), child_decl.line, child_decl.character)]), got

    highlights = await client.text_document_document_highlight_async(
        types.DocumentHighlightParams(text_document=types.TextDocumentIdentifier(uri=uri(root)), position=pos(ROOT, "module.net", 8))
    )
    assert sorted((h.range.start.line, h.kind) for h in highlights) == [(0, types.DocumentHighlightKind.Write), (6, types.DocumentHighlightKind.Read)]

    with pytest.raises(Exception, match="meta-argument"):
        await client.text_document_prepare_rename_async(
            types.PrepareRenameParams(text_document=types.TextDocumentIdentifier(uri=uri(root)), position=pos(ROOT, "source", 2))
        )


async def test_rename_answers_changes_to_a_client_without_document_changes(client, tmp_path):
    write(tmp_path)
    caps = capabilities("utf-16")
    caps.workspace.workspace_edit.document_changes = False
    await client.initialize_session(
        types.InitializeParams(capabilities=caps, root_uri=uri(tmp_path), workspace_folders=[types.WorkspaceFolder(uri=uri(tmp_path), name="m")])
    )
    root = tmp_path / "main.tf"
    await open_doc(client, root, ROOT)
    result = await client.text_document_rename_async(
        types.RenameParams(text_document=types.TextDocumentIdentifier(uri=uri(root)), position=pos(ROOT, "  name", 3), new_name="label")
    )
    assert result.document_changes is None, result
    assert set(result.changes) == {uri(root), uri(tmp_path / "net" / "main.tf")}
    assert edited(CHILD, result.changes[uri(tmp_path / "net" / "main.tf")]) == CHILD.replace('"name"', '"label"').replace("var.name", "var.label")
