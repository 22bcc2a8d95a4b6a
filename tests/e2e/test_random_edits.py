"""100 seeded random incremental edits to one open document of the module, then
the published diagnostics for the final version must equal what
`hcl-types check --format json` says about the final text written to disk:
same ranges (CLI character columns converted to LSP positions in the negotiated
encoding), codes, severities and messages. In both position encodings.

Positions are computed here from the LSP specification (support.py), never
clamped: every range sent is valid in the current text. Set E2E_SEED to explore
other seeds."""

import asyncio
import os
import random
import re
import shutil

import pytest
from lsprotocol import types

from support import (
    MODULE,
    apply_change,
    check_json,
    cli_as_lsp,
    initialize,
    is_valid_offset,
    line_starts,
    lsp_as_keys,
    offset_to_position,
    uri,
    wait_published,
    write_module,
)

EDITS = 100
SEED = int(os.environ.get("E2E_SEED", "20261123"))

SNIPPETS = [
    '"x"', "{", "}", "var.", "var.region", "var.subnets", "local.", "local.sum", "42", "3.5", "-7",
    "340282366920938463463374607431768211456", "\n", "\r\n", "\r", "\n\n", "😀", "𝕏", "é", "中文",
    " = ", " ", "[", "]", "(", ")", ",", "#", "//", "/*", "*/", '"', "${", "null", "true", "tobool(",
    "list(string)", "map(number)", "type = number", "default = \"é\"",
    'locals {\n  extra = "😀"\n}\n', 'variable "v" {\r\n  type = list(numbr)\r\n}\r\n',
    'output "o" {\n  value = var.flag ? 1 : "a"\n}\n', " ? ", " : ", "= [1, 2]",
]


def random_offset(rng: random.Random, text: str) -> int:
    while True:
        o = rng.randint(0, len(text))
        if is_valid_offset(text, o):
            return o


TOKEN = re.compile(
    r'"[^"\r\n]*"|\b\d+(?:\.\d+)?\b|\b(?:var|local)\.\w+|\b(?:string|number|bool|any|list|map|set|object|int|true|false|null)\b'
)
TOKENS = ['"2"', '"maybe"', '"é😀"', "42", "3.5", "true", "null", "var.region", "var.nope", "var.flag", "var.subnets",
          "local.sum", "local.label", "numbr", "string", "number", "bool", "list(string)", "map(number)", "int"]
BLOCKS = [
    'variable "v{n}" {{\n  type    = map(number)\n  default = {{ a = "x" }}\n}}\n',
    'locals {{\n  l{n} = var.flag ? 1 : "a"\n  m{n} = var.subnets["k"].cidrr\n}}\n',
    'output "o{n}" {{\n  value = var.count_hint + "😀"\n}}\n',
    'variable "w{n}" {{\r\n  type = object({{ a = string, b = optional(number, "five") }})\r\n}}\r\n',
    'ports = ["80", "x"]\n',
    'count_hint = "é"\n',
]


def random_change(rng: random.Random, text: str, enc: str, n: int):
    """A valid range change: most are small random insertions, deletions and
    replacements; some swap a token (a literal, a reference, a type keyword) for
    another, some insert a whole block at a line start, so that the text keeps
    enough structure for type diagnostics to matter."""
    roll = rng.random()
    tokens = list(TOKEN.finditer(text))
    if roll < 0.25 and tokens:
        m = rng.choice(tokens)
        a, b, new = m.start(), m.end(), rng.choice(TOKENS)
    elif roll < 0.35:
        a = rng.choice(line_starts(text))
        b, new = a, rng.choice(BLOCKS).format(n=n)
    else:
        kind = rng.choice(["insert", "insert", "delete", "replace"])
        a = random_offset(rng, text)
        if kind == "insert":
            b = a
        else:
            b = min(len(text), a + rng.choice([1, 1, 2, 3, 5, 8, 20]))
            while not is_valid_offset(text, b):
                b += 1
        new = "" if kind == "delete" else "".join(rng.choice(SNIPPETS) for _ in range(rng.choice([1, 1, 1, 2])))
    change = {
        "range": {"start": offset_to_position(text, a, enc), "end": offset_to_position(text, b, enc)},
        "text": new,
    }
    after = text[:a] + new + text[b:]
    # The model's own position math must agree with the splice.
    assert apply_change(text, change, enc) == after
    return change, after


def to_lsp(change) -> types.TextDocumentContentChangePartial:
    r = change["range"]
    return types.TextDocumentContentChangePartial(
        range=types.Range(
            start=types.Position(**r["start"]),
            end=types.Position(**r["end"]),
        ),
        text=change["text"],
    )


@pytest.mark.timeout(90)
@pytest.mark.parametrize("enc", ["utf-8", "utf-16"])
async def test_random_incremental_edits_end_where_the_cli_does(client, tmp_path, enc):
    rng = random.Random(f"{SEED}-{enc}")
    root = write_module(tmp_path / "module")
    await initialize(client, root, enc)
    name = rng.choice(sorted(MODULE))
    doc = uri(root / name)
    text = MODULE[name]
    for other, t in MODULE.items():
        client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(uri=uri(root / other), language_id="terraform", version=1, text=t)
            )
        )
    await wait_published(client, doc, 1)

    version = 1
    done = 0
    checked = 0

    async def compare_with_cli(tag: str):
        published = await wait_published(client, doc, version, timeout=30)
        # The text on disk, in a copy of the module, checked by the CLI.
        copy = tmp_path / f"copy-{tag}"
        shutil.copytree(root, copy)
        with open(copy / name, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        cli = cli_as_lsp(check_json(copy), copy / name, enc)
        got = lsp_as_keys(published.diagnostics)
        if os.environ.get("E2E_DEBUG"):
            print(tag, name, version, repr(text), got)
        assert got == cli, (
            f"{name} after {done} edits (seed {SEED}, {enc}, version {version}) differs from the CLI.\n"
            f"text: {text!r}\nonly LSP: {sorted(set(got) - set(cli))}\nonly CLI: {sorted(set(cli) - set(got))}"
        )
        return got

    while done < EDITS:
        # One to three changes per notification, each relative to the previous one.
        changes = []
        for _ in range(min(EDITS - done, rng.choice([1, 1, 1, 2, 3]))):
            change, text = random_change(rng, text, enc, done)
            changes.append(to_lsp(change))
            done += 1
        version += rng.choice([1, 1, 1, 2, 7])  # versions grow, not necessarily by one
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=doc, version=version),
                content_changes=changes,
            )
        )
        if rng.random() < 0.15:
            # A request in the middle of the edits is answered (its content is not checked).
            await asyncio.wait_for(
                client.text_document_document_symbol_async(
                    types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=doc))
                ),
                10,
            )
        if rng.random() < 0.1:
            await asyncio.sleep(0.05)
        # Checkpoints on the way (after about 25, 50 and 75 edits), then the end.
        if done < EDITS and done // 25 > checked:
            checked = done // 25
            await compare_with_cli(f"at-{done}")

    await compare_with_cli("final")

    # Only ever the newest version: the versions published for the document never go back.
    # (A list published while the file was not yet open has no version: docs/spec/lsp.md, closed files.)
    versions = [p.version for p in client.published if p.uri == doc and p.version is not None]
    assert versions == sorted(versions), versions
    assert versions[-1] == version

    # Nothing arrives afterwards for an older version.
    await asyncio.sleep(0.3)
    assert [p.version for p in client.published if p.uri == doc][-1] == version
