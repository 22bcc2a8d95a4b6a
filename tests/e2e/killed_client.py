"""A client that dies mid-session (issue 13, point 5): it starts the server, says it
answers `workspace/configuration` and takes dynamic registrations, waits for the
server to ask for its configuration, never answers, prints the server's process
id and waits to be killed. Run by test_editors.py, which SIGKILLs it.

    python killed_client.py BIN ROOT
"""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))

from rawlsp import RawServer  # noqa: E402

bin_, root = sys.argv[1], sys.argv[2]
server = RawServer([bin_, "lsp"], cwd=root)
server.answers = False
server.initialize(root, workspace={"configuration": True, "didChangeWatchedFiles": {"dynamicRegistration": True}})
server.wait_request("workspace/configuration")
print(server.proc.pid, flush=True)
while True:
    time.sleep(60)
