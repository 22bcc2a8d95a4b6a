"""What real editors do to the server (issue 18, and issue 13 point 5), over raw
stdio: clients that never answer or die, quick close and reopen, diff views and
untitled buffers, editors that stall reading, FIFOs among the files, many open
tabs, broken headers. Each test asserts what the user sees. Memory and latency
are measured in benches/lsp_latency.rs, not here."""

import json
import os
import pathlib
import signal
import subprocess
import sys
import time
import urllib.parse

import pytest

from rawlsp import RawServer
from support import BIN, uri

HERE = pathlib.Path(__file__).resolve().parent

# A client that answers configuration requests and takes dynamic registrations
# (VS Code and Neovim both do).
EDITOR = {"configuration": True, "didChangeWatchedFiles": {"dynamicRegistration": True}}

# (Read by an output: an unread variable would add its unused-variable hint.)
BROKEN = 'variable "n" {\n  type    = number\n  default = "x"\n}\noutput "n" {\n  value = var.n\n}\n'
PUBLISH = "textDocument/publishDiagnostics"


@pytest.fixture
def raw(tmp_path):
    servers = []

    def start(initialize=True, workspace=None, answers=True):
        s = RawServer([BIN, "lsp"], cwd=str(tmp_path))
        s.answers = answers
        servers.append(s)
        if initialize:
            s.initialize(str(tmp_path), workspace=workspace)
        return s

    yield start
    for s in servers:
        s.reading.set()
        s.close()


def open_doc(s: RawServer, u: str, text: str, version=1, language="terraform"):
    s.notify("textDocument/didOpen", {"textDocument": {"uri": u, "languageId": language, "version": version, "text": text}})
    return published(s, u, version)


def published(s: RawServer, u: str, version, timeout=10.0):
    return s.wait_notification(PUBLISH, lambda p: p["uri"] == u and p.get("version") == version, timeout=timeout)[
        "diagnostics"
    ]


def messages(diags) -> list[str]:
    return sorted(d["message"] for d in diags)


def change(s: RawServer, u: str, version: int, text: str):
    """Replaces the whole line 2 (`  default = …`) of a BROKEN-like document."""
    rng = {"start": {"line": 2, "character": 0}, "end": {"line": 2, "character": 100}}
    s.notify(
        "textDocument/didChange",
        {"textDocument": {"uri": u, "version": version}, "contentChanges": [{"range": rng, "text": text}]},
    )


def publications(s: RawServer, since: int, u: str | None = None):
    return [m["params"] for m in s.received[since:] if m.get("method") == PUBLISH and (u is None or m["params"]["uri"] == u)]


def gone(pid: int) -> bool:
    """The process has exited (a zombie nobody reaped yet counts as exited)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            return any(line.startswith("State:") and "Z" in line.split()[1] for line in f)
    except FileNotFoundError:
        return True


def cpu_time(pid: int) -> int:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def wait_idle(pid: int, quiet: float = 0.5, timeout: float = 30.0) -> None:
    """Waits until the process has used no CPU for `quiet` seconds."""
    deadline = time.monotonic() + timeout
    last = cpu_time(pid)
    while time.monotonic() < deadline:
        time.sleep(quiet)
        now = cpu_time(pid)
        if now == last:
            return
        last = now


def wait_gone(pid: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if gone(pid):
            return True
        time.sleep(0.05)
    return gone(pid)


# -- 1. a client that never answers ------------------------------------------------


@pytest.mark.parametrize("ending", ["end of input", "shutdown and exit"])
def test_the_server_exits_though_the_client_never_answered_its_requests(raw, tmp_path, ending):
    s = raw(workspace=EDITOR, answers=False)
    s.wait_request("client/registerCapability")
    s.wait_request("workspace/configuration")
    # Meanwhile the server serves.
    assert messages(open_doc(s, uri(tmp_path / "main.tf"), BROKEN)) == ['invalid value for `number`: "x" is not a number']
    if ending == "end of input":
        s.proc.stdin.close()
        s.wait_exit(timeout=5)
    else:
        assert "result" in s.request("shutdown", timeout=5)
        s.notify("exit")
        assert s.wait_exit(timeout=5) == 0


def test_a_server_whose_client_was_killed_exits(tmp_path):
    """Issue 13, point 5: a real client process, SIGKILLed while the server waits
    for its configuration."""
    client = subprocess.Popen(
        [sys.executable, str(HERE / "killed_client.py"), BIN, str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    pid = None
    try:
        line = client.stdout.readline()
        assert line.strip().isdigit(), f"the client did not get the server going: {line!r}"
        pid = int(line)
        assert not gone(pid)
        client.send_signal(signal.SIGKILL)
        client.wait(timeout=5)
        assert wait_gone(pid, timeout=5), "the server outlived its client by 5 s"
    finally:
        client.kill()
        client.wait()
        if pid is not None and not gone(pid):
            os.kill(pid, signal.SIGKILL)


# -- 2. close and reopen -------------------------------------------------------------


def test_a_quickly_reopened_file_keeps_its_diagnostics(raw, tmp_path):
    """Neovim's `:e!`, a language-mode switch in VS Code: close and reopen at once,
    300 times. After each, once the server has answered a later request, the last
    publication for the file is the reopened document's diagnostics."""
    s = raw(workspace=EDITOR)
    main = tmp_path / "main.tf"
    main.write_text(BROKEN)
    u = uri(main)
    expected = ['invalid value for `number`: "x" is not a number']
    assert messages(open_doc(s, u, BROKEN)) == expected
    good = 0
    for run in range(300):
        since = len(s.received)
        version = run + 2
        s.notify("textDocument/didClose", {"textDocument": {"uri": u}})
        s.notify("textDocument/didOpen", {"textDocument": {"uri": u, "languageId": "terraform", "version": version, "text": BROKEN}})
        published(s, u, version)
        assert "result" in s.request("textDocument/documentSymbol", {"textDocument": {"uri": u}})
        last = publications(s, since, u)[-1]
        good += last.get("version") == version and messages(last["diagnostics"]) == expected
    assert good == 300


# -- 3. documents that are not files -------------------------------------------------


def test_a_git_diff_view_leaves_the_real_file_alone(raw, tmp_path):
    s = raw(workspace=EDITOR)
    main = tmp_path / "main.tf"
    main.write_text(BROKEN)
    (tmp_path / "variables.tf").write_text('variable "region" {\n  type = string\n}\n')
    u = uri(main)
    assert messages(open_doc(s, u, BROKEN)) == ['invalid value for `number`: "x" is not a number']
    # VS Code's diff view opens the HEAD text under a git: URI of the same path;
    # it is analysed with the file's siblings (read-only), not with the file.
    query = urllib.parse.quote(json.dumps({"path": str(main), "ref": "HEAD"}))
    g = f"git:{main.as_posix()}?{query}"
    head = BROKEN.replace('"x"', '"head"') + 'output "r" {\n  value = var.region\n}\n'
    assert messages(open_doc(s, g, head)) == ['invalid value for `number`: "head" is not a number']
    since = len(s.received)
    change(s, u, 2, '  default = "y"')
    assert messages(published(s, u, 2)) == ['invalid value for `number`: "y" is not a number']
    s.drain()
    assert all(p["uri"] == u for p in publications(s, since)), "an edit of the file was published for the diff view"
    # The diff view closes; the file goes on being published.
    s.notify("textDocument/didClose", {"textDocument": {"uri": g}})
    assert s.wait_notification(PUBLISH, lambda p: p["uri"] == g and p["diagnostics"] == [])
    change(s, u, 3, '  default = "z"')
    assert messages(published(s, u, 3)) == ['invalid value for `number`: "z" is not a number']
    hover = s.request("textDocument/hover", {"textDocument": {"uri": u}, "position": {"line": 1, "character": 14}})
    assert hover["result"]["contents"]["value"].startswith("```hcl\nnumber\n```"), hover


def test_untitled_buffers_do_not_see_each_other_nor_the_working_directory(raw, tmp_path):
    # The server runs in tmp_path, where a file declares `var.on_disk`.
    (tmp_path / "variables.tf").write_text('variable "on_disk" {\n  type = string\n}\n')
    s = raw(workspace=EDITOR)
    one, two, three = "untitled:Untitled-1", "untitled:Untitled-2", "untitled:./new.tf"
    only = messages(open_doc(s, one, 'variable "only_in_one" {\n  type = string\n}\n'))
    assert only == ["`var.only_in_one` is declared but nothing in the module reads it"], "the buffer is its own module"
    uses = 'output "o" {\n  value = var.only_in_one\n}\n'
    assert messages(open_doc(s, two, uses)) == ["`var.only_in_one` is not declared in this module"]
    from_disk = 'output "o" {\n  value = var.on_disk\n}\n'
    assert messages(open_doc(s, three, from_disk)) == ["`var.on_disk` is not declared in this module"]
    # Completion after `var.` in the second buffer offers nothing from the first.
    resp = s.request("textDocument/completion", {"textDocument": {"uri": two}, "position": {"line": 1, "character": 14}})
    items = resp["result"]["items"] if isinstance(resp["result"], dict) else resp["result"] or []
    assert "only_in_one" not in [i["label"] for i in items]


# -- 5. an editor that stalls reading ------------------------------------------------


def test_an_editor_that_stalls_reading_gets_only_the_newest_diagnostics(raw, tmp_path):
    """While the editor does not read, superseded publications are dropped: once it
    reads again it gets what was being written, then the newest version."""
    text = "".join(f'variable "_v{i}" {{\n  type    = number\n  default = "x"\n}}\n' for i in range(15000))
    main = tmp_path / "main.tf"
    main.write_text(text)
    s = raw(workspace=EDITOR)
    u = uri(main)
    s.reading.clear()
    s.notify("textDocument/didOpen", {"textDocument": {"uri": u, "languageId": "terraform", "version": 1, "text": text}})
    for version in range(2, 102):
        change(s, u, version, '  default = "x%d"' % version)
    # Once the server has handled every edit, the editor reads again.
    wait_idle(s.proc.pid)
    s.reading.set()
    diags = published(s, u, 101, timeout=30)
    assert len(diags) == 15000
    newest = 'invalid value for `number`: "x101" is not a number'
    assert messages(diags).count(newest) == 1
    s.drain(0.5)
    versions = [p["version"] for p in publications(s, 0, u)]
    assert versions[-1] == 101
    assert len(versions) <= 3, f"superseded publications were sent: versions {versions}"


# -- 6. what is on disk --------------------------------------------------------------


def test_a_fifo_among_the_module_files_blocks_nothing(raw, tmp_path):
    os.mkfifo(tmp_path / "x.tf")
    (tmp_path / "variables.tf").write_text('variable "region" {\n  type = string\n}\n')
    s = raw(workspace=EDITOR)
    u = uri(tmp_path / "main.tf")
    text = 'output "r" {\n  value = var.region\n}\n'
    assert open_doc(s, u, text) == []
    # A request about the FIFO itself (an editor asking for a file's symbols).
    fifo = s.request("textDocument/documentSymbol", {"textDocument": {"uri": uri(tmp_path / "x.tf")}}, timeout=5)
    assert fifo.get("result") in (None, []), fifo
    hover = s.request("textDocument/hover", {"textDocument": {"uri": u}, "position": {"line": 1, "character": 16}}, timeout=5)
    assert hover["result"]["contents"]["value"].startswith("```hcl\nstring\n```"), hover
    assert "result" in s.request("shutdown", timeout=5)
    s.notify("exit")
    assert s.wait_exit(timeout=5) == 0


@pytest.mark.parametrize("workspace", [EDITOR, None], ids=["watching client", "client without file events"])
def test_siblings_changed_on_disk_are_read_again(raw, tmp_path, workspace):
    """A watching client's events say which files changed (only those are read
    again); without events the disk is looked at on each analysis."""
    variables = tmp_path / "variables.tf"
    variables.write_text('variable "region" {\n  type = string\n}\n')
    s = raw(workspace=workspace)
    u = uri(tmp_path / "main.tf")
    text = 'output "o" {\n  value = [var.region, var.zone_count]\n}\n'
    assert messages(open_doc(s, u, text)) == ["`var.zone_count` is not declared in this module"]
    # A new sibling declares zone_count; the old one loses region.
    (tmp_path / "more.tf").write_text('variable "zone_count" {\n  type = string\n}\n')
    variables.write_text('variable "renamed" {\n  type = string\n}\n')
    if workspace:
        changes = [{"uri": uri(tmp_path / "more.tf"), "type": 1}, {"uri": uri(variables), "type": 2}]
        s.notify("workspace/didChangeWatchedFiles", {"changes": changes})
        expect = ["`var.region` is not declared in this module"]
        assert s.wait_notification(PUBLISH, lambda p: p["uri"] == u and messages(p["diagnostics"]) == expect)
    else:
        s.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": u, "version": 2}, "contentChanges": [{"text": text + "\n"}]},
        )
        assert messages(published(s, u, 2)) == ["`var.region` is not declared in this module"]


# -- 8. many open documents ----------------------------------------------------------


def test_each_refresh_publishes_once_per_open_document(raw, tmp_path):
    s = raw(workspace=EDITOR)
    names = [f"f{i:02}.tf" for i in range(20)]
    uris = []
    for i, name in enumerate(names):
        text = f'variable "_v{i}" {{\n  type    = number\n  default = "x"\n}}\n'
        (tmp_path / name).write_text(text)
        uris.append(uri(tmp_path / name))
        open_doc(s, uris[-1], text)
    s.drain(0.5)

    def count(action) -> list[str]:
        since = len(s.received)
        action()
        s.drain(0.5)
        return sorted(p["uri"] for p in publications(s, since))

    closed = uris[0]
    since = len(s.received)
    after_close = count(lambda: s.notify("textDocument/didClose", {"textDocument": {"uri": closed}}))
    # The closed file: an empty list, then its list as the workspace sees it
    # (this client is published to: docs/spec/lsp.md, closed files); each other once.
    assert after_close == sorted(uris + [closed]), "two publications for the closed file, one for each other"
    closed_lists = [p["diagnostics"] for p in publications(s, since) if p["uri"] == closed]
    assert [len(d) for d in closed_lists] == [0, 1]
    still_open = sorted(uris[1:])
    settings = {"settings": {"hclTypes": {"severity": {"invalid-value": "warning"}}}}
    assert count(lambda: s.notify("workspace/didChangeConfiguration", settings)) == still_open
    # A change on disk: the open documents, and the closed file checked again.
    event = {"changes": [{"uri": closed, "type": 2}]}
    assert count(lambda: s.notify("workspace/didChangeWatchedFiles", event)) == sorted(uris)


# -- 9. a broken client --------------------------------------------------------------


def test_a_huge_header_line_is_answered_with_an_error_and_skipped(raw, tmp_path):
    s = raw(workspace=EDITOR)
    u = uri(tmp_path / "main.tf")
    assert messages(open_doc(s, u, BROKEN)) == ['invalid value for `number`: "x" is not a number']
    body = json.dumps({"jsonrpc": "2.0", "id": 7, "method": "shutdown"}).encode()
    junk = b"X-Junk: " + b"a" * (64 << 20) + b"\r\n"
    s.write_raw(junk + b"Content-Length: %d\r\n\r\n" % len(body) + body)
    error = s.wait_response(None)
    assert error["error"]["code"] == -32700, error
    # The frame was skipped whole (it was not a shutdown); the server serves on.
    hover = s.request("textDocument/hover", {"textDocument": {"uri": u}, "position": {"line": 1, "character": 14}})
    assert hover["result"]["contents"]["value"].startswith("```hcl\nnumber\n```"), hover


def test_large_texts_over_stdio_are_analysed_whole(raw, tmp_path):
    """Texts of 64 KiB and more bypass tower-lsp-server's input buffer (the
    transport stashes them, server/stash.rs): an open and a whole-text change
    of such a file are analysed as sent, to their last line."""
    s = raw(workspace=EDITOR)
    u = uri(tmp_path / "main.tf")
    filler = "".join(f'locals {{\n  _l{i} = "{"x" * 40}"\n}}\n' for i in range(2000))
    assert len(filler) > 64 << 10
    assert messages(open_doc(s, u, filler + BROKEN)) == ['invalid value for `number`: "x" is not a number']
    fixed = filler + BROKEN.replace('"x"', "1") + 'output "o" {\n  value = var.missing\n}\n'
    s.notify("textDocument/didChange", {"textDocument": {"uri": u, "version": 2}, "contentChanges": [{"text": fixed}]})
    assert [d["range"]["start"]["line"] for d in published(s, u, 2)] == [fixed.count("\n") - 2]
