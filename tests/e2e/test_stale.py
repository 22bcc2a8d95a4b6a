"""Stale results (issue 27, items 9 and 10), over raw stdio: each test is a way
the server once kept showing diagnostics of something that had changed, or
read what it should not have.

(a) a plain `.hcl` file open beside a Terraform caller no longer hides the
    caller's reads: editing or deleting the called module re-checks the caller;
(b) a pull right after a save and an edit answers the edit's text, never the
    older analysis the save started, even once that one ends;
(c) for a client that does not watch files, the server's own watch republishes
    when a closed file changes on disk, without waiting for a keystroke;
(d) a module call in an `untitled:` buffer reads no directory (it has none)."""

import time

import pytest

from rawlsp import RawServer
from support import BIN, uri

PUBLISH = "textDocument/publishDiagnostics"
EDITOR = {"configuration": True, "didChangeWatchedFiles": {"dynamicRegistration": True}}
PULLING = {"configuration": True, "diagnostics": {"refreshSupport": True}}

CALLER = 'module "m" {\n  source = "./m"\n  x      = 1\n}\n'
CALLEE = 'variable "x" {\n  type = number\n}\n'


@pytest.fixture
def raw(tmp_path):
    servers = []

    def start(workspace=None, text_document=None):
        s = RawServer([BIN, "lsp"], cwd=str(tmp_path))
        servers.append(s)
        if text_document is None:
            s.initialize(str(tmp_path), workspace=workspace)
        else:
            initialize_with(s, str(tmp_path), workspace, text_document)
        return s

    yield start
    for s in servers:
        s.close()


def initialize_with(s: RawServer, root: str, workspace, text_document):
    caps = {"general": {"positionEncodings": ["utf-16"]}, "textDocument": text_document, "workspace": workspace}
    params = {"processId": None, "rootUri": "file://" + root, "capabilities": caps,
              "workspaceFolders": [{"uri": "file://" + root, "name": "ws"}]}
    assert "result" in s.request("initialize", params)
    s.notify("initialized", {})


def open_doc(s, u, text, version=1, language="terraform"):
    s.notify("textDocument/didOpen", {"textDocument": {"uri": u, "languageId": language, "version": version, "text": text}})


def whole(s, u, version, text):
    s.notify("textDocument/didChange", {"textDocument": {"uri": u, "version": version}, "contentChanges": [{"text": text}]})


def codes(diags):
    return sorted((d["code"], d["range"]["start"]["line"]) for d in diags)


def publications(s, u):
    return [m["params"] for m in s.received if m.get("method") == PUBLISH and m["params"]["uri"] == u]


def newest(s, u, want, timeout=10.0):
    """Waits until the newest publication for `u` has the codes `want`."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        s.drain(0.05)
        mine = publications(s, u)
        if mine:
            last = codes(mine[-1]["diagnostics"])
            if last == want:
                return
    raise AssertionError(f"{u}: newest publication has {last}, not {want}")


def write_caller(root):
    (root / "m").mkdir(parents=True)
    (root / "main.tf").write_text(CALLER)
    (root / "m" / "variables.tf").write_text(CALLEE)
    (root / "extra.hcl").write_text('settings {\n  a = 1\n}\n')


@pytest.mark.parametrize("workspace", [EDITOR, None], ids=["watching client", "client without file events"])
def test_an_hcl_neighbour_does_not_hide_the_callers_reads(raw, tmp_path, workspace):
    write_caller(tmp_path)
    s = raw(workspace=workspace)
    main, hcl, callee = uri(tmp_path / "main.tf"), uri(tmp_path / "extra.hcl"), uri(tmp_path / "m" / "variables.tf")
    open_doc(s, main, CALLER)
    newest(s, main, [])
    # The `.hcl` file's module (family Hcl) has no calls: analysed after the
    # caller, it erased what the caller (family Terraform) read.
    open_doc(s, hcl, (tmp_path / "extra.hcl").read_text(), language="hcl")
    newest(s, hcl, [])
    # The called module's `x` becomes a bool: the caller's 1 no longer converts.
    open_doc(s, callee, CALLEE)
    whole(s, callee, 2, CALLEE.replace("number", "bool"))
    newest(s, main, [("invalid-value", 2)])
    whole(s, callee, 3, CALLEE)
    newest(s, main, [])
    # Closed (the caller is published again, from the disk copy), then
    # deleted on disk: the call leads nowhere.
    before = len(publications(s, main))
    s.notify("textDocument/didClose", {"textDocument": {"uri": callee}})
    s.wait_for(lambda m: len(publications(s, main)) > before, "the caller's publication after the close")
    (tmp_path / "m" / "variables.tf").unlink()
    if workspace:
        s.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": callee, "type": 3}]})
    newest(s, main, [("module-source", 1)])


def test_a_pull_after_a_save_and_an_edit_is_of_the_edit(raw, tmp_path):
    """The save's analysis (of the saved text) may end after the edit's: its
    results must not replace the newer ones a pull answers with. A big sibling
    rewritten before each save makes both analyses read it again (on two
    threads), so either may end first."""
    big = "".join(f'variable "v{i}" {{\n  type    = number\n  default = {i}\n}}\n' for i in range(8000))
    (tmp_path / "big.tf").write_text(big)
    s = raw(workspace=PULLING, text_document={"diagnostic": {"dynamicRegistration": False}})
    u = uri(tmp_path / "main.tf")
    texts = ['output "o" {\n  value = var.v1 + "a"\n}\n', 'output "o" {\n  value = var.nope\n}\n']
    expected = [[("invalid-value", 1)], [("undefined-reference", 1)]]
    (tmp_path / "main.tf").write_text(texts[0])
    open_doc(s, u, texts[0])
    first = s.request("textDocument/diagnostic", {"textDocument": {"uri": u}}, timeout=30)
    assert codes(first["result"]["items"]) == expected[0], first
    wrong = []
    for version in range(2, 26):
        now = version % 2
        (tmp_path / "main.tf").write_text(texts[1 - now])
        (tmp_path / "big.tf").write_text(f"# {version}\n" + big)
        s.notify("textDocument/didSave", {"textDocument": {"uri": u}})
        whole(s, u, version, texts[now])
        for when in ["at once", "later"]:
            got = s.request("textDocument/diagnostic", {"textDocument": {"uri": u}}, timeout=30)
            if codes(got["result"]["items"]) != expected[now]:
                wrong.append((version, when, codes(got["result"]["items"])))
            time.sleep(0.3)
    assert not wrong, f"pulls answered with an older text's diagnostics: {wrong}"


def test_a_sibling_rewritten_on_disk_republishes_without_a_keystroke(raw, tmp_path):
    """A client without file events (Neovim, Helix): the server's own watch
    is the client's watch, and its events refresh by themselves."""
    (tmp_path / "variables.tf").write_text('variable "region" {\n  type = string\n}\n')
    write_caller(tmp_path / "sub")
    s = raw(workspace=None)
    main = uri(tmp_path / "main.tf")
    open_doc(s, main, 'output "o" {\n  value = var.region\n}\n')
    newest(s, main, [])
    caller = uri(tmp_path / "sub" / "main.tf")
    open_doc(s, caller, CALLER)
    newest(s, caller, [])
    s.drain(0.3)
    (tmp_path / "variables.tf").write_text('variable "renamed" {\n  type = string\n}\n')
    newest(s, main, [("undefined-reference", 1)], timeout=5)
    # A closed called module rewritten: its caller is checked again.
    (tmp_path / "sub" / "m" / "variables.tf").write_text(CALLEE.replace("number", "bool"))
    newest(s, caller, [("invalid-value", 2)], timeout=5)
    # Made anew (an editor that writes a new file and renames it over the old).
    tmp = tmp_path / "variables.tf.new"
    tmp.write_text('variable "region" {\n  type = string\n}\n')
    tmp.rename(tmp_path / "variables.tf")
    newest(s, main, [], timeout=5)


def test_a_called_module_made_where_it_was_missing_republishes_without_a_keystroke(raw, tmp_path):
    """A call's source that is not there is looked for again once something is
    made in its nearest watched ancestor: that event refreshes the caller too."""
    (tmp_path / "a").mkdir()
    s = raw(workspace=None)
    caller = uri(tmp_path / "a" / "main.tf")
    open_doc(s, caller, CALLER.replace("./m", "../n/m"))
    newest(s, caller, [("module-source", 1)])
    s.drain(0.3)
    (tmp_path / "n" / "m").mkdir(parents=True)
    (tmp_path / "n" / "m" / "variables.tf").write_text(CALLEE.replace("number", "bool"))
    newest(s, caller, [("invalid-value", 2)], timeout=5)
    # Gone again, whole.
    (tmp_path / "n" / "m" / "variables.tf").unlink()
    (tmp_path / "n" / "m").rmdir()
    newest(s, caller, [("module-source", 1)], timeout=5)


@pytest.mark.parametrize("source", ["./m", "../m"])
def test_a_call_in_an_untitled_buffer_reads_no_directory(raw, tmp_path, source):
    # The server runs in tmp_path, where `../m` from nowhere once led (and
    # `./m` named a path with a NUL byte in a warning).
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "variables.tf").write_text(CALLEE)
    s = raw(workspace=EDITOR)
    u = "untitled:Untitled-1"
    open_doc(s, u, CALLER.replace("./m", source).replace("= 1", '= "one"'))
    diags = s.wait_notification(PUBLISH, lambda p: p["uri"] == u)["diagnostics"]
    assert codes(diags) == [("module-source", 1)], diags
    assert diags[0]["severity"] == 4 and "\0" not in diags[0]["message"], diags
    assert "not saved" in diags[0]["message"], diags
