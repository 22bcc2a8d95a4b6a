"""Protocol faults over raw stdio (rawlsp.py writes the frames itself). After each
fault a normal request must still be answered correctly. Every wait has a
timeout, so a hang fails fast."""

import shutil
import time

import pytest

from rawlsp import RawServer, ServerGone
from support import BIN, apply_change, check_json, cli_as_lsp, uri, write_module

DOC = 'locals {\n  note = "😀 é"\n  a    = 1\n}\n\nvariable "n" {\n  type    = number\n  default = "1"\n}\n'
DOC_SYMBOLS = [("local.note", "string"), ("local.a", "int"), ("var.n", "number")]


@pytest.fixture
def raw(tmp_path):
    servers = []

    def start(initialize=True, encodings=("utf-16",)):
        s = RawServer([BIN, "lsp"], cwd=str(tmp_path))
        servers.append(s)
        if initialize:
            s.initialize(str(tmp_path), list(encodings))
        return s

    yield start
    for s in servers:
        s.close()


def open_doc(s: RawServer, path, text=DOC, version=1) -> str:
    path.write_text(text, encoding="utf-8")
    u = uri(path)
    s.notify("textDocument/didOpen", {"textDocument": {"uri": u, "languageId": "terraform", "version": version, "text": text}})
    s.wait_notification("textDocument/publishDiagnostics", lambda p: p["uri"] == u and p["version"] == version)
    return u


def symbols(s: RawServer, u: str):
    resp = s.request("textDocument/documentSymbol", {"textDocument": {"uri": u}})
    assert "result" in resp, resp
    return [(x["name"], x.get("detail")) for x in resp["result"]]


def hover(s: RawServer, u: str, line: int, character: int):
    return s.request("textDocument/hover", {"textDocument": {"uri": u}, "position": {"line": line, "character": character}})


def block(resp) -> str:
    value = resp["result"]["contents"]["value"]
    assert value.startswith("```hcl\n"), value
    return value[len("```hcl\n") :].split("\n```")[0]


def still_serving(s: RawServer, u: str):
    assert symbols(s, u) == DOC_SYMBOLS
    assert block(hover(s, u, 2, 9)) == "int"


def diagnostics_for(s: RawServer, u: str, version: int, timeout=5.0):
    """The published diagnostics but the hints of unused declarations (nothing reads
    DOC's locals and variable: they are there for their symbols and positions)."""
    published = s.wait_notification(
        "textDocument/publishDiagnostics", lambda p: p["uri"] == u and p["version"] == version, timeout=timeout
    )["diagnostics"]
    return [d for d in published if not d["code"].startswith("unused-")]


# -- lifecycle -----------------------------------------------------------------


def test_a_request_before_initialize_gets_server_not_initialized(raw, tmp_path):
    s = raw(initialize=False)
    resp = s.request("textDocument/hover", {"textDocument": {"uri": uri(tmp_path / "a.tf")}, "position": {"line": 0, "character": 0}})
    assert resp["error"]["code"] == -32002, resp
    # A notification before initialize is dropped, not fatal; then initialize works.
    s.notify("textDocument/didOpen", {"textDocument": {"uri": uri(tmp_path / "a.tf"), "languageId": "terraform", "version": 1, "text": DOC}})
    s.initialize(str(tmp_path))
    u = open_doc(s, tmp_path / "a.tf")
    still_serving(s, u)
    # A second initialize is an invalid request.
    assert s.request("initialize", {"capabilities": {}})["error"]["code"] == -32600


@pytest.mark.parametrize(
    "offered, negotiated",
    [(None, "utf-16"), (["utf-16"], "utf-16"), (["utf-8", "utf-16"], "utf-8"), (["utf-32", "utf-16", "utf-8"], "utf-8"), (["utf-32"], "utf-16")],
)
def test_position_encoding_negotiation(raw, offered, negotiated):
    s = raw(initialize=False)
    caps = {} if offered is None else {"general": {"positionEncodings": offered}}
    resp = s.request("initialize", {"processId": None, "rootUri": None, "capabilities": caps})
    assert resp["result"]["capabilities"]["positionEncoding"] == negotiated


def test_unknown_methods_and_notifications(raw, tmp_path):
    s = raw()
    u = open_doc(s, tmp_path / "a.tf")
    resp = s.request("hclTypes/nonsense", {})
    assert resp["error"]["code"] == -32601, resp
    # Unknown notifications (including $/ ones) get no answer and change nothing.
    s.notify("hclTypes/whatever", {"x": 1})
    s.notify("$/setTrace", {"value": "verbose"})
    still_serving(s, u)
    assert not [m for m in s.received if m.get("id") is None and "error" in m], s.received


def test_invalid_params_get_an_error_response(raw, tmp_path):
    s = raw()
    u = open_doc(s, tmp_path / "a.tf")
    resp = s.request("textDocument/hover", {"textDocument": {"uri": u}})  # no position
    assert resp["error"]["code"] == -32602, resp
    resp = s.request("textDocument/hover", {"textDocument": {"uri": u}, "position": {"line": 0, "character": -1}})
    assert resp["error"]["code"] == -32602, resp
    resp = s.request("textDocument/completion", "not an object")
    assert resp["error"]["code"] == -32602, resp
    resp = s.request("textDocument/documentSymbol", {"textDocument": {"uri": 42}})
    assert resp["error"]["code"] == -32602, resp
    still_serving(s, u)


def test_positions_past_the_end_of_a_line_or_the_file(raw, tmp_path):
    s = raw()
    u = open_doc(s, tmp_path / "a.tf")
    for line, character in [(2, 999), (1, 10_000), (99, 0), (99, 99), (4, 0), (2**31 - 1, 2**31 - 1)]:
        resp = hover(s, u, line, character)
        assert "result" in resp, (line, character, resp)
        assert resp["result"] is None or resp["result"]["contents"]["value"].startswith("```hcl\n")
        for method in ("textDocument/completion", "textDocument/definition", "textDocument/signatureHelp"):
            resp = s.request(method, {"textDocument": {"uri": u}, "position": {"line": line, "character": character}})
            assert "result" in resp, (method, line, character, resp)
    # The middle of the astral character (a UTF-16 surrogate pair) is answered too.
    assert "result" in hover(s, u, 1, 12)
    still_serving(s, u)


def test_requests_on_a_document_that_is_not_open(raw, tmp_path):
    s = raw()
    u = open_doc(s, tmp_path / "a.tf")
    ghost = uri(tmp_path / "never-opened.tf")
    s.notify(
        "textDocument/didChange",
        {"textDocument": {"uri": ghost, "version": 3}, "contentChanges": [{"range": {"start": {"line": 5, "character": 5}, "end": {"line": 6, "character": 0}}, "text": "x"}]},
    )
    s.notify("textDocument/didClose", {"textDocument": {"uri": ghost}})
    resp = hover(s, ghost, 0, 0)
    assert "result" in resp or resp["error"]["code"] in (-32602, -32603), resp
    still_serving(s, u)
    s.drain(0.3)
    assert not [m for m in s.received if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == ghost and m["params"]["diagnostics"]]


def test_a_stale_version_is_not_applied(raw, tmp_path):
    s = raw()
    u = open_doc(s, tmp_path / "a.tf")
    # Version 3: `a = 1` becomes `a = "x"`.
    s.notify(
        "textDocument/didChange",
        {"textDocument": {"uri": u, "version": 3}, "contentChanges": [{"range": {"start": {"line": 2, "character": 9}, "end": {"line": 2, "character": 10}}, "text": '"x"'}]},
    )
    assert diagnostics_for(s, u, 3)[0]["code"] == "implicit-conversion"
    # Then versions 2 and 3 again (out of order, duplicate): never applied on top of version 3.
    for v in (2, 3):
        s.notify("textDocument/didChange", {"textDocument": {"uri": u, "version": v}, "contentChanges": [{"text": "locals {\n  broken = \n"}]})
        s.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": u, "version": v}, "contentChanges": [{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "}}}"}]},
        )
    assert block(hover(s, u, 2, 10)) == "string"
    assert symbols(s, u) == [("local.note", "string"), ("local.a", "string"), ("var.n", "number")]
    s.drain(0.3)
    versions = [m["params"]["version"] for m in s.received if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == u]
    assert versions == sorted(versions) and versions[-1] == 3, versions


def test_out_of_range_and_overlapping_changes_follow_the_specification(raw, tmp_path):
    """A position past a line's end means the line's end and one past the last
    line means the end of the text (LSP 3.17, clamped as lsp.md says); the
    changes of one notification apply in order, so ranges may overlap the text
    an earlier change inserted. The result must be what the CLI says about the
    same text."""
    write_module(tmp_path / "m", {"variables.tf": 'variable "flag" {\n  type = bool\n}\n'})
    s = raw()
    path = tmp_path / "m" / "main.tf"
    u = open_doc(s, path)
    text = DOC
    notifications = [
        # Past the end of line 2, and a range whose end is past the end of the file.
        [{"range": {"start": {"line": 2, "character": 500}, "end": {"line": 2, "character": 900}}, "text": "\n  b    = var.flag ? 1 : \"😀\""}],
        [{"range": {"start": {"line": 40, "character": 3}, "end": {"line": 90, "character": 0}}, "text": "\noutput \"o\" {\n  value = var.nope\n}\n"}],
        # Overlapping: the second change edits text the first just inserted.
        [
            {"range": {"start": {"line": 1, "character": 2}, "end": {"line": 1, "character": 6}}, "text": "remark"},
            {"range": {"start": {"line": 1, "character": 4}, "end": {"line": 1, "character": 10}}, "text": "MARK"},
            {"range": {"start": {"line": 8, "character": 12}, "end": {"line": 8, "character": 15}}, "text": "\"one\""},
        ],
    ]
    version = 1
    for changes in notifications:
        version += 1
        for c in changes:
            text = apply_change(text, c, "utf-16", clamp=True)
        s.notify("textDocument/didChange", {"textDocument": {"uri": u, "version": version}, "contentChanges": changes})
    published = diagnostics_for(s, u, version)
    assert "\n  b    = var.flag" in text and "output \"o\"" in text and "reMARK" in text and "\"one\"" in text  # the model did what we meant
    path.write_text(text, encoding="utf-8")
    want = cli_as_lsp(check_json(tmp_path / "m"), path, "utf-16")
    got = sorted(
        ((d["range"]["start"]["line"], d["range"]["start"]["character"]), (d["range"]["end"]["line"], d["range"]["end"]["character"]), d["code"], d["severity"], d["message"])
        for d in published
    )
    assert got == want, text
    assert {d["code"] for d in published} >= {"undefined-reference", "invalid-value"}

    # A reversed range (end before start) is not a crash; a full replacement recovers.
    version += 1
    s.notify(
        "textDocument/didChange",
        {"textDocument": {"uri": u, "version": version}, "contentChanges": [{"range": {"start": {"line": 3, "character": 4}, "end": {"line": 1, "character": 2}}, "text": "Q"}]},
    )
    diagnostics_for(s, u, version)
    version += 1
    s.notify("textDocument/didChange", {"textDocument": {"uri": u, "version": version}, "contentChanges": [{"text": DOC}]})
    assert [d["code"] for d in diagnostics_for(s, u, version)] == ["implicit-conversion"]
    still_serving(s, u)


def test_cancel_request_keeps_the_server_serving(raw, tmp_path):
    s = raw()
    u = open_doc(s, tmp_path / "a.tf")
    ids = [s.request_async("textDocument/documentSymbol", {"textDocument": {"uri": u}}) for _ in range(5)]
    for i in ids:
        s.notify("$/cancelRequest", {"id": i})
    for i in ids:
        resp = s.wait_response(i)
        # Either answered before the cancellation arrived, or cancelled with RequestCancelled.
        assert "result" in resp or resp["error"]["code"] == -32800, resp
    s.notify("$/cancelRequest", {"id": 987654})  # an id that was never used
    s.notify("$/cancelRequest", {"id": "a-string-id"})
    still_serving(s, u)


# -- transport faults ----------------------------------------------------------


def test_malformed_json_gets_a_parse_error(raw, tmp_path):
    s = raw()
    open_doc(s, tmp_path / "a.tf")
    s.write_raw(b"Content-Length: 12\r\n\r\n{not json!!}")
    resp = s.next_message()
    assert resp["error"]["code"] == -32700 and resp["id"] is None, resp


@pytest.mark.parametrize(
    "frame",
    [
        b"Content-Length: 12\r\n\r\n{not json!!}",
        b"Content-Length: 2\r\n\r\n[]",
        b'Content-Length: 9\r\n\r\n{"foo":1}',
        b"X-Nonsense: 1\r\n\r\n{}",
        b"Content-Length: 2\r\n\r\n\xff\xfe",
    ],
    ids=["malformed-json", "json-array", "not-a-message", "no-content-length", "invalid-utf8"],
)
def test_the_server_keeps_serving_after_an_undecodable_message(raw, tmp_path, frame):
    s = raw()
    u = open_doc(s, tmp_path / "a.tf")
    s.write_raw(frame)
    still_serving(s, u)


def test_a_huge_content_length_neither_crashes_nor_hangs_the_server(raw, tmp_path):
    """`Content-Length: 4000000000` announces a 4 GB body. Observed, and asserted
    as the sane behaviour: the server neither crashes nor allocates the announced
    size up front; it keeps reading the body (what follows on the stream is body,
    so nothing more can be answered on this connection), and when the client goes
    away it exits promptly with status 0."""
    s = raw()
    open_doc(s, tmp_path / "a.tf")
    s.write_raw(b"Content-Length: 4000000000\r\n\r\n")
    s.write_raw(b'{"jsonrpc":"2.0","id":77,"method":"shutdown"}' + b" " * 1_000_000)
    time.sleep(0.5)
    assert s.proc.poll() is None, "the server died"
    with open(f"/proc/{s.proc.pid}/status") as f:
        rss_kb = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
    assert rss_kb < 200_000, f"{rss_kb} kB resident: the announced size was allocated"
    with pytest.raises(TimeoutError):
        s.wait_response(77, timeout=0.5)  # it is body, not a request
    s.proc.stdin.close()
    assert s.wait_exit(5) == 0


def test_content_length_beyond_any_integer(raw, tmp_path):
    s = raw()
    open_doc(s, tmp_path / "a.tf")
    s.write_raw(b"Content-Length: 99999999999999999999999999\r\n\r\n{}")
    resp = s.next_message()
    assert resp["error"]["code"] in (-32700, -32600), resp
    # Whether it then keeps serving is the bug above; it must not hang on exit.
    try:
        s.proc.stdin.close()
    except BrokenPipeError:
        pass
    assert s.wait_exit(5) == 0


def test_the_server_exits_when_the_client_disappears(raw, tmp_path):
    s = raw()
    u = open_doc(s, tmp_path / "a.tf")
    s.request_async("textDocument/hover", {"textDocument": {"uri": u}, "position": {"line": 2, "character": 9}})
    start = time.monotonic()
    s.proc.stdin.close()
    code = s.wait_exit(5)
    assert time.monotonic() - start < 5
    assert code == 0, code
    err = b"".join(s.stderr_lines)
    assert b"panicked" not in err, err.decode(errors="replace")


def test_requests_after_shutdown_are_invalid_and_exit_ends_with_0(raw, tmp_path):
    s = raw()
    u = open_doc(s, tmp_path / "a.tf")
    assert s.request("shutdown") == {"jsonrpc": "2.0", "id": s._next_id, "result": None}
    assert s.request("textDocument/documentSymbol", {"textDocument": {"uri": u}})["error"]["code"] == -32600
    s.notify("exit")
    assert s.wait_exit(5) == 0


def test_exit_without_shutdown_ends_with_status_1(raw, tmp_path):
    s = raw()
    open_doc(s, tmp_path / "a.tf")
    s.notify("exit")
    assert s.wait_exit(5) == 1
