"""Module calls in a real client (issue 14): changing a called module's
variable type makes the caller's diagnostic appear and disappear, without the
caller being touched; hover and definition cross into the called module."""

import asyncio

from lsprotocol import types

from support import change, first_block, initialize, offset_to_position, uri, wait_published

ROOT = 'module "net" {\n  source = "./net"\n  name   = "main"\n  mtu    = 1500\n}\n\noutput "id" {\n  value = module.net.id\n}\n'
CHILD = 'variable "name" {\n  type = string\n}\n\nvariable "mtu" {\n  type    = number\n  default = 1460\n}\n\noutput "id" {\n  value = "net-${var.name}"\n}\n'


def write(root):
    (root / "net").mkdir(parents=True)
    (root / "main.tf").write_text(ROOT)
    (root / "net" / "main.tf").write_text(CHILD)


async def newest(client, doc_uri, done, timeout=15.0):
    """The newest diagnostics published for `doc_uri` once `done` holds of them."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        mine = [p for p in client.published if p.uri == doc_uri]
        if mine and done(mine[-1].diagnostics):
            return mine[-1].diagnostics
        if loop.time() > deadline:
            raise AssertionError(f"{doc_uri}: {mine[-1].diagnostics if mine else 'nothing published'}")
        await asyncio.sleep(0.02)


def change_type(client, child_uri, version, old, new):
    """The type of `mtu` from `old` to `new`."""
    change(client, child_uri, version, CHILD.replace("number", old, 1), f"type    = {old}", f"type    = {new}")


async def test_a_child_variable_type_change_reaches_the_caller(client, tmp_path):
    write(tmp_path)
    await initialize(client, tmp_path, "utf-16")
    root_uri, child_uri = uri(tmp_path / "main.tf"), uri(tmp_path / "net" / "main.tf")
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(uri=root_uri, language_id="terraform", version=1, text=ROOT))
    )
    assert not (await wait_published(client, root_uri, 1)).diagnostics
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(uri=child_uri, language_id="terraform", version=1, text=CHILD))
    )
    await wait_published(client, child_uri, 1)

    # mtu becomes a bool: the caller's 1500 no longer converts.
    change_type(client, child_uri, 2, "number", "bool")
    diags = await newest(client, root_uri, lambda d: len(d) > 0)
    assert [(d.code, d.range.start.line) for d in diags] == [("invalid-value", 3)], diags
    assert diags[0].related_information and diags[0].related_information[0].location.uri == child_uri

    # And back to number: the diagnostic goes.
    change_type(client, child_uri, 3, "bool", "number")
    assert not await newest(client, root_uri, lambda d: not d)


async def test_hover_and_definition_reach_into_the_called_module(client, tmp_path):
    write(tmp_path)
    await initialize(client, tmp_path, "utf-16")
    root_uri = uri(tmp_path / "main.tf")
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(uri=root_uri, language_id="terraform", version=1, text=ROOT))
    )
    await wait_published(client, root_uri, 1)
    at = offset_to_position(ROOT, ROOT.index("module.net.id") + len("module.net.i"), "utf-16")
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=root_uri), position=types.Position(**at))
    )
    assert first_block(hover) == "string"
    found = await client.text_document_definition_async(
        types.DefinitionParams(text_document=types.TextDocumentIdentifier(uri=root_uri), position=types.Position(**at))
    )
    location = found[0] if isinstance(found, list) else found
    assert location.uri == uri(tmp_path / "net" / "main.tf")
    assert location.range.start.line == CHILD.count("\n", 0, CHILD.index('"id"'))
