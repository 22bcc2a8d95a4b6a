"""Shared fixtures of the Terraform oracle tests (scripts/terraform-oracle)."""

import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

import oracle  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SUMMARY = []


def _shared_dir():
    """The shared directory of third-party test data, by the one rule of
    scripts/shared-dir ($HCL_TYPES_SHARED, else ../shared beside the
    checkout), or None when it is absent."""
    proc = subprocess.run([os.path.join(ROOT, "scripts", "shared-dir")], capture_output=True, text=True, check=False)
    return proc.stdout.strip() if proc.returncode == 0 and proc.stdout.strip() else None


SHARED = _shared_dir()
# The eight Terraform module repositories of the real-world corpus (read where
# they lie, never committed), or None.
CORPUS = os.path.join(SHARED, "corpus", "terraform") if SHARED else None
NO_CORPUS = "no real-world corpus (third-party test data: ../shared/corpus/terraform, or set HCL_TYPES_SHARED)"


@pytest.fixture(scope="session")
def terraform():
    return oracle.Terraform()


@pytest.fixture(scope="session")
def validator():
    v = oracle.Validator()
    yield v
    v.close()


@pytest.fixture(scope="session")
def binary():
    target = os.path.abspath(os.environ.get("CARGO_TARGET_DIR") or os.path.join(ROOT, "target"))
    path = os.environ.get("HCL_TYPES_BIN") or os.path.join(target, "release", "hcl-types")
    if not os.access(path, os.X_OK):
        pytest.fail(f"no hcl-types binary at {path} (build it with cargo build --release)")
    return path


def pytest_terminal_summary(terminalreporter):
    for line in SUMMARY:
        terminalreporter.write_line(line)
