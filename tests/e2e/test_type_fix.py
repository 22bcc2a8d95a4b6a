"""The quick fix of a missing `type` in a real client (issue 32 item 4,
terraform-ls#1476): the type is unified from the variable's default, the
module's tfvars values and its callers' arguments. The caller is not open:
the server finds it by the workspace scan. A default of `80` alone gives
`number`; a caller passing `"8080"` makes it `string` (go-cty's unify: a
number converts to a string, not back)."""

import pytest
from lsprotocol import types

from support import initialize, uri, wait_published, write_module

CHILD = 'variable "port" {\n  default = 80\n}\n'
CALLER = 'module "web" {\n  source = "./web"\n  port   = "8080"\n}\n'


async def fix_titles(client, tmp_path, files):
    (tmp_path / "web").mkdir(parents=True)
    write_module(tmp_path, files)
    await initialize(client, tmp_path, "utf-16")
    child = tmp_path / "web" / "main.tf"
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri(child), language_id="terraform", version=1, text=CHILD)
        )
    )
    await wait_published(client, uri(child), 1)
    label = types.Range(start=types.Position(line=0, character=10), end=types.Position(line=0, character=14))
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri(child)),
            range=label,
            context=types.CodeActionContext(diagnostics=[]),
        )
    )
    fixes = [a for a in actions or [] if isinstance(a, types.CodeAction) and a.title.startswith("Declare")]
    edits = [e for a in fixes for e in a.edit.changes[uri(child)]]
    return [a.title for a in fixes], [e.new_text for e in edits]


@pytest.mark.parametrize(
    ("files", "title"),
    [
        ({"web/main.tf": CHILD}, "Declare type = number"),
        ({"web/main.tf": CHILD, "main.tf": CALLER}, "Declare type = string"),
    ],
    ids=["default-alone", "caller-passes-a-string"],
)
async def test_the_callers_argument_changes_the_declared_type(client, tmp_path, files, title):
    titles, texts = await fix_titles(client, tmp_path, files)
    assert titles == [title], titles
    assert texts == ["  " + title.removeprefix("Declare ") + "\n"], texts
