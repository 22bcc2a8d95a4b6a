// The hcl-types extension: starts `hcl-types lsp` for Terraform, Pulumi PCL and
// plain HCL files and keeps its settings in step with VS Code's.
//
// What runs is the user's choice alone: the server binary and whether (and which)
// `terraform` runs for provider schemas are read from the user's own settings,
// never from a workspace's `.vscode/settings.json` (issue 27).

import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as vscode from "vscode";
import {
  ConfigurationParams,
  DidChangeConfigurationNotification,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  TransportKind,
} from "vscode-languageclient/node";

/**
 * The language IDs HashiCorp's Terraform extension and OpenTofu's extension give
 * the files they claim besides `.tf` and `.tfvars` (their package.json,
 * `contributes.languages`): tests, mocks, query files and Stacks. Users have
 * those extensions installed next to this one, and VS Code then gives such a
 * file their more specific language, not `hcl`: selecting the IDs keeps the
 * file checked. They are not declared here (that is the peers' to do); the
 * server tells the file's kind by its name, whatever the language ID.
 */
export const PEER_LANGUAGES = [
  "terraform-test", // .tftest.hcl
  "terraform-mock", // .tfmock.hcl
  "terraform-search", // .tfquery.hcl
  "terraform-stack", // .tfcomponent.hcl (HashiCorp), .tfstack.hcl (OpenTofu's, and HashiCorp's before GA)
  "terraform-deploy", // .tfdeploy.hcl
] as const;

/** The language IDs the server handles; each one also has an `onLanguage:` activation event. */
export const LANGUAGES = [
  "terraform",
  "terraform-vars",
  "hcl",
  "pcl",
  ...PEER_LANGUAGES,
] as const;
/** Terraform's and OpenTofu's JSON syntax: VS Code gives these files the
 * language `json`, which is not ours to claim, so they are selected by name
 * (the server reads them as module files: docs/spec/analysis.md §7.1). */
export const JSON_PATTERNS = ["**/*.tf.json", "**/*.tofu.json"] as const;
/** Terraform's HCL files of other kinds: query files, test mocks and policy
 * files. They are `hcl` here, but another extension may give them a language
 * of its own (HashiCorp's gives query files `terraform-search`; terraform-ls
 * `IsSearchFilename`), so they are selected by name too. */
export const HCL_PATTERNS = ["**/*.tfquery.hcl", "**/*.tfmock.hcl", "**/*.policy.hcl"] as const;
const SECTION = "hclTypes";
const INSTALL = "How to install";
const SETTINGS = "Open settings";

/**
 * The settings that choose what runs. Only the user's own settings give them
 * (they are machine-scoped, and read with `inspect().globalValue` besides), and
 * the server gets the terraform ones only in `initializationOptions`.
 */
export const USER_ONLY = ["server.path", "terraform.path", "terraform.runForSchemas", "terraform.pluginCache"] as const;

/** A language client that does not call a stop it asked for an error. */
class Client extends LanguageClient {
  stopping = false;

  override error(message: string, data?: unknown, showNotification: boolean | "force" = true): void {
    // vscode-languageclient logs every exit as an error, even after a shutdown it sent.
    if (this.stopping && message === "Server process exited with code 0.") {
      output.appendLine("[hcl-types] the server stopped");
      return;
    }
    super.error(message, data, showNotification);
  }
}

let client: Client | undefined;
/** What the running client was started with (binary, terraform settings, trust). */
let startedWith: string | undefined;
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
      if (!e.affectsConfiguration(SECTION)) return;
      // A change to what runs restarts the server (the terraform settings travel only
      // at start). A workspace value of those settings is no change: it is never read.
      if (USER_ONLY.some((k) => e.affectsConfiguration(`${SECTION}.${k}`)) && startKey() !== startedWith) {
        enqueue(restart);
      } else {
        enqueue(pushSettings);
      }
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => enqueue(restart)),
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

/**
 * The settings the server reads (lsp.md) that may change while it runs: dialects,
 * severity, inlay hints, code lens, the log level and the schema files. Never the terraform settings: see
 * `initializationOptions`.
 */
export function serverSettings(): { hclTypes: Record<string, unknown> } {
  const c = vscode.workspace.getConfiguration(SECTION);
  return {
    hclTypes: {
      dialects: c.get<Record<string, string>>("dialects", {}),
      severity: c.get<Record<string, string>>("severity", {}),
      inlayHints: { enable: c.get<boolean>("inlayHints.enable", true) },
      codeLens: { references: c.get<boolean>("codeLens.references", true) },
      logLevel: c.get<string>("logLevel", "info"),
      providerSchemas: schemaPaths(c.get<unknown>("providerSchemas", [])),
      packageSchemas: schemaPaths(c.get<unknown>("packageSchemas", [])),
    },
  };
}

/**
 * Schema files as the server wants them: absolute paths. `~` is expanded and a
 * relative path is taken from the first workspace folder (the server would read
 * it against its own working directory). The server only reads these files.
 */
export function schemaPaths(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const base = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const out: string[] = [];
  for (const v of value) {
    if (typeof v !== "string" || !v.trim()) continue;
    const p = v.trim().replace(/^~(?=$|[\\/])/, os.homedir());
    if (path.isAbsolute(p)) out.push(p);
    else if (base) out.push(path.join(base, p));
    else output.appendLine(`[hcl-types] schema file ${JSON.stringify(v)} is relative and there is no workspace folder: it is left out`);
  }
  return out;
}

/** A setting's value in the user's own settings (local or remote), never a workspace's. */
function userValue<T>(key: (typeof USER_ONLY)[number]): T | undefined {
  return vscode.workspace.getConfiguration(SECTION).inspect<T>(key)?.globalValue;
}

/** A user's path setting: trimmed, `~` expanded; `error` when it is not absolute then. */
function userPath(key: "server.path" | "terraform.path"): { configured: string; path?: string; error?: string } {
  const raw = userValue<unknown>(key);
  const configured = typeof raw === "string" ? raw.trim() : "";
  if (!configured) return { configured };
  const p = configured.replace(/^~(?=$|[\\/])/, os.homedir());
  if (!path.isAbsolute(p)) {
    return {
      configured,
      error: `${SECTION}.${key} must be an absolute path (\`~/\` may start it): "${configured}" is not, and it is never resolved against the workspace or expanded (no \${workspaceFolder})`,
    };
  }
  return { configured, path: p };
}

/**
 * The terraform settings the server gets at start (and only then): whether it may
 * run `terraform providers schema -json` for a module's provider schemas, and which
 * executable. Never in an untrusted workspace.
 */
export function terraformSettings(): { runForSchemas: boolean; path?: string; pluginCache?: boolean } {
  const tf = userPath("terraform.path");
  if (tf.error) output.appendLine(`[hcl-types] ${tf.error}; it is ignored`);
  const t: { runForSchemas: boolean; path?: string; pluginCache?: boolean } = {
    runForSchemas: userValue<unknown>("terraform.runForSchemas") === true && vscode.workspace.isTrusted,
  };
  if (tf.path) t.path = tf.path;
  // Only a `false` is sent: in a trusted workspace the server reads your plugin cache.
  if (userValue<unknown>("terraform.pluginCache") === false) t.pluginCache = false;
  return t;
}

/** What a start depends on; a change of it restarts the server. */
function startKey(): string {
  return JSON.stringify([
    userValue<unknown>("server.path"),
    userValue<unknown>("terraform.path"),
    userValue<unknown>("terraform.runForSchemas"),
    userValue<unknown>("terraform.pluginCache"),
    vscode.workspace.isTrusted,
  ]);
}

/**
 * Answers the server's `workspace/configuration` without the settings that choose
 * what runs: VS Code answers it from the merged settings, workspace ones included.
 */
export function withoutUserOnly(params: ConfigurationParams, result: unknown[]): unknown[] {
  const strip = (v: unknown): unknown => {
    if (!v || typeof v !== "object" || Array.isArray(v)) return v;
    const { terraform: _t, server: _s, workspaceTrusted: _w, ...rest } = v as Record<string, unknown>;
    return rest;
  };
  return result.map((v, i) => {
    const section = params.items[i]?.section ?? "";
    if (section === SECTION) return strip(v);
    if (section === "" && v && typeof v === "object" && SECTION in v) {
      return { ...(v as Record<string, unknown>), [SECTION]: strip((v as Record<string, unknown>)[SECTION]) };
    }
    if (/^hclTypes\.(terraform|server|workspaceTrusted)(\.|$)/.test(section)) return null;
    return v;
  });
}

/**
 * Where the binary is: the user's `hclTypes.server.path`, else the one bundled in a
 * platform-specific .vsix (`server/hcl-types`), else `hcl-types` on PATH.
 */
function findServer(): { path?: string; looked: string; error?: string } {
  const configured = userPath("server.path");
  if (configured.error) return { looked: `hclTypes.server.path = ${configured.configured}`, error: configured.error };
  if (configured.path) {
    const p = configured.path;
    return { path: isExecutable(p) ? p : undefined, looked: `hclTypes.server.path = ${configured.configured} (${p})` };
  }
  const names = process.platform === "win32" ? ["hcl-types.exe", "hcl-types"] : ["hcl-types"];
  const bundled = path.join(extensionUri.fsPath, "server", names[0]);
  if (fs.existsSync(bundled)) {
    // An unpacker that dropped the executable bit: put it back.
    if (!isExecutable(bundled) && process.platform !== "win32") {
      try {
        fs.chmodSync(bundled, 0o755);
      } catch {}
    }
    if (isExecutable(bundled)) return { path: bundled, looked: "the server bundled with the extension" };
  }
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (!dir) continue;
    for (const name of names) {
      const p = path.join(dir, name);
      if (isExecutable(p)) return { path: p, looked: "PATH" };
    }
  }
  return { looked: "`hcl-types` on PATH (hclTypes.server.path is not set, and this .vsix bundles no server)" };
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
  startedWith = startKey();
  const found = findServer();
  if (!found.path) {
    const msg = found.error
      ? `hcl-types: the language server did not start: ${found.error}.`
      : `hcl-types: the language server was not found: looked for ${found.looked}. Install it with \`cargo install --path .\` in the hcl-types repository, or set hclTypes.server.path.`;
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
    documentSelector: [
      ...LANGUAGES.map((language) => ({ scheme: "file", language })),
      ...JSON_PATTERNS.map((pattern) => ({ scheme: "file", pattern })),
      ...HCL_PATTERNS.map((pattern) => ({ scheme: "file", pattern })),
    ],
    initializationOptions: {
      hclTypes: {
        ...serverSettings().hclTypes,
        terraform: terraformSettings(),
        workspaceTrusted: vscode.workspace.isTrusted,
      },
    },
    middleware: {
      workspace: {
        configuration: async (params, token, next) => {
          const result = await next(params, token);
          return Array.isArray(result) ? withoutUserOnly(params, result) : result;
        },
      },
    },
    outputChannel: output,
    traceOutputChannel: output,
  };
  const c = new Client(SECTION, "hcl-types", serverOptions, clientOptions);
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
    c.stopping = true;
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
