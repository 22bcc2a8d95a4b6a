"""A multi-file Terraform module opened in a real client: published diagnostics
(codes and exact ranges, equal to the CLI's), definitions and hovers across files,
and re-publication of a dependent file when its dependency changes."""

import pytest
from lsprotocol import types

from support import (
    MODULE,
    check_json,
    cli_as_lsp,
    first_block,
    initialize,
    lsp_as_keys,
    offset_to_position,
    uri,
    wait_published,
    write_module,
)


def at(name: str, needle: str, enc: str, delta: int = 0) -> dict:
    text = MODULE[name]
    return offset_to_position(text, text.index(needle) + delta, enc)


def span(name: str, needle: str, enc: str, delta: int = 0, length: int | None = None):
    start = at(name, needle, enc, delta)
    end = at(name, needle, enc, delta + (len(needle) if length is None else length))
    return ((start["line"], start["character"]), (end["line"], end["character"]))


async def open_module(client, root):
    for name, text in MODULE.items():
        client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(uri=uri(root / name), language_id="terraform", version=1, text=text)
            )
        )
    return {name: (await wait_published(client, uri(root / name), 1)).diagnostics for name in MODULE}


def pos(p: dict) -> types.Position:
    return types.Position(line=p["line"], character=p["character"])


@pytest.mark.parametrize("enc", ["utf-8", "utf-16"])
async def test_module_diagnostics_match_the_expected_ranges_and_the_cli(client, tmp_path, enc):
    root = write_module(tmp_path / "module")
    await initialize(client, root, enc)
    published = await open_module(client, root)

    def got(name):
        return sorted((d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character, d.code, int(d.severity)) for d in published[name])

    def want(*items):
        return sorted((s[0], s[1], e[0], e[1], code, sev) for ((s, e), code, sev) in items)

    assert got("main.tf") == want(
        (span("main.tf", ".zonee", enc, 0, 6), "traversal", 1),
        (span("main.tf", "var.nope", enc), "undefined-reference", 1),
        # Locals nothing reads: hints (docs/spec/analysis.md §5.1).
        (span("main.tf", "label", enc), "unused-local", 4),
        (span("main.tf", "sum", enc), "unused-local", 4),
        (span("main.tf", "zone", enc), "unused-local", 4),
    ), published["main.tf"]
    assert got("variables.tf") == want(
        (span("variables.tf", '"2"', enc), "implicit-conversion", 4),
        (span("variables.tf", "numbr", enc), "type-syntax", 1),
        (span("variables.tf", '"flag"', enc), "unused-variable", 4),
        (span("variables.tf", '"ports"', enc), "unused-variable", 4),
    ), published["variables.tf"]
    assert got("terraform.tfvars") == want(
        (span("terraform.tfvars", '"maybe"', enc), "invalid-value", 1),
        (span("terraform.tfvars", "regoin", enc), "undefined-reference", 2),
    ), published["terraform.tfvars"]
    # Every diagnostic is attributed to this server.
    assert {d.source for ds in published.values() for d in ds} == {"hcl-types"}

    # The same diagnostics as `hcl-types check --format json`, message for message.
    cli = check_json(root)
    for name in MODULE:
        assert lsp_as_keys(published[name]) == cli_as_lsp(cli, root / name, enc), name


@pytest.mark.parametrize("enc", ["utf-8", "utf-16"])
async def test_definition_and_hover_cross_files(client, tmp_path, enc):
    root = write_module(tmp_path / "module")
    await initialize(client, root, enc)
    await open_module(client, root)
    main = uri(root / "main.tf")

    # var.region in main.tf (after an astral character on the same line) -> variables.tf.
    where = at("main.tf", "var.region", enc, len("var.reg"))
    result = await client.text_document_definition_async(
        types.DefinitionParams(text_document=types.TextDocumentIdentifier(uri=main), position=pos(where))
    )
    loc = result[0] if isinstance(result, list) else result
    target = getattr(loc, "target_uri", None) or loc.uri
    rng = getattr(loc, "target_selection_range", None) or loc.range
    assert target == uri(root / "variables.tf"), loc
    assert (rng.start.line, rng.start.character) == tuple(at("variables.tf", '"region"', enc).values()), loc

    # var.subnets, declared in the other file, used after astral characters.
    where = at("main.tf", "var.subnets", enc, 5)
    result = await client.text_document_definition_async(
        types.DefinitionParams(text_document=types.TextDocumentIdentifier(uri=main), position=pos(where))
    )
    loc = result[0] if isinstance(result, list) else result
    assert (getattr(loc, "target_uri", None) or loc.uri) == uri(root / "variables.tf")
    rng = getattr(loc, "target_selection_range", None) or loc.range
    assert rng.start.line == at("variables.tf", '"subnets"', enc)["line"]

    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=main), position=pos(at("main.tf", "var.region", enc, 5)))
    )
    assert first_block(hover) == "string"
    assert "variables.tf:2" in hover.contents.value, hover.contents.value
    assert hover.range.start == pos(at("main.tf", "var.region", enc)), hover.range
    assert hover.range.end == pos(at("main.tf", "var.region", enc, len("var.region")))

    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=main), position=pos(at("main.tf", "var.subnets", enc, 6)))
    )
    assert first_block(hover) == "map(object({cidr = string, zone = union(none, string)}))"
    assert "variables.tf:12" in hover.contents.value, hover.contents.value

    # Inside a string key made of astral characters: its range is counted in `enc`.
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=main), position=pos(at("main.tf", '"𝕏😀"', enc, 2)))
    )
    assert first_block(hover) == "string"
    assert hover.range.start == pos(at("main.tf", '"𝕏😀"', enc)), hover.range
    assert hover.range.end == pos(at("main.tf", '"𝕏😀"', enc, 4)), hover.range


async def test_hover_names_the_declaration_once(client, tmp_path):
    root = write_module(tmp_path / "module")
    await initialize(client, root, "utf-16")
    await open_module(client, root)
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri(root / "main.tf")),
            position=pos(at("main.tf", "value = var.region", "utf-16", len("value = var."))),
        )
    )
    value = hover.contents.value
    assert value.count("Variable `region` is declared here (variables.tf:2)") == 1, value


async def test_tfvars_related_information_points_at_the_declaration(client, tmp_path):
    root = write_module(tmp_path / "module")
    await initialize(client, root, "utf-16")
    published = await open_module(client, root)
    (invalid,) = [d for d in published["terraform.tfvars"] if d.code == "invalid-value"]
    assert invalid.related_information, invalid
    related = invalid.related_information[0]
    assert related.location.uri == uri(root / "variables.tf"), related
    declared = at("variables.tf", 'variable "flag"', "utf-16")["line"]
    assert declared <= related.location.range.start.line <= declared + 2, related


async def test_changing_a_declaration_republishes_its_users(client, tmp_path):
    root = write_module(tmp_path / "module")
    await initialize(client, root, "utf-16")
    await open_module(client, root)
    before = len(client.published)
    variables = uri(root / "variables.tf")
    start = at("variables.tf", '"region"', "utf-16", 1)
    end = at("variables.tf", '"region"', "utf-16", 7)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=variables, version=2),
            content_changes=[
                types.TextDocumentContentChangePartial(range=types.Range(start=pos(start), end=pos(end)), text="area")
            ],
        )
    )
    await wait_published(client, variables, 2)
    main = uri(root / "main.tf")
    import asyncio

    for _ in range(250):
        later = [p for p in client.published[before:] if p.uri == main]
        if later and any("var.region" in d.message for d in later[-1].diagnostics):
            break
        await asyncio.sleep(0.02)
    else:
        raise AssertionError(f"main.tf was not re-published after var.region disappeared: {client.published[before:]}")
    undefined = [d for d in later[-1].diagnostics if d.code == "undefined-reference" and "var.region" in d.message]
    assert len(undefined) == 2, later[-1].diagnostics  # the local and the output
    # The open tfvars file now names an unknown variable `region`.
    tfvars = [p for p in client.published[before:] if p.uri == uri(root / "terraform.tfvars")]
    assert tfvars and any(d.code == "undefined-reference" and "`region`" in d.message for d in tfvars[-1].diagnostics)


# Terraform's JSON syntax, minified, with multi-byte characters and a JSON-only
# escape (`\/`) ahead of the error (json.mdx in hashicorp/terraform).
JSON_MODULE = {
    "variables.tf": 'variable "zone" {\n  type = number\n}\n',
    # (`_`: kept deliberately, so none is an unused declaration.)
    "min.tf.json": '{"locals":{"_é":"ü\\/😀","_a":"${var.nope}","_b":"${var.zone}"},"variable":{"_size":{"type":"number"}}}\n',
}


@pytest.mark.parametrize("enc", ["utf-8", "utf-16"])
async def test_a_json_file_opened_as_json_gets_diagnostics_and_hovers(client, tmp_path, enc):
    root = write_module(tmp_path / "module", JSON_MODULE)
    await initialize(client, root, enc)
    text = JSON_MODULE["min.tf.json"]
    doc = uri(root / "min.tf.json")
    # VS Code sends `*.tf.json` with the language id `json` (editors/vscode selects it by pattern).
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=doc, language_id="json", version=1, text=text)
        )
    )
    published = (await wait_published(client, doc, 1)).diagnostics
    start = offset_to_position(text, text.index("var.nope"), enc)
    end = offset_to_position(text, text.index("var.nope") + len("var.nope"), enc)
    assert [(d.code, d.range.start.line, d.range.start.character, d.range.end.character) for d in published] == [
        ("undefined-reference", start["line"], start["character"], end["character"])
    ], published
    # The same place as `hcl-types check --format json` gives.
    assert lsp_as_keys(published) == cli_as_lsp(check_json(root), root / "min.tf.json", enc)
    # Hover on a reference in a template, and on a declaration's own name.
    for needle, delta, ty in [("var.zone", 5, "number"), ('"_size"', 2, "number")]:
        p = offset_to_position(text, text.index(needle) + delta, enc)
        hover = await client.text_document_hover_async(
            types.HoverParams(text_document=types.TextDocumentIdentifier(uri=doc), position=pos(p))
        )
        assert hover is not None and first_block(hover) == ty, (needle, hover)
        assert hover.range.start == pos(offset_to_position(text, text.index(needle), enc)), (needle, hover.range)
