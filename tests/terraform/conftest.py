"""Shared fixtures of the Terraform oracle tests (scripts/terraform-oracle)."""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

import oracle  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SUMMARY = []


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
