"""Code actions in a real client (issue 44 items 3-4, issue 48 item 4;
docs/spec/lsp.md "Code actions"): a missing variable declared in the
module's `variables.tf` (not open) with the type its use expects, an
unused local removed, the missing arguments of a module call added, and the variables of a file moved to a
`variables.tf` the action creates. The client is VS Code's capabilities
(`documentChanges`, file creation)."""

from lsprotocol import types

from support import initialize, uri, wait_published, write_module


def apply(text: str, edits) -> str:
    """`text` after LSP text edits (single-line ranges here, utf-16 = ASCII)."""
    lines = text.split("\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)

    def off(p):
        return starts[p.line] + p.character if p.line < len(starts) else len(text)

    for e in sorted(edits, key=lambda e: off(e.range.start), reverse=True):
        text = text[: off(e.range.start)] + e.new_text + text[off(e.range.end) :]
    return text


# The lints of unused declarations are hints unless a severity says otherwise.
LINTS_OFF = {"hclTypes": {"severity": {"unused-local": "off", "unused-variable": "off"}}}


async def actions_at(client, tmp_path, files, line, start, end, options=None):
    write_module(tmp_path, files)
    await initialize(client, tmp_path, "utf-16", options)
    main = tmp_path / "main.tf"
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri(main), language_id="terraform", version=1, text=files["main.tf"]
            )
        )
    )
    await wait_published(client, uri(main), 1)
    rng = types.Range(start=types.Position(line=line, character=start), end=types.Position(line=line, character=end))
    got = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri(main)),
            range=rng,
            context=types.CodeActionContext(diagnostics=[]),
        )
    )
    return {a.title: a for a in got or [] if isinstance(a, types.CodeAction)}


def changes(action):
    """Per URI the edits of an action's `documentChanges`, and the URIs it creates."""
    edits, created = {}, []
    for op in action.edit.document_changes:
        if isinstance(op, types.CreateFile):
            created.append(op.uri)
        else:
            edits.setdefault(op.text_document.uri, []).extend(op.edits)
    return edits, created


async def test_a_missing_variable_is_declared_in_variables_tf(client, tmp_path):
    variables = 'variable "other" {\n  type = string\n}\n'
    files = {"main.tf": 'output "o" { value = upper(var.name) }\n', "variables.tf": variables}
    actions = await actions_at(client, tmp_path, files, 0, 27, 35)
    action = actions['Declare `variable "name"` (string)']
    assert action.kind == types.CodeActionKind.QuickFix
    assert action.diagnostics and action.diagnostics[0].code == "undefined-reference"
    edits, created = changes(action)
    assert created == [] and list(edits) == [uri(tmp_path / "variables.tf")], edits
    fixed = apply(variables, edits[uri(tmp_path / "variables.tf")])
    assert fixed == variables + '\nvariable "name" {\n  type = string\n}\n', fixed


async def test_a_missing_argument_of_a_module_call_is_added(client, tmp_path):
    main = 'module "net" {\n  source = "./net"\n}\n'
    net = 'variable "name" { type = string }\nvariable "zones" { type = list(string) }\n'
    files = {"main.tf": main, "net/main.tf": net}
    (tmp_path / "net").mkdir(parents=True)
    actions = await actions_at(client, tmp_path, files, 0, 0, 12)
    action = actions['Add argument `zones = []`']
    assert action.kind == types.CodeActionKind.QuickFix
    assert action.diagnostics and action.diagnostics[0].code == "missing-argument"
    edits, _ = changes(action)
    fixed = apply(main, edits[uri(tmp_path / "main.tf")])
    assert fixed == 'module "net" {\n  source = "./net"\n  zones = []\n}\n', fixed
    edits, _ = changes(actions["Add all 2 missing arguments"])
    fixed = apply(main, edits[uri(tmp_path / "main.tf")])
    assert fixed == 'module "net" {\n  source = "./net"\n  name = ""\n  zones = []\n}\n', fixed


async def test_an_unused_local_is_not_offered_while_the_lint_is_off(client, tmp_path):
    main = 'locals {\n  a = 1\n  b = 2\n}\noutput "o" { value = local.a }\n'
    assert "Remove `local.b`" not in await actions_at(client, tmp_path, {"main.tf": main}, 2, 2, 3, LINTS_OFF)


async def test_an_unused_local_is_removed_as_the_lint_is_on_by_default(client, tmp_path):
    main = 'locals {\n  a = 1\n  b = 2\n}\noutput "o" { value = local.a }\n'
    actions = await actions_at(client, tmp_path, {"main.tf": main}, 2, 2, 3)
    action = actions["Remove `local.b`"]
    assert action.diagnostics[0].code == "unused-local"
    assert action.diagnostics[0].severity == types.DiagnosticSeverity.Hint
    assert list(action.diagnostics[0].tags) == [types.DiagnosticTag.Unnecessary]
    edits, _ = changes(action)
    assert apply(main, edits[uri(tmp_path / "main.tf")]) == 'locals {\n  a = 1\n}\noutput "o" { value = local.a }\n'


async def test_variables_move_to_a_new_variables_tf(client, tmp_path):
    main = 'variable "region" {\n  type = string\n}\n\noutput "r" { value = var.region }\n'
    actions = await actions_at(client, tmp_path, {"main.tf": main}, 0, 0, 0)
    action = actions["Move the variables of this file to variables.tf"]
    edits, created = changes(action)
    target = uri(tmp_path / "variables.tf")
    assert created == [target], created
    assert apply("", edits[target]) == 'variable "region" {\n  type = string\n}\n'
    assert apply(main, edits[uri(tmp_path / "main.tf")]) == 'output "r" { value = var.region }\n'


async def test_renaming_a_resource_offers_its_moved_block(client, tmp_path):
    main = 'resource "terraform_data" "old" {}\n\noutput "id" { value = terraform_data.old.id }\n'
    write_module(tmp_path, {"main.tf": main})
    await initialize(client, tmp_path, "utf-16")
    path = tmp_path / "main.tf"
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri(path), language_id="terraform", version=1, text=main)
        )
    )
    await wait_published(client, uri(path), 1)
    edit = await client.text_document_rename_async(
        types.RenameParams(
            text_document=types.TextDocumentIdentifier(uri=uri(path)),
            position=types.Position(line=0, character=29),
            new_name="new",
        )
    )
    annotation = edit.change_annotations["moved"]
    assert annotation.needs_confirmation is True, annotation
    (doc,) = edit.document_changes
    moved = [e for e in doc.edits if isinstance(e, types.AnnotatedTextEdit)]
    assert [e.annotation_id for e in moved] == ["moved"], doc.edits
    assert apply(main, doc.edits) == (
        'resource "terraform_data" "new" {}\n\noutput "id" { value = terraform_data.new.id }\n'
        "\nmoved {\n  from = terraform_data.old\n  to   = terraform_data.new\n}\n"
    )
