"""Hover on an argument's name and on-type formatting (issue 48.1, 48.5),
through pytest-lsp with real editor capabilities: a meta-argument described
by the language's own table, and the indentation `terraform fmt` gives a new
line and a closing brace."""

import pytest
from lsprotocol import types

from support import first_block, initialize, open_doc, pos, wait_published


@pytest.mark.parametrize("enc", ["utf-8", "utf-16"])
async def test_hover_on_argument_names(client, tmp_path, enc):
    result = await initialize(client, tmp_path, enc)
    assert result.capabilities.declaration_provider
    text = 'resource "aws_instance" "web" {  # 😀\n  count = 2\n  ami   = "ami-1"\n  lifecycle {\n    prevent_destroy = true\n  }\n}\n'
    doc = open_doc(client, tmp_path / "main.tf", text, "terraform")
    await wait_published(client, doc, 1)

    async def hover(word):
        at = text.index(word) + 1
        return await client.text_document_hover_async(
            types.HoverParams(text_document=types.TextDocumentIdentifier(uri=doc), position=pos(text, at, enc))
        )

    h = await hover("count")
    assert first_block(h) == "number", h.contents.value
    assert "Meta-argument `count` of a `resource` block" in h.contents.value
    assert h.range.start == pos(text, text.index("count"), enc)
    h = await hover("prevent_destroy")
    assert first_block(h) == "bool", h.contents.value
    assert "`resource › lifecycle`" in h.contents.value
    # Without a provider schema, an argument of the provider's says what would type it.
    h = await hover("ami ")
    assert first_block(h) == "any", h.contents.value
    assert "no provider schema is known" in h.contents.value and "hclTypes.providerSchemas" in h.contents.value


@pytest.mark.parametrize("enc", ["utf-8", "utf-16"])
async def test_on_type_formatting_indents_as_terraform_fmt(client, tmp_path, enc):
    result = await initialize(client, tmp_path, enc)
    trigger = result.capabilities.document_on_type_formatting_provider
    assert trigger.first_trigger_character == "}" and list(trigger.more_trigger_character) == ["\n"]
    options = types.FormattingOptions(tab_size=4, insert_spaces=True)

    # A newline typed after `lifecycle {` in a block not closed yet.
    text = 'resource "a" "b" {\n  lifecycle {\n'
    doc = open_doc(client, tmp_path / "a.tf", text, "terraform")
    edits = await client.text_document_on_type_formatting_async(
        types.DocumentOnTypeFormattingParams(
            text_document=types.TextDocumentIdentifier(uri=doc), position=pos(text, len(text), enc), ch="\n", options=options
        )
    )
    assert [(e.range.start.line, e.range.start.character, e.new_text) for e in edits] == [(2, 0, "    ")]

    # A closing brace: the block it closes as `terraform fmt` writes it.
    text = "locals {\n  a=1\n  bb = 2\n    }\n"
    doc = open_doc(client, tmp_path / "b.tf", text, "terraform")
    edits = await client.text_document_on_type_formatting_async(
        types.DocumentOnTypeFormattingParams(
            text_document=types.TextDocumentIdentifier(uri=doc), position=pos(text, text.rindex("}") + 1, enc), ch="}", options=options
        )
    )
    # (ASCII text: positions are character offsets in either encoding.)
    starts = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]
    out = text
    for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        a = starts[e.range.start.line] + e.range.start.character
        b = starts[e.range.end.line] + e.range.end.character
        out = out[:a] + e.new_text + out[b:]
    assert out == "locals {\n  a  = 1\n  bb = 2\n}\n", edits
