"""Fixtures for the end-to-end tests: a pytest-lsp client connected to the built
binary (`$HCL_TYPES_BIN` or target/release/hcl-types), started with `lsp`."""

import os
import sys

import pytest
import pytest_lsp
from pytest_lsp import ClientServerConfig

sys.path.insert(0, os.path.dirname(__file__))

from pytest_lsp import LanguageClient  # noqa: E402
from support import BIN, make_client  # noqa: E402

if not os.access(BIN, os.X_OK):
    raise pytest.UsageError(f"hcl-types binary not found at {BIN}: run `cargo build --release` or set HCL_TYPES_BIN")


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[BIN, "lsp"], client_factory=make_client))
async def client(lsp_client: LanguageClient):
    lsp_client.did_shutdown = False
    yield
    if not lsp_client.did_shutdown and lsp_client.capabilities is not None:
        await lsp_client.shutdown_session()
