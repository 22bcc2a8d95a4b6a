// The keystroke benchmark as a real client sees it: VS Code's JSON-RPC
// library (vscode-jsonrpc) reads and decodes every message, and a keystroke
// counts from sending `didChange` to the decoded `publishDiagnostics` of
// that document version. Run by benches/keystroke_kinds.rs with a plan:
//
//   node benches/keystroke_client.mjs PLAN.json NODE_MODULES_DIR
//
// PLAN.json: { server, open: [{uri, languageId, text}], edits: [{kind, uri,
// version, range, text}] }. Prints one JSON object: kind -> milliseconds.

import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { performance } from "node:perf_hooks";

const [planPath, modules] = process.argv.slice(2);
const require = createRequire(modules + "/");
const rpc = require("vscode-jsonrpc/node");
const plan = JSON.parse(readFileSync(planPath, "utf8"));

const server = spawn(plan.server, ["lsp"], { stdio: ["pipe", "pipe", "ignore"] });
const connection = rpc.createMessageConnection(
  new rpc.StreamMessageReader(server.stdout),
  new rpc.StreamMessageWriter(server.stdin),
);
// Server requests (configuration, registrations) get an empty answer.
connection.onRequest(() => null);
let waiting = null;
connection.onNotification("textDocument/publishDiagnostics", (params) => {
  if (waiting && params.uri === waiting.uri && params.version === waiting.version) {
    const done = waiting.resolve;
    waiting = null;
    done();
  }
});
connection.listen();

const published = (uri, version) => new Promise((resolve) => (waiting = { uri, version, resolve }));

await connection.sendRequest("initialize", {
  processId: process.pid,
  rootUri: null,
  capabilities: { general: { positionEncodings: ["utf-16"] } },
});
await connection.sendNotification("initialized", {});
for (const doc of plan.open) {
  const ready = published(doc.uri, 1);
  await connection.sendNotification("textDocument/didOpen", {
    textDocument: { uri: doc.uri, languageId: doc.languageId, version: 1, text: doc.text },
  });
  await ready;
}
// A pause after opening, as a user's before typing (see keystroke_kinds.rs).
await new Promise((resolve) => setTimeout(resolve, 1000));
const times = {};
for (const e of plan.edits) {
  const ready = published(e.uri, e.version);
  const t = performance.now();
  await connection.sendNotification("textDocument/didChange", {
    textDocument: { uri: e.uri, version: e.version },
    contentChanges: [{ range: e.range, text: e.text }],
  });
  await ready;
  (times[e.kind] ??= []).push(performance.now() - t);
}
await connection.sendRequest("shutdown");
await connection.sendNotification("exit");
connection.dispose();
process.stdout.write(JSON.stringify(times) + "\n");
process.exit(0);
