"""A seeded, model-based editor session against the real binary (issue 27): a
random sequence of what editors and users do — open, close, edit and save
documents; create, delete, rename and rewrite closed files on disk (and make
and remove a whole called module); pulls and cancelled requests — over a
workspace of modules that call each other (`source = "../m"`), with tfvars
files and plain `.hcl` neighbours. At every quiet point the diagnostics of
every open document must be, and stay, what `hcl-types check --format json`
says of the same texts written to a scratch copy (open documents over the
disk). Four client profiles: pushed to or pulling, watching files (sending
`didChangeWatchedFiles`) or not (the server's own watch).

Bounded in operations and time; E2E_MODEL_SEED picks the seed (printed, with
the operation log, on failure), E2E_MODEL_OPS and E2E_MODEL_SECONDS (per
profile) make a longer run, e.g.
`E2E_MODEL_OPS=100000 E2E_MODEL_SECONDS=600 scripts/e2e -k model`."""

from __future__ import annotations

import asyncio
import os
import pathlib
import random
import re
import shutil
import time
import uuid

import pytest
from lsprotocol import types

from support import capabilities, check_json, cli_as_lsp, lsp_as_keys, offset_to_position, uri

SEED = int(os.environ.get("E2E_MODEL_SEED", "2027"))
OPS = int(os.environ.get("E2E_MODEL_OPS", "300"))
SECONDS = float(os.environ.get("E2E_MODEL_SECONDS", "30"))
# How long a quiet point waits for the server to agree with the CLI, and how
# long the agreement must then hold (a slower, older result arriving late).
SETTLE = 10.0
HOLD = 0.15

FILES = {
    "a/main.tf": 'module "m" {\n  source = "../m"\n  size   = var.size\n  name   = "x"\n}\n\n'
    'locals {\n  l = module.m.id\n}\n\noutput "o" {\n  value = local.l\n}\n',
    "a/variables.tf": 'variable "size" {\n  type    = number\n  default = 1\n}\n\n'
    'variable "flag" {\n  type = bool\n}\n',
    "a/terraform.tfvars": 'size = 3\nflag = "maybe"\n',
    "a/extra.hcl": 'settings {\n  size = 1\n  name = "x"\n}\n',
    "m/variables.tf": 'variable "size" {\n  type = number\n}\n\nvariable "name" {\n  type    = string\n  default = "x"\n}\n',
    "m/outputs.tf": 'output "id" {\n  value = "m-${var.name}"\n}\n',
    "b/main.tf": 'module "m" {\n  source = "../m"\n  size   = "1"\n}\n\n'
    'module "a" {\n  source = "../a"\n  size   = 2\n  flag   = true\n}\n',
}
# Files that may be made on disk, or opened before they exist.
NEW = {
    "vars2.tf": 'variable "name" {\n  type = list(string)\n}\n',
    "more.tf": 'output "more" {\n  value = var.size + 1\n}\n',
    "dev.tfvars": 'size = "big"\nname = "x"\n',
    "notes.hcl": 'note {\n  a = true\n}\n',
}
DIRS = ["a", "b", "m", "n"]

# Tokens swapped for others of their group, so that edits keep enough
# structure for types, calls and references to matter.
GROUPS = [
    ["list(string)", "number", "bool", "string", "any"],
    ['"maybe"', '"x"', "[1, 2]", "true", "null", "1", "3"],
    ['"../m"', '"../n"', '"../a"', '"./gone"'],
    ["module.m.nope", "module.m.id", "var.size", "var.name", "var.nope", "var.flag", "local.l"],
    ["size", "sise", "name", "flag"],
]
PATTERNS = [re.compile("|".join((r"\b" if t[0].isalnum() else "") + re.escape(t) + (r"\b" if t[-1].isalnum() else "") for t in g)) for g in GROUPS]
BLOCKS = [
    'variable "v{n}" {{\n  type    = number\n  default = "x"\n}}\n',
    'output "o{n}" {{\n  value = var.size\n}}\n',
    'module "c{n}" {{\n  source = "../m"\n  size   = true\n}}\n',
    'locals {{\n  k{n} = var.flag ? 1 : "a"\n}}\n',
    'size = "{n}"\n',
]
SNIPPETS = ["{", "}", '"', "=", "\n", "x", "😀", "é", " ", "#"]


def language(path: str) -> str:
    if path.endswith(".tfvars"):
        return "terraform-vars"
    return "terraform" if path.endswith(".tf") else "hcl"


def mutate(rng: random.Random, text: str, n: int) -> tuple[int, int, str]:
    """A change of `text`: (start, end, new text), code point offsets."""
    roll = rng.random()
    found = [(i, m) for i, p in enumerate(PATTERNS) for m in p.finditer(text)]
    if roll < 0.7 and found:
        i, m = rng.choice(found)
        return m.start(), m.end(), rng.choice([t for t in GROUPS[i] if t != m.group()])
    starts = [0] + [m.end() for m in re.finditer("\n", text)]
    if roll < 0.85:
        at = rng.choice(starts)
        return at, at, rng.choice(BLOCKS).format(n=n)
    if roll < 0.93 and len(starts) > 1:
        k = rng.randrange(len(starts) - 1)
        return starts[k], starts[k + 1], ""
    at = rng.randint(0, len(text))
    return at, at, rng.choice(SNIPPETS)


class Session:
    """The model: the workspace on disk (itself), the open documents, and
    what was done, in order."""

    def __init__(self, client, root: pathlib.Path, scratch: pathlib.Path, rng, enc, watching, pulling):
        self.client, self.root, self.scratch, self.rng = client, root, scratch, rng
        self.enc, self.watching, self.pulling = enc, watching, pulling
        self.open: dict[str, tuple[int, str]] = {}  # relative path -> (version, text)
        self.version = 0
        self.log: list[str] = []
        self.checks = 0
        self.n = 0

    # -- what is there ------------------------------------------------------

    def on_disk(self) -> list[str]:
        return sorted(
            str(p.relative_to(self.root))
            for p in self.root.rglob("*")
            if p.is_file() and p.suffix in (".tf", ".tfvars", ".hcl")
        )

    def closed(self) -> list[str]:
        return [p for p in self.on_disk() if p not in self.open]

    def uri(self, rel: str) -> str:
        return uri(self.root / rel)

    def events(self, *changes: tuple[str, types.FileChangeType]):
        """What a watching client tells of files changed on disk."""
        if self.watching and changes:
            self.client.workspace_did_change_watched_files(
                types.DidChangeWatchedFilesParams(changes=[types.FileEvent(uri=self.uri(p), type=t) for p, t in changes])
            )

    # -- operations ---------------------------------------------------------

    def op_open(self):
        choices = self.closed()
        new = [f"{d}/{name}" for d in DIRS[:3] for name in NEW if f"{d}/{name}" not in self.open]
        if self.rng.random() < 0.1 and new:
            rel = self.rng.choice(new)
            text = NEW[rel.split("/")[1]] if not (self.root / rel).exists() else (self.root / rel).read_text()
        elif choices:
            rel = self.rng.choice(choices)
            text = (self.root / rel).read_text()
        else:
            return
        self.version += 1
        self.open[rel] = (self.version, text)
        self.log.append(f"open {rel} v{self.version}")
        self.client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(uri=self.uri(rel), language_id=language(rel), version=self.version, text=text)
            )
        )

    def op_close(self):
        if not self.open:
            return
        rel = self.rng.choice(sorted(self.open))
        del self.open[rel]
        self.log.append(f"close {rel}")
        self.client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=self.uri(rel))))

    def op_edit(self):
        if not self.open:
            return
        rel = self.rng.choice(sorted(self.open))
        _, text = self.open[rel]
        changes = []
        for _ in range(self.rng.choice([1, 1, 1, 2, 3])):
            self.n += 1
            a, b, new = mutate(self.rng, text, self.n)
            s, e = offset_to_position(text, a, self.enc), offset_to_position(text, b, self.enc)
            changes.append(
                types.TextDocumentContentChangePartial(range=types.Range(start=types.Position(**s), end=types.Position(**e)), text=new)
            )
            text = text[:a] + new + text[b:]
        self.version += 1
        self.open[rel] = (self.version, text)
        self.log.append(f"edit {rel} v{self.version}: {[(c.range.start.line, c.range.start.character, c.range.end.line, c.range.end.character, c.text) for c in changes]}")
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=self.uri(rel), version=self.version), content_changes=changes
            )
        )

    def op_save(self):
        if not self.open:
            return
        rel = self.rng.choice(sorted(self.open))
        existed = (self.root / rel).exists()
        (self.root / rel).write_text(self.open[rel][1])
        self.log.append(f"save {rel}")
        self.client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=self.uri(rel))))
        if self.rng.random() < 0.5:
            self.events((rel, types.FileChangeType.Changed if existed else types.FileChangeType.Created))

    def op_rewrite(self):
        closed = self.closed()
        if not closed:
            return
        rel = self.rng.choice(closed)
        text = (self.root / rel).read_text()
        self.n += 1
        a, b, new = mutate(self.rng, text, self.n)
        (self.root / rel).write_text(text[:a] + new + text[b:])
        self.log.append(f"rewrite {rel}: {a}..{b} -> {new!r}")
        self.events((rel, types.FileChangeType.Changed))

    def op_delete(self):
        closed = self.closed()
        if not closed:
            return
        rel = self.rng.choice(closed)
        (self.root / rel).unlink()
        self.log.append(f"delete {rel}")
        self.events((rel, types.FileChangeType.Deleted))

    def op_create(self):
        d = self.rng.choice(DIRS)
        name = self.rng.choice(sorted(NEW) + sorted({k.split("/")[1] for k in FILES}))
        rel = f"{d}/{name}"
        if rel in self.open or (self.root / rel).exists():
            return
        text = NEW.get(name) or FILES.get(rel) or next(t for k, t in FILES.items() if k.endswith("/" + name))
        (self.root / d).mkdir(exist_ok=True)
        (self.root / rel).write_text(text)
        self.log.append(f"create {rel}")
        self.events((rel, types.FileChangeType.Created))

    def op_rename(self):
        closed = self.closed()
        if not closed:
            return
        rel = self.rng.choice(closed)
        name = rel.split("/")[1]
        target = self.rng.choice(
            [f"{self.rng.choice(DIRS[:3])}/{name}", f"{rel.split('/')[0]}/renamed-{name}", f"{rel}.bak", f"{rel.split('/')[0]}/{self.rng.choice(sorted(NEW))}"]
        )
        if target in self.open or (self.root / target).exists():
            return
        (self.root / target).parent.mkdir(exist_ok=True)
        (self.root / rel).rename(self.root / target)
        self.log.append(f"rename {rel} -> {target}")
        self.events((rel, types.FileChangeType.Deleted), (target, types.FileChangeType.Created))

    def op_module_dir(self):
        """Makes the module `n` (called as "../n" once a source says so), or
        removes it whole when nothing of it is open."""
        n = self.root / "n"
        if n.exists():
            if any(p.startswith("n/") for p in self.open):
                return
            gone = [str(p.relative_to(self.root)) for p in n.rglob("*") if p.is_file()]
            shutil.rmtree(n)
            self.log.append("remove n/")
            self.events(*[(p, types.FileChangeType.Deleted) for p in gone if p.endswith((".tf", ".tfvars", ".hcl"))])
        else:
            n.mkdir()
            (n / "variables.tf").write_text(FILES["m/variables.tf"].replace("number", "bool"))
            self.log.append("make n/variables.tf")
            self.events(("n/variables.tf", types.FileChangeType.Created))

    async def op_request(self, cancel: bool):
        """A request about an open document, cancelled at once or not: it is
        answered either way (a result, or an error)."""
        if not self.open:
            return
        rel = self.rng.choice(sorted(self.open))
        doc = types.TextDocumentIdentifier(uri=self.uri(rel))
        kinds = ["textDocument/documentSymbol", "textDocument/hover"] + (["textDocument/diagnostic"] if self.pulling else [])
        method = self.rng.choice(kinds)
        if method == "textDocument/hover":
            params = types.HoverParams(text_document=doc, position=types.Position(line=self.rng.randint(0, 8), character=self.rng.randint(0, 12)))
        elif method == "textDocument/diagnostic":
            params = types.DocumentDiagnosticParams(text_document=doc)
        else:
            params = types.DocumentSymbolParams(text_document=doc)
        msg_id = str(uuid.uuid4())
        future = self.client.protocol.send_request(method, params, msg_id=msg_id)
        self.log.append(f"{'cancelled ' if cancel else ''}request {method} {rel}")
        if cancel:
            self.client.protocol.notify("$/cancelRequest", types.CancelParams(id=msg_id))
        try:
            await asyncio.wait_for(asyncio.wrap_future(future), 30)
        except asyncio.TimeoutError:
            raise AssertionError(f"{method} ({'cancelled' if cancel else 'not cancelled'}) was never answered") from None
        except Exception:
            pass  # an error answer (cancelled, or content modified)

    # -- the oracle ---------------------------------------------------------

    def expected(self) -> dict[str, list[tuple]]:
        self.checks += 1
        copy = self.scratch / f"check-{self.checks}"
        shutil.copytree(self.root, copy)
        for rel, (_, text) in self.open.items():
            (copy / rel).parent.mkdir(parents=True, exist_ok=True)
            with open(copy / rel, "w", encoding="utf-8", newline="") as f:
                f.write(text)
        entries = check_json(copy)
        for e in entries:
            e["message"] = e["message"].replace(str(copy), str(self.root))
        out = {rel: cli_as_lsp(entries, copy / rel, self.enc) for rel in self.open}
        shutil.rmtree(copy)
        return out

    async def got(self) -> dict[str, tuple[int | None, list[tuple]]]:
        """Per open document: the version and the list the server gives now."""
        out = {}
        for rel, (version, _) in self.open.items():
            u = self.uri(rel)
            if self.pulling:
                report = await asyncio.wait_for(
                    self.client.text_document_diagnostic_async(types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=u))),
                    30,
                )
                out[rel] = (version, lsp_as_keys(report.items))
            else:
                mine = [p for p in self.client.published if p.uri == u and p.version is not None]
                out[rel] = (mine[-1].version, lsp_as_keys(mine[-1].diagnostics)) if mine else (None, [])
        return out

    async def quiet_point(self):
        """Waits until the server agrees with the CLI on every open document
        (of its current version), and still does a moment later."""
        want = self.expected()
        wanted = {rel: (self.open[rel][0], want[rel]) for rel in self.open}
        deadline = time.monotonic() + SETTLE
        while True:
            now = await self.got()
            if now == wanted:
                await asyncio.sleep(HOLD)
                now = await self.got()
                if now == wanted:
                    self.log.append(f"-- agreed on {len(wanted)} open documents")
                    return
            if time.monotonic() > deadline:
                break
            await asyncio.sleep(0.05)
        lines = []
        for rel in sorted(wanted):
            if now.get(rel) != wanted[rel]:
                (gv, gl), (wv, wl) = now.get(rel, (None, [])), wanted[rel]
                lines.append(
                    f"{rel}: server version {gv}, current {wv}\n  text: {self.open[rel][1]!r}\n"
                    f"  only server: {sorted(set(gl) - set(wl))}\n  only CLI: {sorted(set(wl) - set(gl))}"
                )
        raise AssertionError("the server disagrees with the CLI:\n" + "\n".join(lines))


PROFILES = {
    "push-watching": ("utf-16", True, False),
    "push-own-watch": ("utf-8", False, False),
    "pull-watching": ("utf-16", True, True),
    "pull-own-watch": ("utf-8", False, True),
}


def profile_capabilities(enc: str, watching: bool, pulling: bool) -> types.ClientCapabilities:
    caps = capabilities(enc)
    caps.workspace.did_change_watched_files = types.DidChangeWatchedFilesClientCapabilities(dynamic_registration=watching)
    if pulling:
        caps.text_document.diagnostic = types.DiagnosticClientCapabilities(dynamic_registration=False)
        caps.workspace.diagnostics = types.DiagnosticWorkspaceClientCapabilities(refresh_support=True)
    else:
        caps.text_document.diagnostic = None
        caps.workspace.diagnostics = None
    return caps


@pytest.mark.timeout(SECONDS * 4 + 120)
@pytest.mark.parametrize("profile", sorted(PROFILES))
async def test_a_random_editor_session_agrees_with_the_cli(client, tmp_path, profile):
    enc, watching, pulling = PROFILES[profile]
    rng = random.Random(f"{SEED}-{profile}")
    root, scratch = tmp_path / "ws", tmp_path / "scratch"
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    scratch.mkdir()
    result = await client.initialize_session(
        types.InitializeParams(
            capabilities=profile_capabilities(enc, watching, pulling),
            root_uri=uri(root),
            workspace_folders=[types.WorkspaceFolder(uri=uri(root), name="ws")],
        )
    )
    assert result.capabilities.position_encoding == enc
    assert (result.capabilities.diagnostic_provider is not None) == pulling
    s = Session(client, root, scratch, rng, enc, watching, pulling)
    if watching:
        # The client agreed to watch: its events are trusted from now on.
        deadline = time.monotonic() + 10
        while not client.registrations and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        assert client.registrations, "the server did not register its file watchers"
    ops = [
        (s.op_open, 14), (s.op_close, 6), (s.op_edit, 30), (s.op_save, 8), (s.op_rewrite, 10), (s.op_delete, 3),
        (s.op_create, 5), (s.op_rename, 4), (s.op_module_dir, 2), ("request", 4), ("cancel", 4),
    ]
    started = time.monotonic()
    done = 0
    try:
        while done < OPS and time.monotonic() - started < SECONDS:
            op = rng.choices([o for o, _ in ops], weights=[w for _, w in ops])[0]
            if op in ("request", "cancel"):
                await s.op_request(op == "cancel")
            else:
                op()
            done += 1
            if rng.random() < 0.3:
                # Let the server work in the middle (or not) before the next one.
                await asyncio.sleep(rng.choice([0, 0.01, 0.1]))
            if rng.random() < 0.35:
                await s.quiet_point()
        await s.quiet_point()
    except BaseException as e:
        log = "\n".join(f"  {line}" for line in s.log)
        raise AssertionError(
            f"{profile}: seed {SEED} (E2E_MODEL_SEED), after {done} operations:\n{e}\noperations:\n{log}"
        ) from e
    print(f"{profile}: seed {SEED}, {done} operations, {s.checks} quiet points, {time.monotonic() - started:.1f}s")
