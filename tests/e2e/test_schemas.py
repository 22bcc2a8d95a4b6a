"""Issue 15 through a real LSP client: with `hclTypes.providerSchemas` a
google resource attribute hovers with its type and the schema's
description, and with `hclTypes.packageSchemas` Pulumi's own random
program (`programs/random-pp.pp` of the package's tests) types
`randomPassword.result` as `output(string)`."""

import pytest
from lsprotocol import types

from support import first_block, initialize, needs_shared, offset_to_position, shared, uri, wait_published

TERRAFORM = """\
resource "google_compute_network" "vpc" {
  name = "vpc"
  mtu  = 1460
}

output "mtu" {
  value = google_compute_network.vpc.mtu
}
"""


# Third-party test data, read where it lies (support.shared).
GOOGLE = "schemas/terraform/google-4.27.0.json"
RANDOM = "schemas/pulumi/random-4.11.2.json"
RANDOM_PP = "schemas/pulumi/programs/random-pp.pp"


# Pulumi's random-pp test program (pulumi/pulumi tests/testdata/codegen/random-pp,
# ../shared/schemas/README.md), read where it lies.
def program() -> str:
    return shared(RANDOM_PP, "Pulumi's random-pp program").read_text(encoding="utf-8")


def open_doc(client, path, text, language):
    path.write_text(text, encoding="utf-8")
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri(path), language_id=language, version=1, text=text)
        )
    )
    return uri(path)


async def hover(client, doc, text, offset, enc):
    return await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=doc),
            position=types.Position(**offset_to_position(text, offset, enc)),
        )
    )


@needs_shared("schemas from settings in a real client", GOOGLE, RANDOM, RANDOM_PP)
@pytest.mark.parametrize("enc", ["utf-8", "utf-16"])
async def test_schemas_from_settings_type_resources(client, tmp_path, enc):
    options = {
        "hclTypes": {
            "providerSchemas": [str(shared(GOOGLE, "provider schemas from settings"))],
            "packageSchemas": [str(shared(RANDOM, "package schemas from settings"))],
        }
    }
    await initialize(client, tmp_path, enc, options)
    source = program()

    tf = open_doc(client, tmp_path / "main.tf", TERRAFORM, "terraform")
    published = await wait_published(client, tf, 1)
    assert list(published.diagnostics) == [], published.diagnostics
    h = await hover(client, tf, TERRAFORM, TERRAFORM.index("vpc.mtu") + len("vpc.m"), enc)
    assert first_block(h) == "number", h.contents.value
    assert "Maximum Transmission Unit" in h.contents.value, h.contents.value
    # On the argument in the resource body: its type, how it is set, and where from.
    h = await hover(client, tf, TERRAFORM, TERRAFORM.index("mtu  ="), enc)
    assert first_block(h) == "number", h.contents.value
    assert "optional" in h.contents.value and "google-4.27.0.json" in h.contents.value, h.contents.value

    pp = open_doc(client, tmp_path / "main.pp", source, "pcl")
    published = await wait_published(client, pp, 1)
    assert list(published.diagnostics) == [], published.diagnostics
    h = await hover(client, pp, source, source.index("randomPassword.result") + len("randomPassword.re"), enc)
    assert first_block(h) == "output(string)", h.contents.value


def test_pulumi_s_plugin_cache_types_a_program_in_the_server(tmp_path, monkeypatch):
    """With no setting at all, the package schema Pulumi cached beside its
    plugins ($PULUMI_HOME/plugins/schema-NAME-VERSION-.json) types the
    program's resources, as `check` does."""
    import shutil

    from rawlsp import RawServer
    from support import BIN

    plugins = tmp_path / "pulumi" / "plugins"
    plugins.mkdir(parents=True)
    random = shared(RANDOM, "Pulumi's plugin cache in the server")
    source = program()
    shutil.copy(random, plugins / "schema-random-4.11.2-.json")
    monkeypatch.setenv("PULUMI_HOME", str(tmp_path / "pulumi"))
    project = tmp_path / "project"
    project.mkdir()
    server = RawServer([str(BIN), "lsp"])
    try:
        server.initialize(str(project))
        path = project / "main.pp"
        path.write_text(source, encoding="utf-8")
        # Opened empty, then the program typed in: the package a new item
        # names is looked for (each edit scans only the items it parsed).
        server.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri(path), "languageId": "pcl", "version": 1, "text": ""}},
        )
        server.wait_notification("textDocument/publishDiagnostics", lambda p: p["uri"] == uri(path))
        start = {"line": 0, "character": 0}
        server.notify(
            "textDocument/didChange",
            {
                "textDocument": {"uri": uri(path), "version": 2},
                "contentChanges": [{"range": {"start": start, "end": start}, "text": source}],
            },
        )
        server.wait_notification("textDocument/publishDiagnostics", lambda p: p["uri"] == uri(path) and p.get("version") == 2)
        at = offset_to_position(source, source.index("randomPassword.result") + len("randomPassword.re"), "utf-16")
        h = server.request("textDocument/hover", {"textDocument": {"uri": uri(path)}, "position": at})
        assert h["result"]["contents"]["value"].split("\n")[1] == "output(string)", h
    finally:
        server.close()
