// The hcl-types extension: starts `hcl-types lsp` for Terraform, Pulumi PCL and
// plain HCL files and keeps its settings in step with VS Code's.

import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as vscode from "vscode";
import {
  DidChangeConfigurationNotification,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  TransportKind,
} from "vscode-languageclient/node";

/** The language IDs the server handles; each one also has an `onLanguage:` activation event. */
export const LANGUAGES = ["terraform", "terraform-vars", "hcl", "pcl"] as const;
const SECTION = "hclTypes";
const INSTALL = "How to install";
const SETTINGS = "Open settings";

let client: LanguageClient | undefined;
let output: vscode.OutputChannel;
let extensionUri: vscode.Uri;
/** Serialises start, stop and restart so that quick setting changes cannot race. */
let queue: Promise<void> = Promise.resolve();

export function activate(context: vscode.ExtensionContext): void {
  extensionUri = context.extensionUri;
  output = vscode.window.createOutputChannel("hcl-types");
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand("hclTypes.restartServer", () => enqueue(restart)),
    vscode.commands.registerCommand("hclTypes.showOutput", () => output.show(true)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(`${SECTION}.server.path`)) {
        enqueue(restart);
      } else if (e.affectsConfiguration(SECTION)) {
        enqueue(pushSettings);
      }
    }),
  );
  enqueue(start);
}

export function deactivate(): Thenable<void> | undefined {
  return enqueue(stop);
}

function enqueue(step: () => Promise<void>): Promise<void> {
  queue = queue.then(step).catch((err) => {
    output.appendLine(`[hcl-types] ${errorText(err)}`);
  });
  return queue;
}

/** The settings the server reads (lsp.md): dialects, severity and inlay hints. */
export function serverSettings(): { hclTypes: Record<string, unknown> } {
  const c = vscode.workspace.getConfiguration(SECTION);
  return {
    hclTypes: {
      dialects: c.get<Record<string, string>>("dialects", {}),
      severity: c.get<Record<string, string>>("severity", {}),
      inlayHints: { enable: c.get<boolean>("inlayHints.enable", true) },
    },
  };
}

/** Where the binary is: the `hclTypes.server.path` setting, else `hcl-types` on PATH. */
function findServer(): { path?: string; looked: string } {
  const configured = (vscode.workspace.getConfiguration(SECTION).get<string>("server.path") ?? "").trim();
  if (configured) {
    let p = configured.replace(/^~(?=$|[\\/])/, os.homedir());
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    if (folder) p = p.replace(/\$\{workspaceFolder\}/g, folder);
    if (!path.isAbsolute(p) && folder) p = path.join(folder, p);
    return { path: isExecutable(p) ? p : undefined, looked: `hclTypes.server.path = ${configured} (${p})` };
  }
  const names = process.platform === "win32" ? ["hcl-types.exe", "hcl-types"] : ["hcl-types"];
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (!dir) continue;
    for (const name of names) {
      const p = path.join(dir, name);
      if (isExecutable(p)) return { path: p, looked: "PATH" };
    }
  }
  return { looked: "`hcl-types` on PATH (hclTypes.server.path is not set)" };
}

function isExecutable(p: string): boolean {
  try {
    if (!fs.statSync(p).isFile()) return false;
    fs.accessSync(p, process.platform === "win32" ? fs.constants.F_OK : fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

async function start(): Promise<void> {
  const found = findServer();
  if (!found.path) {
    const msg = `hcl-types: the language server was not found: looked for ${found.looked}. Install it with \`cargo install --path .\` in the hcl-types repository, or set hclTypes.server.path.`;
    output.appendLine(`[hcl-types] ${msg}`);
    void vscode.window.showErrorMessage(msg, INSTALL, SETTINGS).then((choice) => {
      if (choice === INSTALL) {
        void showReadme();
      } else if (choice === SETTINGS) {
        void vscode.commands.executeCommand("workbench.action.openSettings", `${SECTION}.server.path`);
      }
    });
    return;
  }
  output.appendLine(`[hcl-types] starting ${found.path} lsp`);
  const run = { command: found.path, args: ["lsp"], transport: TransportKind.stdio };
  const serverOptions: ServerOptions = { run, debug: run };
  const clientOptions: LanguageClientOptions = {
    documentSelector: LANGUAGES.map((language) => ({ scheme: "file", language })),
    initializationOptions: serverSettings(),
    outputChannel: output,
    traceOutputChannel: output,
  };
  const c = new LanguageClient(SECTION, "hcl-types", serverOptions, clientOptions);
  client = c;
  try {
    await c.start();
    const info = c.initializeResult?.serverInfo;
    output.appendLine(`[hcl-types] running ${info ? `${info.name} ${info.version ?? ""}`.trim() : found.path}`);
  } catch (err) {
    const msg = `hcl-types: the language server ${found.path} did not start: ${errorText(err)}`;
    output.appendLine(`[hcl-types] ${msg}`);
    void vscode.window.showErrorMessage(msg, "Show output").then((choice) => {
      if (choice) output.show(true);
    });
  }
}

/** The install steps: this extension's README (vsce stores it as readme.md). */
async function showReadme(): Promise<void> {
  const name = ["README.md", "readme.md"].find((n) => fs.existsSync(path.join(extensionUri.fsPath, n)));
  if (!name) {
    output.appendLine("[hcl-types] install: `cargo install --path .` in the hcl-types repository, then set hclTypes.server.path or put hcl-types on PATH");
    output.show(true);
    return;
  }
  await vscode.commands.executeCommand("markdown.showPreview", vscode.Uri.joinPath(extensionUri, name));
}

async function stop(): Promise<void> {
  const c = client;
  client = undefined;
  if (c) {
    try {
      await c.stop(5000);
    } catch (err) {
      output.appendLine(`[hcl-types] stopping: ${errorText(err)}`);
    }
  }
}

async function restart(): Promise<void> {
  output.appendLine("[hcl-types] restarting the server");
  await stop();
  await start();
}

/** Sends the changed settings; the server re-publishes diagnostics. */
async function pushSettings(): Promise<void> {
  if (!client?.isRunning()) return;
  await client.sendNotification(DidChangeConfigurationNotification.type, { settings: serverSettings() });
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
