"""Shared helpers for the end-to-end tests: the binary, the fixture module, LSP
position math (written from the LSP 3.17 specification, independently of the
server), the CLI as an oracle, and a pytest-lsp client that keeps every
``publishDiagnostics`` with its version."""

from __future__ import annotations

import json
import os
import pathlib
import re
import subprocess
from typing import Any

import pytest
from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, LanguageClient, client_capabilities, register_lsp_features

REPO = pathlib.Path(__file__).resolve().parents[2]
BIN = os.environ.get("HCL_TYPES_BIN") or str(
    pathlib.Path(os.environ.get("CARGO_TARGET_DIR") or REPO / "target").resolve() / "release" / "hcl-types"
)


def _shared_dir() -> pathlib.Path | None:
    """The shared directory, by the one rule of scripts/shared-dir
    ($HCL_TYPES_SHARED, else ../shared beside the checkout), or None."""
    proc = subprocess.run([str(REPO / "scripts" / "shared-dir")], capture_output=True, text=True, check=False)
    return pathlib.Path(proc.stdout.strip()) if proc.returncode == 0 and proc.stdout.strip() else None


# Third-party test data (the real-world corpus, schemas printed by others),
# never committed: read where it lies, through `shared`.
SHARED = _shared_dir()


def _missing(rel: str, what: str) -> str | None:
    """The one line saying that `what` is skipped for want of SHARED/rel, or
    None when it is there."""
    if SHARED is not None and (SHARED / rel).exists():
        return None
    where = SHARED / rel if SHARED is not None else f"{os.environ.get('HCL_TYPES_SHARED') or '../shared'}/{rel}"
    return f"skipped {what}: no {where} (third-party test data; set HCL_TYPES_SHARED to the shared directory)"


def shared(rel: str, what: str) -> pathlib.Path:
    """SHARED/rel; when it is absent, skips the calling test with one line
    saying what is skipped (pytest's `-ra` summary prints it)."""
    reason = _missing(rel, what)
    if reason:
        pytest.skip(reason)
    return SHARED / rel


def needs_shared(what: str, *rels: str):
    """A mark that skips a test, before its fixtures start (a language
    client), when any of SHARED/rels is absent: one line for the first."""
    reason = next(filter(None, (_missing(rel, what) for rel in rels)), None)
    return pytest.mark.skipif(reason is not None, reason=reason or "")


# ---------------------------------------------------------------------------
# The fixture module: three files that refer to each other, with non-ASCII and
# astral characters before diagnostics so that the column encodings matter.

VARIABLES_TF = """\
# Variables — a note with ünïcode and 😀
variable "region" {
  type    = string
  default = "eu-west-1"
}

variable "count_hint" {
  type    = number
  default = "2"
}

variable "subnets" {
  type = map(object({
    cidr = string
    zone = optional(string)
  }))
}

variable "flag" {
  type = bool
}

variable "ports" {
  /* 😀 */ type = list(numbr)
}
"""

MAIN_TF = """\
locals {
  label = "😀 ${var.region}"
  sum   = var.count_hint * 2
  zone  = var.subnets["𝕏😀"].zonee
}

output "region" {
  value = var.region
}

output "missing" {
  value = { note = "é😀", v = var.nope }
}
"""

TFVARS = """\
region = "éu-west-1"
flag   = /* 😀 */ "maybe"
regoin = "x"
subnets = {
  a = { cidr = "10.0.0.0/24" }
}
"""

MODULE = {"variables.tf": VARIABLES_TF, "main.tf": MAIN_TF, "terraform.tfvars": TFVARS}


def write_module(directory: pathlib.Path, files: dict[str, str] | None = None) -> pathlib.Path:
    directory.mkdir(parents=True, exist_ok=True)
    for name, text in (files or MODULE).items():
        # newline="" keeps \r\n and lone \r exactly as written.
        with open(directory / name, "w", encoding="utf-8", newline="") as f:
            f.write(text)
    return directory


def uri(path: pathlib.Path | str) -> str:
    return pathlib.Path(path).resolve().as_uri()


# ---------------------------------------------------------------------------
# Positions (LSP 3.17): a line ends at \r\n, \n or \r; `character` counts code
# units of the negotiated encoding: UTF-16 code units or UTF-8 bytes.

_EOL = re.compile(r"\r\n|\r|\n")


def line_starts(text: str) -> list[int]:
    """Code point offsets at which each line starts."""
    return [0] + [m.end() for m in _EOL.finditer(text)]


def _units(s: str, enc: str) -> int:
    if enc == "utf-8":
        return len(s.encode("utf-8"))
    if enc == "utf-16":
        return len(s.encode("utf-16-le")) // 2
    raise ValueError(enc)


def line_content_end(text: str, starts: list[int], line: int) -> int:
    """Offset of the end of `line`'s content (before its terminator)."""
    if line + 1 < len(starts):
        nxt = starts[line + 1]
        return nxt - (2 if text[nxt - 2 : nxt] == "\r\n" else 1)
    return len(text)


def is_valid_offset(text: str, offset: int) -> bool:
    """A position can name this offset: it is not between the \\r and \\n of a pair."""
    return not (0 < offset < len(text) and text[offset - 1] == "\r" and text[offset] == "\n")


def offset_to_position(text: str, offset: int, enc: str) -> dict[str, int]:
    assert 0 <= offset <= len(text) and is_valid_offset(text, offset), offset
    starts = line_starts(text)
    line = max(i for i, s in enumerate(starts) if s <= offset)
    return {"line": line, "character": _units(text[starts[line] : offset], enc)}


def position_to_offset(text: str, pos: dict[str, int], enc: str, clamp: bool = False) -> int:
    """The code point offset of an LSP position. Without `clamp`, the position must
    be valid (on a code point boundary, inside its line); with it, a character past
    the line's end means the line's end and a line past the last means the end of
    the text (the LSP specification's rule)."""
    starts = line_starts(text)
    line, char = pos["line"], pos["character"]
    if line >= len(starts):
        assert clamp, pos
        return len(text)
    start, end = starts[line], line_content_end(text, starts, line)
    units = 0
    for i in range(start, end):
        if units == char:
            return i
        units += _units(text[i], enc)
        if units > char:
            raise AssertionError(f"{pos} splits a character in {enc}")
    if units == char:
        return end
    assert clamp, f"{pos} is past the end of line {line} ({units} units)"
    return end


def apply_change(text: str, change: dict[str, Any], enc: str, clamp: bool = False) -> str:
    if "range" not in change:
        return change["text"]
    a = position_to_offset(text, change["range"]["start"], enc, clamp)
    b = position_to_offset(text, change["range"]["end"], enc, clamp)
    return text[:a] + change["text"] + text[b:]


# ---------------------------------------------------------------------------
# The CLI as an oracle.

SEVERITY = {"error": 1, "warning": 2, "information": 3, "hint": 4}


def run(*args: str, timeout: float = 30) -> subprocess.CompletedProcess:
    return subprocess.run([BIN, *args], capture_output=True, text=True, timeout=timeout)


def check_json(directory: pathlib.Path) -> list[dict[str, Any]]:
    proc = run("check", "--format", "json", str(directory))
    entries = json.loads(proc.stdout)
    # Exit status 1 exactly when an error is reported, else 0 (2 is a failure).
    want = 1 if any(e["severity"] == "error" for e in entries) else 0
    assert proc.returncode == want, f"check exited {proc.returncode}, expected {want}: {proc.stderr}"
    return entries


def cli_as_lsp(entries: list[dict[str, Any]], path: pathlib.Path, enc: str) -> list[tuple]:
    """The CLI's diagnostics for `path`, converted to LSP (range, code, severity,
    message) tuples: 1-based lines and 1-based character columns become 0-based
    positions in `enc`, counted on the file's own text."""
    with open(path, encoding="utf-8", newline="") as f:
        text = f.read()
    starts = line_starts(text)

    def pos(line: int, column: int) -> dict[str, int]:
        ln = line - 1
        start = starts[ln]
        return {"line": ln, "character": _units(text[start : start + column - 1], enc)}

    out = []
    for e in entries:
        if pathlib.Path(e["path"]).resolve() != path.resolve():
            continue
        rng = (pos(e["line"], e["column"]), pos(e["end_line"], e["end_column"]))
        out.append(diag_key(rng, e["code"], SEVERITY[e["severity"]], e["message"]))
    return sorted(out)


def diag_key(rng, code, severity, message) -> tuple:
    (s, e) = rng
    return ((s["line"], s["character"]), (e["line"], e["character"]), code, severity, message)


def lsp_as_keys(diags) -> list[tuple]:
    out = []
    for d in diags:
        r = d.range
        out.append(
            diag_key(
                ({"line": r.start.line, "character": r.start.character}, {"line": r.end.line, "character": r.end.character}),
                d.code,
                int(d.severity),
                d.message,
            )
        )
    return sorted(out)


# ---------------------------------------------------------------------------
# A pytest-lsp client that also keeps each publishDiagnostics with its version.


def make_client() -> LanguageClient:
    client = LanguageClient(converter_factory=default_converter)
    client.published = []  # type: ignore[attr-defined]

    def publish(client: LanguageClient, params: types.PublishDiagnosticsParams):
        client.diagnostics[params.uri] = params.diagnostics
        client.published.append(params)  # type: ignore[attr-defined]

    features = dict(DEFAULT_CLIENT_FEATURES)
    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = publish

    # A real editor accepts dynamic registrations (the server registers its file
    # watchers with clients that support it, as VS Code's profile says it does).
    client.registrations = []  # type: ignore[attr-defined]

    def register(client: LanguageClient, params: types.RegistrationParams):
        client.registrations.extend(params.registrations)  # type: ignore[attr-defined]

    def unregister(client: LanguageClient, params: types.UnregistrationParams):
        return None

    # How often the server asked it to pull diagnostics again.
    client.refreshes = 0  # type: ignore[attr-defined]

    def refresh(client: LanguageClient, params: None):
        client.refreshes += 1  # type: ignore[attr-defined]

    features[types.WORKSPACE_DIAGNOSTIC_REFRESH] = refresh
    features[types.CLIENT_REGISTER_CAPABILITY] = register
    features[types.CLIENT_UNREGISTER_CAPABILITY] = unregister
    register_lsp_features(client, features)
    return client


async def wait_published(client, doc_uri: str, version: int | None = None, timeout: float = 15.0):
    """The first publishDiagnostics for `doc_uri` (and `version`, when given),
    received so far or later."""
    import asyncio

    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        for p in client.published:
            if p.uri == doc_uri and (version is None or p.version == version):
                return p
        if loop.time() > deadline:
            seen = [(p.uri, p.version) for p in client.published]
            raise AssertionError(f"no diagnostics for {doc_uri} version {version} within {timeout}s; got {seen}")
        await asyncio.sleep(0.02)


def change(client, doc_uri: str, version: int, text: str, old: str, new: str, enc: str = "utf-16") -> str:
    """Sends the change that replaces the first `old` in `text` by `new`;
    returns the new text."""
    start = text.index(old)
    s = offset_to_position(text, start, enc)
    e = offset_to_position(text, start + len(old), enc)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=doc_uri, version=version),
            content_changes=[
                types.TextDocumentContentChangePartial(range=types.Range(start=types.Position(**s), end=types.Position(**e)), text=new)
            ],
        )
    )
    return text[:start] + new + text[start + len(old) :]


def pos(text: str, offset: int, enc: str) -> types.Position:
    return types.Position(**offset_to_position(text, offset, enc))


def open_doc(client, path, text, language="hcl"):
    """Writes `text` at `path` and opens it (version 1) in a pytest-lsp client."""
    path.write_text(text, encoding="utf-8")
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri(path), language_id=language, version=1, text=text)
        )
    )
    return uri(path)


def first_block(hover) -> str:
    value = hover.contents.value
    assert value.startswith("```hcl\n"), f"hover must open with a fenced block: {value!r}"
    return value[len("```hcl\n") :].split("\n```")[0]


# ---------------------------------------------------------------------------
# Starting a session with a real editor's capabilities.


def capabilities(enc: str) -> types.ClientCapabilities:
    """A real editor's capabilities: Neovim 0.11 offers utf-8 (then utf-16,
    utf-32); VS Code 1.65 offers no positionEncodings at all, so utf-16."""
    if enc == "utf-8":
        caps = client_capabilities("neovim@v0.11.0")
        assert caps.general.position_encodings[0] == types.PositionEncodingKind.Utf8
    else:
        caps = client_capabilities("visual-studio-code")
        assert caps.general is None or not caps.general.position_encodings
    return caps


async def initialize(client, root, enc: str = "utf-16", options=None) -> types.InitializeResult:
    result = await client.initialize_session(
        types.InitializeParams(
            capabilities=capabilities(enc),
            root_uri=uri(root),
            workspace_folders=[types.WorkspaceFolder(uri=uri(root), name="module")],
            initialization_options=options,
        )
    )
    assert result.capabilities.position_encoding == enc, result.capabilities.position_encoding
    sync = result.capabilities.text_document_sync
    assert sync.change == types.TextDocumentSyncKind.Incremental
    return result
