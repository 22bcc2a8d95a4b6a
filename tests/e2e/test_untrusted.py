"""Issue 27: opening a folder runs nothing unless the user said so on their
own machine (docs/spec/lsp.md "What the server runs").

A repository downloaded from anywhere is opened as a user would in Neovim or
Helix (no trust prompt): it has `.terraform/` and `.terraform.lock.hcl`, so
the server used to run `terraform providers schema -json` there, which
executes the provider binaries the repository ships. Here `terraform` and
`tofu` are marker scripts: one in an absolute PATH directory, one inside the
repository (reached through `.` or an empty PATH entry, or a relative
`terraform.path`). A marker that runs writes a file; the tests assert which
ran. Every wait is bounded."""

import os
import pathlib
import stat
import time

from rawlsp import RawServer
from support import BIN

MAIN_TF = 'variable "n" {\n  type    = number\n  default = "x"\n}\n'

MARKER = """#!/bin/sh
echo "$0 $*" >> {log}
"""

# A `terraform` that hangs, after starting a child of its own: both pids
# are written first.
HANGING = """#!/bin/sh
sleep 300 &
echo $$ $! > {pids}
wait
"""


def script(path: pathlib.Path, text: str) -> None:
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


def repository(tmp: pathlib.Path) -> tuple[pathlib.Path, pathlib.Path, pathlib.Path]:
    """A module prepared by `terraform init` (as a repository may commit it),
    with marker executables inside it and in an absolute PATH directory."""
    repo = tmp / "repo"
    (repo / ".terraform" / "providers").mkdir(parents=True)
    (repo / "main.tf").write_text(MAIN_TF)
    (repo / ".terraform.lock.hcl").write_text("")
    log = tmp / "ran.log"
    for name in ("terraform", "tofu"):
        script(repo / name, MARKER.format(log=log))
    tools = tmp / "tools"
    tools.mkdir()
    for name in ("terraform", "tofu"):
        script(tools / name, MARKER.format(log=log))
    return repo, tools, log


def open_and_settle(server: RawServer, repo: pathlib.Path) -> None:
    """Opens main.tf, waits for its diagnostics, then gives a background run
    time to start (it used to start 0.2 s after the open)."""
    uri = "file://" + str(repo / "main.tf")
    server.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": uri, "languageId": "terraform", "version": 1, "text": MAIN_TF}},
    )
    diags = server.wait_notification("textDocument/publishDiagnostics", lambda p: p["uri"] == uri, timeout=15)
    assert any(d.get("code") == "invalid-value" for d in diags["diagnostics"]), diags
    time.sleep(1.5)
    # A request after the pause: the module is analysed again meanwhile.
    server.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 2, "character": 14}})
    time.sleep(0.5)


def finish(server: RawServer) -> None:
    server.request("shutdown", timeout=10)
    server.notify("exit")
    assert server.wait_exit(10) == 0


def env_with_path(path: str) -> dict[str, str]:
    return dict(os.environ, PATH=path, TF_HTTP_PASSWORD="secret")


def test_nothing_runs_by_default_whatever_the_workspace_says(tmp_path):
    repo, tools, log = repository(tmp_path)
    # `terraform` in an absolute PATH entry, and the repository's own through
    # `.` and empty entries.
    path = f"{tools}:.::{os.environ.get('PATH', '')}:"
    server = RawServer([BIN, "lsp"], cwd=str(repo), env=env_with_path(path))
    # The workspace's own settings (`.vscode/settings.json`) ask for a run
    # of its own executable: they arrive through workspace/configuration.
    server.configuration = {"terraform": {"runForSchemas": True, "path": "./terraform"}}
    try:
        server.initialize(str(repo), workspace={"configuration": True})
        open_and_settle(server, repo)
        server.notify("workspace/didChangeConfiguration", {"settings": {"hclTypes": server.configuration}})
        open_and_settle(server, repo)
        finish(server)
    finally:
        server.close()
    assert not log.exists(), log.read_text()


def test_relative_executables_are_refused_even_when_allowed(tmp_path):
    repo, _, log = repository(tmp_path)
    for options, path in [
        # A relative `terraform.path`: it would name a file of the workspace.
        ({"terraform": {"runForSchemas": True, "path": "./terraform"}}, "/usr/bin:/bin"),
        # A PATH lookup that would find the repository's own `terraform`
        # through `.` or an empty entry.
        ({"terraform": {"runForSchemas": True}}, ".::/nonexistent:"),
    ]:
        server = RawServer([BIN, "lsp"], cwd=str(repo), env=env_with_path(path))
        try:
            server.initialize(str(repo), options={"hclTypes": options})
            open_and_settle(server, repo)
            finish(server)
            said = b"".join(server.stderr_lines).decode()
        finally:
            server.close()
        assert not log.exists(), (options, path, log.read_text())
        if "path" in options["terraform"]:
            assert "must be an absolute path" in said, said


def test_an_untrusted_workspace_runs_nothing(tmp_path):
    repo, tools, log = repository(tmp_path)
    options = {"hclTypes": {"terraform": {"runForSchemas": True, "path": str(tools / "terraform")}, "workspaceTrusted": False}}
    server = RawServer([BIN, "lsp"], cwd=str(repo), env=env_with_path(os.environ.get("PATH", "")))
    try:
        server.initialize(str(repo), options=options)
        open_and_settle(server, repo)
        finish(server)
    finally:
        server.close()
    assert not log.exists(), log.read_text()


def alive(pid: str) -> bool:
    try:
        state = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, IndexError):
        return False
    return state != "Z"


def test_an_allowed_run_does_not_outlive_the_server(tmp_path):
    """The user allowed it; the executable hangs and starts a child of its
    own. Neither may keep the server from exiting, nor outlive it."""
    repo, tools, _ = repository(tmp_path)
    pids = tmp_path / "pids"
    script(tools / "terraform", HANGING.format(pids=pids))
    options = {"hclTypes": {"terraform": {"runForSchemas": True, "path": str(tools / "terraform")}}}
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"))
    server = RawServer([BIN, "lsp"], cwd=str(repo), env=env)
    try:
        server.initialize(str(repo), options=options)
        uri = "file://" + str(repo / "main.tf")
        server.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": "terraform", "version": 1, "text": MAIN_TF}},
        )
        deadline = time.monotonic() + 15
        while not (pids.exists() and len(pids.read_text().split()) == 2) and time.monotonic() < deadline:
            time.sleep(0.05)
        started = pids.read_text().split()
        assert len(started) == 2 and all(alive(p) for p in started), started
        finish(server)
    finally:
        server.close()
    deadline = time.monotonic() + 5
    while any(alive(p) for p in started) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [p for p in started if alive(p)], "a terraform child outlived the server"


def test_a_special_lock_file_neither_blocks_nor_exhausts_the_server(tmp_path):
    """The lock file is a FIFO (it used to block the analysis for good: no
    diagnostics, `shutdown` never answered) or a link to /dev/zero (~1 GiB
    read per keystroke): it is opened non-blocking, found not to be a
    regular file, and not read; nothing runs."""
    for special in ("fifo", "zero"):
        repo, tools, log = repository(tmp_path / special)
        lock = repo / ".terraform.lock.hcl"
        lock.unlink()
        if special == "fifo":
            os.mkfifo(lock)
        else:
            lock.symlink_to("/dev/zero")
        options = {"hclTypes": {"terraform": {"runForSchemas": True, "path": str(tools / "terraform")}}}
        server = RawServer([BIN, "lsp"], cwd=str(repo), env=dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache")))
        try:
            server.initialize(str(repo), options=options)
            open_and_settle(server, repo)
            finish(server)
        finally:
            server.close()
        assert not log.exists(), (special, log.read_text())


# Issue 45: provider binaries in a plugin cache. A marker "provider" that
# records each start (and prints no handshake).
PROVIDER = "registry.terraform.io/hashicorp/null"
NULL_TF = 'resource "null_resource" "x" {}\n'


def plugin_cache(root: pathlib.Path, log: pathlib.Path) -> pathlib.Path:
    import platform

    arch = {"x86_64": "amd64", "aarch64": "arm64"}.get(platform.machine(), platform.machine())
    binary = root / PROVIDER / "3.2.1" / f"{platform.system().lower()}_{arch}" / "terraform-provider-null_v3.2.1_x5"
    binary.parent.mkdir(parents=True)
    script(binary, MARKER.format(log=log))
    return root


def open_null_module(server: RawServer, repo: pathlib.Path) -> None:
    uri = "file://" + str(repo / "null.tf")
    (repo / "null.tf").write_text(NULL_TF)
    server.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": uri, "languageId": "terraform", "version": 1, "text": NULL_TF}},
    )
    server.wait_notification("textDocument/publishDiagnostics", lambda p: p["uri"] == uri, timeout=15)
    time.sleep(1.5)


def test_a_plugin_cache_inside_the_workspace_is_not_run_without_the_opt_in(tmp_path):
    """The user's TF_PLUGIN_CACHE_DIR names a directory inside the opened
    repository (or the repository ships one there): its binaries are
    repository content. A trusted workspace reads the user's own cache by
    default, but not this one; the same binary outside the workspace runs
    (the control: the marker proves the server would have run it)."""
    for inside in (True, False):
        case = tmp_path / ("inside" if inside else "outside")
        repo, _, log = repository(case)
        cache = plugin_cache((repo if inside else case) / "plugin-cache", log)
        env = dict(os.environ, TF_PLUGIN_CACHE_DIR=str(cache), XDG_CACHE_HOME=str(case / "cache"), HOME=str(case))
        server = RawServer([BIN, "lsp"], cwd=str(repo), env=env)
        try:
            server.initialize(str(repo), options={"hclTypes": {"workspaceTrusted": True}})
            open_null_module(server, repo)
            finish(server)
        finally:
            server.close()
        ran = log.read_text() if log.exists() else ""
        assert ("terraform-provider-null" in ran) == (not inside), (inside, ran)


def test_the_user_s_plugin_cache_runs_only_in_a_workspace_said_trusted_or_with_the_opt_in(tmp_path):
    """Outside the workspace, the user's own cache: not run when the client
    says nothing of trust (Neovim, Helix) or says the workspace is not
    trusted, even with the opt-ins; run with `terraform.pluginCache`."""
    for options, runs in [
        ({}, False),
        ({"workspaceTrusted": False, "terraform": {"runForSchemas": True, "pluginCache": True}}, False),
        ({"terraform": {"pluginCache": False}, "workspaceTrusted": True}, False),
        ({"terraform": {"pluginCache": True}}, True),
    ]:
        case = tmp_path / f"case{len(list(tmp_path.iterdir()))}"
        repo, _, log = repository(case)
        cache = plugin_cache(case / "plugin-cache", log)
        env = dict(os.environ, TF_PLUGIN_CACHE_DIR=str(cache), XDG_CACHE_HOME=str(case / "cache"), HOME=str(case))
        server = RawServer([BIN, "lsp"], cwd=str(repo), env=env)
        try:
            server.initialize(str(repo), options={"hclTypes": options})
            open_null_module(server, repo)
            finish(server)
        finally:
            server.close()
        ran = log.read_text() if log.exists() else ""
        assert ("terraform-provider-null" in ran) == runs, (options, ran)


def test_hcl_types_schemas_runs_workspace_binaries_only_when_told_and_check_runs_none(tmp_path):
    """`hcl-types schemas DIR` is the user's request to run their own
    provider binaries, but a plugin cache inside DIR's repository is the
    repository's: run only with `--run-workspace-providers` (the control).
    `check` runs nothing whatever the environment holds."""
    import subprocess

    repo, _, log = repository(tmp_path)
    (repo / ".git").mkdir()
    (repo / "null.tf").write_text(NULL_TF)
    cache = plugin_cache(repo / "plugin-cache", log)
    env = dict(os.environ, TF_PLUGIN_CACHE_DIR=str(cache), XDG_CACHE_HOME=str(tmp_path / "cache"), HOME=str(tmp_path))
    out = tmp_path / "out"
    for args in (["check", str(repo)], ["schemas", str(repo), "--cache-dir", str(out)]):
        ran = subprocess.run([BIN, *args], env=env, capture_output=True, text=True, timeout=60, check=False)
        assert not log.exists(), (args, log.read_text())
    assert "null: untyped: registry.terraform.io/hashicorp/null 3.2.1 not run: a binary inside the workspace" in ran.stdout, ran.stdout
    told = subprocess.run([BIN, "schemas", str(repo), "--cache-dir", str(out), "--run-workspace-providers"], env=env,
                          capture_output=True, text=True, timeout=60, check=False)
    assert told.returncode == 1 and "null: failed: " in told.stdout, told.stdout
    assert "terraform-provider-null" in log.read_text()
