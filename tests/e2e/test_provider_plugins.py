"""Issue 45: resource types without setup. A provider in the user's plugin
cache is read over the real plugin protocol (go-plugin handshake, gRPC
`tfplugin6.Provider/GetProviderSchema`): the provider here is tf-replay
(`../shared/tools/tf-replay`, a Python provider speaking that protocol and
serving a `providers schema -json` file), installed as a plugin cache
lays providers out. The same test confirms with Terraform itself
(`dev_overrides`, `terraform providers schema -json`) that the schema read
is exactly what Terraform reads from the same binary.

Skipped, with a line saying why, without the shared directory, the replay's
Python packages (tests/e2e/requirements.txt) or `terraform` (Terraform's
part only)."""

import json
import os
import pathlib
import platform
import shutil
import stat
import subprocess
import sys

import pytest

from rawlsp import RawServer
from support import BIN, needs_shared, shared

REPLAY = "tools/tf-replay/replay_provider.py"
LOCAL = "schemas/terraform/local-2.5.2.json"
ADDRESS = "registry.terraform.io/hashicorp/local"

MAIN_TF = """\
terraform {
  required_providers {
    local = { source = "hashicorp/local", version = "~> 2.5" }
  }
}

resource "local_file" "f" {
  filename = ["not", "a", "string"]
  content  = "x"
}

output "digest" {
  value = local_file.f.content_sha256
}
"""


def os_arch() -> str:
    arch = {"x86_64": "amd64", "aarch64": "arm64", "arm64": "arm64"}.get(platform.machine(), platform.machine())
    return f"{platform.system().lower()}_{arch}"


def replay_python() -> str:
    """A Python that runs the replay: $TF_REPLAY_PYTHON, else this one."""
    python = os.environ.get("TF_REPLAY_PYTHON") or sys.executable
    probe = subprocess.run([python, "-c", "import grpc, grpc_health, msgpack, cryptography, tfplugin_proto"],
                           capture_output=True, check=False)
    if probe.returncode != 0:
        pytest.skip("skipped plugin-protocol tests: the replay provider's Python packages are not installed "
                    "(tests/e2e/requirements.txt, or set TF_REPLAY_PYTHON)")
    return python


def executable(path: pathlib.Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


def plugin_cache(tmp: pathlib.Path) -> tuple[pathlib.Path, pathlib.Path]:
    """A plugin cache holding hashicorp/local 2.5.2 as `terraform init`
    lays it out, its binary a wrapper that execs the replay."""
    python = replay_python()
    cache = tmp / "plugin-cache"
    binary = cache / ADDRESS / "2.5.2" / os_arch() / "terraform-provider-local_v2.5.2_x5"
    replay = shared(REPLAY, "the replay provider")
    schema = shared(LOCAL, "the local provider's schema")
    executable(binary, f"#!/bin/sh\nexec '{python}' '{replay}' --schema '{schema}' --provider {ADDRESS}\n")
    return cache, binary


def environment(tmp: pathlib.Path, cache: pathlib.Path) -> dict[str, str]:
    home = tmp / "home"
    home.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TF_", "XDG_"))}
    env.update(HOME=str(home), TF_PLUGIN_CACHE_DIR=str(cache), XDG_CACHE_HOME=str(tmp / "xdg-cache"))
    return env


def module(tmp: pathlib.Path) -> pathlib.Path:
    mod = tmp / "work" / "mod"
    mod.mkdir(parents=True)
    (mod / "main.tf").write_text(MAIN_TF)
    (tmp / "work" / ".git").mkdir()
    return mod


@needs_shared("provider schemas over the plugin protocol", REPLAY, LOCAL)
def test_schemas_reads_the_plugin_cache_and_check_reads_what_it_wrote(tmp_path):
    cache, binary = plugin_cache(tmp_path)
    mod = module(tmp_path)
    env = environment(tmp_path, cache)
    out = tmp_path / "schema-cache"
    ran = subprocess.run([BIN, "schemas", str(mod), "--cache-dir", str(out)], env=env, capture_output=True,
                         text=True, timeout=120, check=False)
    assert ran.returncode == 0, ran.stderr + ran.stdout
    assert f"local: typed: {ADDRESS} 2.5.2 from {binary}" in ran.stdout, ran.stdout
    written = list(out.glob("*.json"))
    assert len(written) == 1, written
    ours = json.loads(written[0].read_text())

    # `check` with the cache: the schema types the resource (nothing runs:
    # the plugin cache is gone).
    shutil.rmtree(cache)
    checked = subprocess.run([BIN, "check", str(mod), "--schema-cache", str(out), "--format", "json"], env=env,
                             capture_output=True, text=True, timeout=60, check=False)
    assert checked.returncode == 1, checked.stdout + checked.stderr
    found = json.loads(checked.stdout)
    assert [(d["code"], d["line"]) for d in found] == [("invalid-value", 8)], found
    untyped = subprocess.run([BIN, "check", str(mod)], env=env, capture_output=True, text=True, timeout=60,
                             check=False)
    assert untyped.returncode == 0, untyped.stdout

    # Terraform reads the same binary through `dev_overrides` and prints
    # the same schema.
    terraform = shutil.which("terraform")
    if terraform is None:
        pytest.skip("skipped the Terraform comparison: no `terraform` on PATH")
    cache2, binary2 = plugin_cache(tmp_path / "again")
    dev = tmp_path / "dev"
    dev.mkdir()
    (dev / "terraform-provider-local").symlink_to(binary2)
    rc = tmp_path / "terraformrc"
    rc.write_text("disable_checkpoint = true\nprovider_installation {\n  dev_overrides {\n"
                  f'    "{ADDRESS}" = "{dev}"\n  }}\n  filesystem_mirror {{ path = "{tmp_path / "empty"}" }}\n}}\n')
    tf_env = dict(env, TF_CLI_CONFIG_FILE=str(rc), CHECKPOINT_DISABLE="1")
    printed = subprocess.run([terraform, "providers", "schema", "-json"], cwd=mod, env=tf_env,
                             capture_output=True, text=True, timeout=120, check=False)
    assert printed.returncode == 0, printed.stderr
    theirs = json.loads(printed.stdout)
    assert ours["provider_schemas"] == theirs["provider_schemas"]


@needs_shared("provider schemas over the plugin protocol", REPLAY, LOCAL)
def test_the_server_types_resources_from_the_plugin_cache_in_a_trusted_workspace(tmp_path):
    cache, binary = plugin_cache(tmp_path)
    mod = module(tmp_path)
    env = environment(tmp_path, cache)
    server = RawServer([BIN, "lsp"], cwd=str(mod), env=env)
    uri = "file://" + str(mod / "main.tf")
    try:
        # What VS Code's extension sends in a trusted workspace.
        server.initialize(str(tmp_path / "work"), options={"hclTypes": {"workspaceTrusted": True}})
        server.notify("textDocument/didOpen",
                      {"textDocument": {"uri": uri, "languageId": "terraform", "version": 1, "text": MAIN_TF}})
        # The schema is read in the background; the module is analysed
        # again once it is there.
        typed = lambda p: p["uri"] == uri and any(d["range"]["start"]["line"] == 7 for d in p["diagnostics"])  # noqa: E731
        published = server.wait_notification("textDocument/publishDiagnostics", typed, timeout=45)
        assert [d["code"] for d in published["diagnostics"]] == ["invalid-value"], published
        # Hover on the resource type names the provider, version and binary.
        hover = server.request("textDocument/hover",
                               {"textDocument": {"uri": uri}, "position": {"line": 6, "character": 12}})
        text = hover["result"]["contents"]["value"]
        assert f"provider `{ADDRESS}`" in text and f"{ADDRESS} 2.5.2 (from {binary})" in text, text
        server.request("shutdown", timeout=10)
        server.notify("exit")
        assert server.wait_exit(10) == 0
        log = b"".join(server.stderr_lines).decode()
        assert f"local: {ADDRESS} 2.5.2 from {binary}" in log, log
    finally:
        server.close()


def lock_with_terraform(tmp: pathlib.Path, cache: pathlib.Path, mod: pathlib.Path, env: dict[str, str]) -> str:
    """The module's `.terraform.lock.hcl` as Terraform writes it for the
    package in `cache` (laid out as a filesystem mirror is): `terraform
    providers lock -fs-mirror`, which hashes the unpacked package with its
    own `h1:` (HashV1). Its text."""
    terraform = shutil.which("terraform")
    if terraform is None:
        pytest.skip("skipped the lock-file hash test: no `terraform` on PATH")
    rc = tmp / "terraformrc-lock"
    rc.write_text("disable_checkpoint = true\n")
    tf_env = dict(env, TF_CLI_CONFIG_FILE=str(rc), CHECKPOINT_DISABLE="1")
    tf_env.pop("TF_PLUGIN_CACHE_DIR", None)
    ran = subprocess.run([terraform, "providers", "lock", f"-fs-mirror={cache}", f"-platform={os_arch()}"],
                         cwd=mod, env=tf_env, capture_output=True, text=True, timeout=120, check=False)
    assert ran.returncode == 0, ran.stderr + ran.stdout
    text = (mod / ".terraform.lock.hcl").read_text()
    assert '"h1:' in text, text
    return text


@needs_shared("provider schemas over the plugin protocol", REPLAY, LOCAL)
def test_a_cached_provider_is_used_only_when_it_matches_the_lock_files_h1_hash(tmp_path):
    """Issue 45: the lock file's `h1:` hashes (Terraform's HashV1 of the
    unpacked package, `internal/getproviders/hash.go`) are checked: with
    the hash Terraform wrote the binary is read; with another it is
    skipped, saying why, and nothing runs."""
    cache, binary = plugin_cache(tmp_path)
    mod = module(tmp_path)
    env = environment(tmp_path, cache)
    lock = lock_with_terraform(tmp_path, cache, mod, env)
    out = tmp_path / "schema-cache"
    schemas = [BIN, "schemas", str(mod), "--cache-dir", str(out)]
    ran = subprocess.run(schemas, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert ran.returncode == 0, ran.stderr + ran.stdout
    assert f"local: typed: {ADDRESS} 2.5.2, the locked version from {binary}" in ran.stdout, ran.stdout
    assert "; its package matches the lock file's `h1:` hash" in ran.stdout, ran.stdout
    assert len(list(out.glob("*.json"))) == 1

    # Another h1 (as for another build of the same version): skipped.
    shutil.rmtree(out)
    start = lock.index('"h1:') + 4
    wrong = lock[:start] + "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=" + lock[lock.index('"', start):]
    (mod / ".terraform.lock.hcl").write_text(wrong)
    ran = subprocess.run(schemas, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert ran.returncode == 0, ran.stderr + ran.stdout
    assert f"local: untyped: {ADDRESS} 2.5.2 not run: its package {binary.parent}" in ran.stdout, ran.stdout
    assert "none of the 1 `h1:` hashes the lock file names" in ran.stdout, ran.stdout
    assert not out.exists() or not list(out.glob("*.json")), "nothing was read"

    # Only `zh:` hashes (of the registry's zip): an unpacked package cannot
    # be checked against them, so it is used.
    zh_only = "\n".join(line for line in lock.splitlines() if '"h1:' not in line) + "\n"
    (mod / ".terraform.lock.hcl").write_text(zh_only.replace("hashes = [", 'hashes = [\n    "zh:00",'))
    ran = subprocess.run(schemas, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert f"local: typed: {ADDRESS} 2.5.2, the locked version" in ran.stdout, ran.stdout
    assert "the lock file lists only `zh:` hashes" in ran.stdout, ran.stdout

    # The server says it in its hint, and reads nothing.
    (mod / ".terraform.lock.hcl").write_text(wrong)
    shutil.rmtree(out, ignore_errors=True)
    server = RawServer([BIN, "lsp"], cwd=str(mod), env=env)
    uri = "file://" + str(mod / "main.tf")
    try:
        server.initialize(str(tmp_path / "work"), options={"hclTypes": {"workspaceTrusted": True}})
        server.notify("textDocument/didOpen",
                      {"textDocument": {"uri": uri, "languageId": "terraform", "version": 1, "text": MAIN_TF}})
        hinted = lambda p: p["uri"] == uri and any(d["code"] == "no-schema" for d in p["diagnostics"])  # noqa: E731
        published = server.wait_notification("textDocument/publishDiagnostics", hinted, timeout=45)
        hint = next(d for d in published["diagnostics"] if d["code"] == "no-schema")
        assert hint["range"]["start"] == {"line": 2, "character": 4}, hint
        assert "`local`" in hint["message"] and "`h1:` hashes the lock file names" in hint["message"], hint
        assert "invalid-value" not in [d["code"] for d in published["diagnostics"]], published
    finally:
        server.close()


def test_the_server_says_no_schema_when_the_user_has_no_plugin_cache_at_all(tmp_path):
    """Issue 45: in a trusted workspace the server searches the user's
    provider binaries; with none at all (an empty home, no plugin cache)
    the module still gets its one `no-schema` hint, as `check` does with
    a schema source, naming what would type it."""
    mod = module(tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TF_", "XDG_", "TOFU_"))}
    env.update(HOME=str(home), XDG_CACHE_HOME=str(tmp_path / "xdg-cache"))
    server = RawServer([BIN, "lsp"], cwd=str(mod), env=env)
    uri = "file://" + str(mod / "main.tf")
    try:
        server.initialize(str(tmp_path / "work"), options={"hclTypes": {"workspaceTrusted": True}})
        server.notify("textDocument/didOpen",
                      {"textDocument": {"uri": uri, "languageId": "terraform", "version": 1, "text": MAIN_TF}})
        hinted = lambda p: p["uri"] == uri and any(d["code"] == "no-schema" for d in p["diagnostics"])  # noqa: E731
        published = server.wait_notification("textDocument/publishDiagnostics", hinted, timeout=30)
        hints = [d for d in published["diagnostics"] if d["code"] == "no-schema"]
        assert len(hints) == 1, published
        assert hints[0]["range"]["start"] == {"line": 2, "character": 4}, hints
        assert hints[0]["severity"] == 4, hints
        assert "no binary of hashicorp/local in the searched directories" in hints[0]["message"], hints
        server.request("shutdown", timeout=10)
        server.notify("exit")
        assert server.wait_exit(10) == 0
        log = b"".join(server.stderr_lines).decode()
        assert "local: no binary of hashicorp/local" in log, log
    finally:
        server.close()


def dev_override_env(tmp: pathlib.Path, binary: pathlib.Path, env: dict[str, str]) -> dict[str, str]:
    """An environment in which Terraform runs `binary` for the local
    provider (`dev_overrides`; no `terraform init`)."""
    dev = tmp / "dev"
    dev.mkdir()
    (dev / "terraform-provider-local").symlink_to(binary)
    rc = tmp / "terraformrc-dev"
    rc.write_text("disable_checkpoint = true\nprovider_installation {\n  dev_overrides {\n"
                  f'    "{ADDRESS}" = "{dev}"\n  }}\n  filesystem_mirror {{ path = "{tmp / "empty"}" }}\n}}\n')
    return dict(env, TF_CLI_CONFIG_FILE=str(rc), CHECKPOINT_DISABLE="1")


@needs_shared("provider schemas over the plugin protocol", REPLAY, LOCAL)
def test_a_provider_blocks_own_arguments_are_checked_as_terraform_validate_does(tmp_path):
    """Issue 48: a `provider` block's arguments are checked against the
    provider's configuration schema read over the plugin protocol; the
    local provider's takes no argument, so `foo` is unknown there, as
    `terraform validate` (with the same binary) says too."""
    cache, binary = plugin_cache(tmp_path)
    mod = module(tmp_path)
    (mod / "providers.tf").write_text('provider "local" {\n  foo = 1\n}\n')
    env = environment(tmp_path, cache)
    out = tmp_path / "schema-cache"
    ran = subprocess.run([BIN, "schemas", str(mod), "--cache-dir", str(out)], env=env, capture_output=True,
                         text=True, timeout=120, check=False)
    assert ran.returncode == 0, ran.stderr + ran.stdout
    checked = subprocess.run([BIN, "check", str(mod), "--schema-cache", str(out), "--format", "json"], env=env,
                             capture_output=True, text=True, timeout=60, check=False)
    found = [(pathlib.Path(d["path"]).name, d["code"], d["line"]) for d in json.loads(checked.stdout)]
    assert ("providers.tf", "unsupported-argument", 2) in found, found

    terraform = shutil.which("terraform")
    if terraform is None:
        pytest.skip("skipped the Terraform comparison: no `terraform` on PATH")
    (mod / "main.tf").write_text(MAIN_TF.replace('["not", "a", "string"]', '"f.txt"'))
    validated = subprocess.run([terraform, "validate", "-json"], cwd=mod, env=dev_override_env(tmp_path, binary, env),
                               capture_output=True, text=True, timeout=120, check=False)
    theirs = json.loads(validated.stdout)
    errors = [(d["summary"], d["range"]["filename"], d["range"]["start"]["line"])
              for d in theirs["diagnostics"] if d["severity"] == "error"]
    assert errors == [("Unsupported argument", "providers.tf", 2)], theirs


@needs_shared("provider schemas over the plugin protocol", REPLAY, LOCAL)
def test_opentofus_plugin_directory_and_registry_are_searched(tmp_path):
    """OpenTofu's own places (`internal/command/cliconfig` in
    opentofu/opentofu): its implied plugin directory
    `$XDG_DATA_HOME/opentofu/plugins`, a provider under
    `registry.opentofu.org`, and `plugin_cache_dir` of `~/.tofurc`. No
    `tofu` binary can be installed here (no Debian, PyPI or npm package
    ships one), so OpenTofu itself does not confirm the schema."""
    python = replay_python()
    replay = shared(REPLAY, "the replay provider")
    schema = shared(LOCAL, "the local provider's schema")
    tofu_address = "registry.opentofu.org/hashicorp/local"
    wrapper = f"#!/bin/sh\nexec '{python}' '{replay}' --schema '{schema}' --provider {tofu_address}\n"
    home = tmp_path / "home"
    home.mkdir()
    mod = module(tmp_path)
    base = {k: v for k, v in os.environ.items() if not k.startswith(("TF_", "XDG_", "TOFU_"))}
    base.update(HOME=str(home), XDG_CACHE_HOME=str(tmp_path / "xdg-cache"))
    # The implied plugin directory.
    data = tmp_path / "xdg-data"
    binary = data / "opentofu/plugins" / tofu_address / "2.5.2" / os_arch() / "terraform-provider-local_v2.5.2"
    executable(binary, wrapper)
    env = dict(base, XDG_DATA_HOME=str(data))
    ran = subprocess.run([BIN, "schemas", str(mod), "--cache-dir", str(tmp_path / "out1")], env=env,
                         capture_output=True, text=True, timeout=120, check=False)
    assert ran.returncode == 0, ran.stderr + ran.stdout
    assert f"local: typed: {tofu_address} 2.5.2 from {binary}" in ran.stdout, ran.stdout
    # `plugin_cache_dir` of `~/.tofurc`.
    shutil.rmtree(data)
    cache = tmp_path / "tofu-cache"
    binary = cache / tofu_address / "2.5.2" / os_arch() / "terraform-provider-local_v2.5.2"
    executable(binary, wrapper)
    (home / ".tofurc").write_text(f'plugin_cache_dir = "{cache}"\n')
    ran = subprocess.run([BIN, "schemas", str(mod), "--cache-dir", str(tmp_path / "out2")], env=base,
                         capture_output=True, text=True, timeout=120, check=False)
    assert ran.returncode == 0, ran.stderr + ran.stdout
    assert f"local: typed: {tofu_address} 2.5.2 from {binary}" in ran.stdout, ran.stdout
