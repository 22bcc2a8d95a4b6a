"""A minimal LSP client over raw stdio, for protocol-fault tests.

It spawns the server, writes ``Content-Length`` framed JSON-RPC itself (so it can
also write malformed frames), and reads every message on a background thread.
Every wait has a timeout, so a hung server fails a test quickly instead of hanging it.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import threading
import time
from typing import Any


class ServerGone(Exception):
    """The server closed its stdout (exited or crashed)."""


class RawServer:
    def __init__(self, cmd: list[str], cwd: str | None = None, env: dict[str, str] | None = None):
        self.proc = subprocess.Popen(
            cmd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            env=env,
        )
        # What `workspace/configuration` answers for each item (a
        # workspace's `.vscode/settings.json` arrives this way in VS Code).
        self.configuration: Any = None
        self.messages: "queue.Queue[dict[str, Any] | None]" = queue.Queue()
        # Everything received, in order (requests from the server, notifications, responses).
        self.received: list[dict[str, Any]] = []
        self.stderr_lines: list[bytes] = []
        self._next_id = 1000
        self._lock = threading.Lock()
        # Whether requests from the server are answered (a client that never
        # answers, or died, is what some tests play).
        self.answers = True
        # Cleared to stop reading the server's output (a stalled editor): the
        # pipe then fills and the server's writes block.
        self.reading = threading.Event()
        self.reading.set()
        threading.Thread(target=self._read_stdout, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    # -- reading -------------------------------------------------------------

    def _read_stdout(self) -> None:
        out = self.proc.stdout
        assert out is not None
        try:
            while True:
                self.reading.wait()
                headers: dict[str, str] = {}
                while True:
                    line = out.readline()
                    if not line:
                        return
                    line = line.rstrip(b"\r\n")
                    if not line:
                        break
                    name, _, value = line.decode("ascii").partition(":")
                    headers[name.strip().lower()] = value.strip()
                length = int(headers["content-length"])
                body = out.read(length)
                if len(body) < length:
                    return
                msg = json.loads(body)
                self.messages.put(msg)
        finally:
            self.messages.put(None)

    def _read_stderr(self) -> None:
        err = self.proc.stderr
        assert err is not None
        for line in err:
            self.stderr_lines.append(line)

    def next_message(self, timeout: float = 10.0) -> dict[str, Any]:
        try:
            msg = self.messages.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError(f"no message from the server within {timeout}s") from None
        if msg is None:
            self.messages.put(None)  # keep reporting the end
            raise ServerGone(f"server closed stdout (exit code {self.proc.poll()})")
        self.received.append(msg)
        # Answer requests from the server so it never waits on us.
        if "method" in msg and "id" in msg and self.answers:
            result: Any = None
            if msg["method"] == "workspace/configuration":
                result = [self.configuration for _ in msg.get("params", {}).get("items", [])]
            self.send({"jsonrpc": "2.0", "id": msg["id"], "result": result})
        return msg

    def wait_for(self, match, what: str, timeout: float = 10.0) -> dict[str, Any]:
        """The first message (received earlier or later) that ``match`` accepts."""
        for m in self.received:
            if match(m):
                return m
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no {what} within {timeout}s")
            msg = self.next_message(left)
            if match(msg):
                return msg

    def wait_response(self, id_: Any, timeout: float = 10.0) -> dict[str, Any]:
        return self.wait_for(lambda m: m.get("id") == id_ and "method" not in m, f"response to id {id_!r}", timeout)

    def wait_notification(self, method: str, pred=lambda p: True, timeout: float = 10.0) -> dict[str, Any]:
        """The first notification ``method`` (received earlier or later) whose params satisfy ``pred``."""
        match = lambda m: m.get("method") == method and "id" not in m and pred(m.get("params"))  # noqa: E731
        return self.wait_for(match, f"{method} matching", timeout)["params"]

    def wait_request(self, method: str, timeout: float = 10.0) -> dict[str, Any]:
        """The first request ``method`` from the server (received earlier or later)."""
        return self.wait_for(lambda m: m.get("method") == method and "id" in m, f"{method} request", timeout)

    def drain(self, quiet: float = 0.2) -> None:
        """Reads until the server has been quiet for ``quiet`` seconds."""
        while True:
            try:
                self.next_message(quiet)
            except TimeoutError:
                return

    # -- writing -------------------------------------------------------------

    def write_raw(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, msg: dict[str, Any]) -> None:
        body = json.dumps(msg).encode("utf-8")
        with self._lock:
            self.write_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def notify(self, method: str, params: Any = None) -> None:
        msg: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)

    def request_async(self, method: str, params: Any = None, id_: Any = None) -> Any:
        if id_ is None:
            self._next_id += 1
            id_ = self._next_id
        msg: dict[str, Any] = {"jsonrpc": "2.0", "id": id_, "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)
        return id_

    def request(self, method: str, params: Any = None, timeout: float = 10.0) -> dict[str, Any]:
        """Sends a request and returns the whole response message (``result`` or ``error``)."""
        return self.wait_response(self.request_async(method, params), timeout)

    # -- lifecycle -----------------------------------------------------------

    def initialize(
        self, root: str, encodings: list[str] | None = None, options: Any = None, workspace: Any = None
    ) -> dict[str, Any]:
        caps: dict[str, Any] = {
            "general": {"positionEncodings": encodings or ["utf-16"]},
            "textDocument": {
                "hover": {"contentFormat": ["markdown", "plaintext"]},
                "documentSymbol": {"hierarchicalDocumentSymbolSupport": True},
            },
        }
        if workspace is not None:
            caps["workspace"] = workspace
        params = {
            "processId": os.getpid(),
            "rootUri": "file://" + root,
            "workspaceFolders": [{"uri": "file://" + root, "name": "ws"}],
            "capabilities": caps,
        }
        if options is not None:
            params["initializationOptions"] = options
        resp = self.request("initialize", params, timeout=10)
        assert "result" in resp, resp
        self.notify("initialized", {})
        return resp["result"]

    def wait_exit(self, timeout: float = 10.0) -> int:
        return self.proc.wait(timeout=timeout)

    def close(self) -> None:
        """Ends the process if still running (only this one, by its own handle)."""
        if self.proc.poll() is None:
            try:
                assert self.proc.stdin is not None
                self.proc.stdin.close()
            except (BrokenPipeError, OSError):
                pass
            try:
                self.proc.wait(timeout=3)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)
        for s in (self.proc.stdout, self.proc.stderr):
            try:
                if s:
                    s.close()
            except OSError:
                pass
