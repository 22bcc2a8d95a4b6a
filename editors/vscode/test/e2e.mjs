// Drives code-server's real workbench in headless Chromium and checks what the
// hcl-types extension shows a person. Called by ./run, which sets:
//   CS_URL        http://127.0.0.1:PORT
//   WORKSPACE     the folder code-server opened (a copy of fixture/)
//   SETTINGS      the user settings.json (edited to test a settings change)
//   ARTIFACTS     where screenshots go
//   LOGS          code-server's log folder (the output channel is written there)
//   README_SHOT   where the README screenshot goes (optional)
//   MACHINE_SETTINGS  the user's machine-scoped settings (code-server's Machine/settings.json)
//   HOSTILE       a second workspace whose .vscode/settings.json names programs to run
//   MARKERS       where those programs record that they ran (must stay empty)
//   USER_TERRAFORM  a terraform the user's own settings name (may run)
//   SERVER_BIN    the hcl-types binary the user's settings name
//   EXTENSIONS    code-server's extensions folder (the installed package.json)
// Every check compares exact strings the server is known to produce; a failure
// names the step, what was expected and what the page showed.

import { chromium } from "playwright-core";
import fs from "node:fs";
import path from "node:path";

const env = (k) => {
  const v = process.env[k];
  if (!v) throw new Error(`${k} is not set`);
  return v;
};
const URL = env("CS_URL");
const WORKSPACE = env("WORKSPACE");
const SETTINGS = env("SETTINGS");
const ARTIFACTS = env("ARTIFACTS");
const LOGS = env("LOGS");
const README_SHOT = process.env.README_SHOT || "";
const MACHINE_SETTINGS = env("MACHINE_SETTINGS");
const HOSTILE = env("HOSTILE");
const MARKERS = env("MARKERS");
const USER_TERRAFORM = env("USER_TERRAFORM");
const SERVER_BIN = env("SERVER_BIN");
const EXTENSIONS = env("EXTENSIONS");
const TIMEOUT = Number(process.env.STEP_TIMEOUT_MS || 30000);

class Failure extends Error {}

/** The files of the extension's output channel, one a window, as VS Code logs it to disk. */
function outputChannelFiles() {
  const found = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/-hcl-types\.log$/.test(e.name)) found.push(p);
    }
  };
  try {
    walk(LOGS);
  } catch {}
  return found;
}

/** The text of the extension's output channel, of every window so far. */
function outputChannelLog() {
  return outputChannelFiles()
    .map((f) => fs.readFileSync(f, "utf8"))
    .join("\n");
}

/** The JSON value that starts at `text[start]` (an object or array), parsed. */
function jsonAt(text, start) {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === "{" || ch === "[") depth++;
    else if (ch === "}" || ch === "]") {
      depth--;
      if (depth === 0) return JSON.parse(text.slice(start, i + 1));
    }
  }
  return undefined;
}

/**
 * What the client sent or answered, from a verbose trace: each `Params:` of the
 * request or notification `method` it sent, or each `Result:` of its responses
 * to the server's request `method`.
 */
function traced(log, kind, method) {
  const head = {
    request: `Sending request '${method} - (`,
    notification: `Sending notification '${method}'.`,
    response: `Sending response '${method} - (`,
  }[kind];
  const label = kind === "response" ? "\nResult: " : "\nParams: ";
  const found = [];
  for (let i = log.indexOf(head); i >= 0; i = log.indexOf(head, i + 1)) {
    const at = log.indexOf(label, i);
    const next = log.indexOf("[Trace", i + 1);
    if (at < 0 || (next >= 0 && at > next)) continue;
    found.push(jsonAt(log, at + label.length));
  }
  return found;
}

/** Writes the user's machine-scoped settings (code-server's Machine/settings.json). */
function writeMachineSettings(settings) {
  fs.writeFileSync(MACHINE_SETTINGS, JSON.stringify(settings, null, 2) + "\n");
}

/** The programs of the hostile workspace that ran: one file each in MARKERS. */
function markersRan() {
  return fs.readdirSync(MARKERS).map((f) => `${f}: ${fs.readFileSync(path.join(MARKERS, f), "utf8").trim()}`);
}
const fail = (msg) => {
  throw new Failure(msg);
};

let page;
let shotNo = 0;
let passed = 0;
const results = [];

async function shot(name) {
  shotNo += 1;
  const file = path.join(ARTIFACTS, `${String(shotNo).padStart(2, "0")}-${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

async function step(name, fn) {
  const t0 = Date.now();
  process.stdout.write(`vscode-test: ${name} ... `);
  try {
    await fn();
    passed += 1;
    results.push([name, "ok"]);
    console.log(`ok (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  } catch (err) {
    console.log("FAILED");
    results.push([name, "FAILED"]);
    try {
      const f = await shot(`FAILED-${name.replace(/[^a-z0-9]+/gi, "-").toLowerCase()}`);
      console.error(`vscode-test: screenshot of the failure: ${f}`);
    } catch {}
    const why = err instanceof Failure ? err.message : `${err?.name ?? "Error"}: ${err?.message ?? err}`;
    throw new Failure(`step "${name}": ${why}`);
  }
}

/** Waits until `probe()` returns a truthy value; fails with `what()` after the timeout. */
async function until(probe, what, timeout = TIMEOUT) {
  const end = Date.now() + timeout;
  let last;
  while (Date.now() < end) {
    last = await probe().catch((e) => {
      last = e;
      return undefined;
    });
    if (last) return last;
    await page.waitForTimeout(200);
  }
  fail(`${await what()} (within ${timeout / 1000} s)`);
}

const visibleText = async (selector) =>
  page.evaluate((sel) => {
    return [...document.querySelectorAll(sel)]
      .filter((e) => e.offsetParent !== null || getComputedStyle(e).position === "fixed")
      .map((e) => e.innerText);
  }, selector);

async function openFile(relPath) {
  const base = path.basename(relPath);
  await page.keyboard.press("Escape");
  await page.keyboard.press("Control+P");
  await page.locator(".quick-input-widget input").waitFor({ state: "visible", timeout: TIMEOUT });
  await page.keyboard.type(relPath);
  const dir = path.dirname(relPath);
  await until(
    async () => {
      const rows = await visibleText(".quick-input-list .monaco-list-row");
      return rows.length > 0 && rows[0].includes(base) && (dir === "." || rows[0].includes(dir));
    },
    async () => `quick open shows no row for ${relPath}: ${JSON.stringify(await visibleText(".quick-input-list .monaco-list-row"))}`,
  );
  await page.keyboard.press("Enter");
  await until(
    async () => {
      const tab = await visibleText(".tabs-container .tab.active");
      return tab.length > 0 && tab[0].includes(base);
    },
    async () => `the editor tab for ${relPath} did not open; active tabs: ${JSON.stringify(await visibleText(".tabs-container .tab.active"))}`,
  );
  await page.locator(".editor-group-container.active .monaco-editor textarea").first().focus();
}

async function gotoLine(line, col) {
  await page.keyboard.press("Escape");
  await page.keyboard.press("Control+G");
  await page.locator(".quick-input-widget input").waitFor({ state: "visible", timeout: TIMEOUT });
  await page.keyboard.type(`${line}:${col}`);
  await page.keyboard.press("Enter");
  await until(
    async () => {
      const s = await visibleText(".statusbar-item[id='status.editor.selection']");
      return s.some((t) => t.includes(`Ln ${line}, Col ${col}`));
    },
    async () => `the cursor did not reach ${line}:${col}; status bar says ${JSON.stringify(await visibleText(".statusbar-item[id='status.editor.selection']"))}`,
  );
}

/** Ctrl+K Ctrl+I at the cursor; returns the visible hover's text once it contains every `want`. */
async function hover(wants) {
  await page.keyboard.press("Escape");
  await page.keyboard.press("Control+K");
  await page.keyboard.press("Control+I");
  return until(
    async () => {
      const texts = await visibleText(".monaco-hover");
      const t = texts.join("\n");
      return texts.length > 0 && wants.every((w) => t.includes(w)) ? t : undefined;
    },
    async () =>
      `the hover does not show ${wants.map((w) => JSON.stringify(w)).join(" and ")}; visible hovers: ${JSON.stringify(await visibleText(".monaco-hover"))}`,
  );
}

/** The first fenced block of the LSP hover, as rendered: the type on its own line. */
async function hoverType() {
  return page.evaluate(() => {
    const hovers = [...document.querySelectorAll(".monaco-hover")].filter((e) => e.offsetParent !== null);
    for (const h of hovers) {
      const code = h.querySelector(".rendered-markdown .monaco-tokenized-source, .rendered-markdown pre");
      if (code) return code.innerText.trim();
    }
    return null;
  });
}

/** Runs a command by its title from the command palette (F1). */
async function runCommand(title) {
  await page.keyboard.press("Escape");
  await page.keyboard.press("F1");
  await page.locator(".quick-input-widget input").waitFor({ state: "visible", timeout: TIMEOUT });
  await page.keyboard.type(title);
  await until(
    async () => {
      const rows = await visibleText(".quick-input-list .monaco-list-row");
      return rows.length > 0 && rows[0].includes(title);
    },
    async () => `the command palette's first row is not "${title}": ${JSON.stringify(await visibleText(".quick-input-list .monaco-list-row"))}`,
  );
  await page.keyboard.press("Enter");
}

/** The active editor's visible lines, as text (Monaco renders spaces as U+00A0). */
async function editorLines() {
  return (await visibleText(".editor-group-container.active .view-line")).map((l) => l.replace(/\u00a0/g, " "));
}

async function squiggles(kind) {
  return page.locator(`.editor-group-container.active .monaco-editor .squiggly-${kind}`).count();
}

async function waitSquiggle(kind, file) {
  await until(
    async () => (await squiggles(kind)) > 0,
    async () =>
      `no .squiggly-${kind} appeared in ${file}: the server published no such diagnostic (squiggles present: error=${await squiggles("error")}, warning=${await squiggles("warning")}, info=${await squiggles("info")})`,
  );
}

async function main() {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    const consoleErrors = [];
    page.on("console", (m) => {
      if (m.type() === "error") consoleErrors.push(m.text());
    });

    await step("workbench loads", async () => {
      await page.goto(`${URL}/?folder=${encodeURIComponent(WORKSPACE)}`, { timeout: TIMEOUT });
      await page.locator(".monaco-workbench").waitFor({ state: "visible", timeout: TIMEOUT });
      await until(
        async () => (await visibleText(".explorer-folders-view .monaco-list-row")).some((t) => t.includes("variables.tf")),
        async () => "the explorer does not list the fixture's variables.tf",
      );
      await shot("workbench");
    });

    await step("(a) invalid default squiggled in variables.tf", async () => {
      await openFile("variables.tf");
      await waitSquiggle("error", "variables.tf");
      await gotoLine(5, 13);
      const t = await hover([
        'invalid value for `bool`: "maybe" is not a bool: only "true", "false", "1" and "0" convert',
      ]);
      if (!t.includes("hcl-types")) fail(`the diagnostic's source is not hcl-types: ${JSON.stringify(t)}`);
      await shot("variables-invalid-default");
    });

    /** The server inside the installed extension, which runs while the user names none. */
    let bundledBin;
    await step("the server that runs is the one bundled in the .vsix", async () => {
      const log = await until(
        async () => {
          const t = outputChannelLog();
          return t.includes("[hcl-types] running hcl-types") ? t : undefined;
        },
        async () => `the output channel does not say the server runs: ${JSON.stringify(outputChannelLog().split("\n").filter((l) => l.startsWith("[hcl-types]")))}`,
      );
      const started = log.split("\n").find((l) => l.startsWith("[hcl-types] starting "));
      const bin = started?.slice("[hcl-types] starting ".length).replace(/ lsp$/, "");
      if (!bin || !bin.startsWith(EXTENSIONS + path.sep) || !bin.endsWith(`${path.sep}server${path.sep}hcl-types`)) {
        fail(`the first server started is ${JSON.stringify(bin)}, not server/hcl-types inside ${EXTENSIONS}`);
      }
      bundledBin = bin;
    });

    await step("language mode terraform for .tf", async () => {
      const mode = await visibleText(".statusbar-item[id='status.editor.mode']");
      if (!mode.some((m) => m.trim() === "Terraform")) fail(`the status bar language is ${JSON.stringify(mode)}, expected "Terraform"`);
    });

    await step("(b) hover on a Terraform conditional shows the unified type", async () => {
      await openFile("main.tf");
      await gotoLine(3, 23); // on the `?` of var.enabled ? var.port : "disabled"
      const t = await hover(["A conditional: number and string unify to string."]);
      const ty = await hoverType();
      if (ty !== "string") fail(`the hover's type block is ${JSON.stringify(ty)}, expected "string"; hover: ${JSON.stringify(t)}`);
      await shot("main-tf-conditional-hover");
    });

    await step("(b) hover on an eventual conditional shows output(string), next to a squiggle", async () => {
      await openFile("eventual/main.hcl");
      await waitSquiggle("error", "eventual/main.hcl");
      await gotoLine(11, 25); // on the `?` of replicas > 1 ? siteUrl : fallbackUrl
      const t = await hover(["A conditional: output(string) and promise(string) unify to output(string)."]);
      const ty = await hoverType();
      if (ty !== "output(string)") fail(`the hover's type block is ${JSON.stringify(ty)}, expected "output(string)"; hover: ${JSON.stringify(t)}`);
      // The int config's 2.5 stays squiggled while the hover is up.
      if ((await squiggles("error")) < 1) fail("the squiggle of `default = 2.5` disappeared");
      const f = await shot("eventual-hcl-hover");
      if (README_SHOT) {
        await page.screenshot({ path: README_SHOT, clip: { x: 0, y: 0, width: 1280, height: 340 } });
        console.log(`\nvscode-test: README screenshot ${README_SHOT} (from ${path.basename(f)})`);
      }
    });

    await step("(c) typing list( after type = offers the type constructors", async () => {
      await openFile("variables.tf");
      await gotoLine(14, 13); // `list(number)` of variable "ports"
      await page.keyboard.press("Escape");
      await page.keyboard.press("Shift+End");
      await page.keyboard.type("list(");
      const want = ["any", "bool", "list", "map", "number", "object", "set", "string", "tuple"];
      const labels = await until(
        async () => {
          const l = await visibleText(".suggest-widget.visible .monaco-list-row .label-name");
          const got = l.map((s) => s.trim()).sort();
          return JSON.stringify(got) === JSON.stringify(want) ? got : undefined;
        },
        async () =>
          `the suggest widget does not offer exactly ${JSON.stringify(want)}; it shows ${JSON.stringify(await visibleText(".suggest-widget.visible .monaco-list-row .label-name"))}`,
      );
      const line = await visibleText(".editor-group-container.active .view-line");
      if (!line.some((l) => l.replace(/\u00a0/g, " ").includes("type    = list()"))) {
        fail(`the line does not read \`type    = list()\`: ${JSON.stringify(line)}`);
      }
      await shot("variables-type-completion");
      console.log(`\nvscode-test: suggested ${labels.join(", ")}`);
      await page.keyboard.press("Escape");
    });

    await step("terraform-vars and pcl files get diagnostics too", async () => {
      await openFile("terraform.tfvars");
      await waitSquiggle("warning", "terraform.tfvars");
      await gotoLine(2, 1);
      await hover(["`regoin` is not a variable of this module; Terraform ignores it with a warning"]);
      await openFile("pulumi/main.pp");
      await waitSquiggle("error", "pulumi/main.pp");
      await gotoLine(18, 11);
      await hover(["a `tuple([int])` value cannot be used where `string` is expected"]);
      await shot("pcl-type-mismatch");
    });

    await step("files HashiCorp's and OpenTofu's extensions give languages of their own are checked under those IDs", async () => {
      // test/peer-languages stands in for those extensions (their package.json's language IDs).
      const cases = [
        ["peers/tests/defaults.tftest.hcl", "Terraform Test", 3, 16, "invalid value for `number`"],
        ["peers/stack/components.tfcomponent.hcl", "Terraform Stack", 3, 13, "invalid value for `set(string)`: \"eu-west-1\" is not a list"],
        ["peers/stack/main.tfdeploy.hcl", "Terraform Deployment", 3, 15, "invalid value for `set(string)`: 42 is not a list"],
      ];
      for (const [file, language, line, col, wants] of cases) {
        await openFile(file);
        await until(
          async () => (await visibleText(".statusbar-item[id='status.editor.mode']")).some((m) => m.trim() === language),
          async () => `${file}: the status bar language is ${JSON.stringify(await visibleText(".statusbar-item[id='status.editor.mode']"))}, expected ${language}`,
        );
        await waitSquiggle("error", file);
        await gotoLine(line, col);
        await hover([wants]);
      }
      await shot("peer-language-ids");
    });

    await step("a closed caller's problem shows in Problems and goes when the called module is fixed", async () => {
      // Pull diagnostics: only calls/net/main.tf is open; its caller
      // calls/main.tf, never opened, is reported by workspace/diagnostic.
      await openFile("calls/net/main.tf");
      await page.keyboard.press("Control+Shift+M");
      const problem = '"big" is not a number';
      const rows = () => visibleText(".markers-panel .monaco-list-row");
      await until(
        async () => (await rows()).some((r) => r.includes(problem)),
        async () => `the Problems panel does not show the closed caller's ${JSON.stringify(problem)}: ${JSON.stringify(await rows())}`,
      );
      await shot("problems-closed-caller");
      await openFile("calls/net/main.tf");
      await gotoLine(2, 13); // `number` of `type    = number`
      await page.keyboard.press("Shift+End");
      await page.keyboard.type("string");
      await until(
        async () => !(await rows()).some((r) => r.includes(problem)),
        async () => `after mtu became a string the Problems panel still shows ${JSON.stringify(problem)}: ${JSON.stringify(await rows())}`,
      );
      await page.keyboard.press("Control+Z");
      await page.keyboard.press("Control+Shift+M");
    });

    // Issue 32: the editor needs no second language server to format or rename.
    await step("Format Document aligns a file as terraform fmt does", async () => {
      await openFile("format/main.tf");
      await runCommand("Format Document");
      const want = 'variable "zone" {\n  type    = string\n  default = "a"\n}\n';
      await until(
        async () => (await editorLines()).includes("  type    = string"),
        async () => `the editor does not show the aligned \`type    = string\`: ${JSON.stringify(await editorLines())}`,
      );
      await page.keyboard.press("Control+S");
      const file = path.join(WORKSPACE, "format", "main.tf");
      await until(
        async () => fs.readFileSync(file, "utf8") === want,
        async () => `format/main.tf on disk is ${JSON.stringify(fs.readFileSync(file, "utf8"))}, expected ${JSON.stringify(want)}`,
      );
      await shot("format-document");
    });

    await step("Rename Symbol on a module variable edits its uses and the closed caller's argument", async () => {
      await openFile("calls/net/main.tf");
      await gotoLine(1, 12); // in `mtu` of variable "mtu"
      await page.keyboard.press("Escape");
      await page.keyboard.press("F2");
      const input = page.locator(".rename-box input");
      await input.waitFor({ state: "visible", timeout: TIMEOUT });
      await input.fill("frame");
      await page.keyboard.press("Enter");
      // The caller calls/main.tf is not open: VS Code applies the edit to it in
      // the background (dirty); Save All writes both.
      const callee = path.join(WORKSPACE, "calls", "net", "main.tf");
      const caller = path.join(WORKSPACE, "calls", "main.tf");
      const wantCallee = 'variable "frame" {\n  type    = number\n  default = 1460\n}\n';
      const wantCaller = 'module "net" {\n  source = "./net"\n  frame    = "big"\n}\n';
      await until(
        async () => (await editorLines()).includes('variable "frame" {'),
        async () => `the editor does not show the renamed variable: ${JSON.stringify(await editorLines())}`,
      );
      await runCommand("File: Save All Files");
      await until(
        async () => fs.readFileSync(callee, "utf8") === wantCallee && fs.readFileSync(caller, "utf8") === wantCaller,
        async () =>
          `after the rename and Save All, calls/net/main.tf is ${JSON.stringify(fs.readFileSync(callee, "utf8"))} and calls/main.tf ${JSON.stringify(fs.readFileSync(caller, "utf8"))}`,
      );
      await shot("rename-variable");
    });

    await step("a settings change reaches the server (invalid-value: warning)", async () => {
      // As a person would: edit the user settings.json in the editor and save it.
      await runCommand("Preferences: Open User Settings (JSON)");
      await until(
        async () => (await visibleText(".tabs-container .tab.active")).some((t) => t.includes("settings.json")),
        async () => `the user settings.json did not open; active tab: ${JSON.stringify(await visibleText(".tabs-container .tab.active"))}`,
      );
      await page.locator(".editor-group-container.active .monaco-editor textarea").first().focus();
      await gotoLine(2, 1);
      await page.keyboard.insertText('  "hclTypes.severity": { "invalid-value": "warning" },\n');
      await page.keyboard.press("Control+S");
      await until(
        async () => {
          const s = JSON.parse(fs.readFileSync(SETTINGS, "utf8"));
          return s["hclTypes.severity"]?.["invalid-value"] === "warning";
        },
        async () => `settings.json on disk does not hold the new severity: ${fs.readFileSync(SETTINGS, "utf8")}`,
      );
      await openFile("eventual/main.hcl");
      await until(
        async () => (await squiggles("error")) === 0 && (await squiggles("warning")) > 0,
        async () =>
          `after hclTypes.severity = {"invalid-value": "warning"} the 2.5 is not a warning: error=${await squiggles("error")}, warning=${await squiggles("warning")}`,
      );
      await gotoLine(4, 13);
      await hover(["invalid value for `int`: 2.5 is not a whole number, so it cannot be an int"]);
      await shot("severity-setting-warning");
    });

    await step("hclTypes.providerSchemas, relative to the workspace, types a resource (and its removal untypes it)", async () => {
      // As a person would: a line added to the user settings.json in the editor, and saved.
      const editUserSettings = async (edit, check, what) => {
        await runCommand("Preferences: Open User Settings (JSON)");
        await until(
          async () => (await visibleText(".tabs-container .tab.active")).some((t) => t.includes("settings.json")),
          async () => `the user settings.json did not open; active tab: ${JSON.stringify(await visibleText(".tabs-container .tab.active"))}`,
        );
        await page.locator(".editor-group-container.active .monaco-editor textarea").first().focus();
        await gotoLine(2, 1);
        await edit();
        await page.keyboard.press("Control+S");
        await until(
          async () => check(JSON.parse(fs.readFileSync(SETTINGS, "utf8"))),
          async () => `settings.json on disk does not ${what}: ${fs.readFileSync(SETTINGS, "utf8")}`,
        );
      };
      // Without a schema local_file is `any`: filename = ["notes.txt"] is no error.
      await openFile("schemas/main.tf");
      await page.waitForTimeout(1500);
      if ((await squiggles("error")) !== 0) fail(`schemas/main.tf has an error before any schema is set: ${await squiggles("error")} squiggles`);
      await editUserSettings(
        () => page.keyboard.insertText('  "hclTypes.providerSchemas": ["schemas/local-file-test.json"],\n'),
        (s) => s["hclTypes.providerSchemas"]?.[0] === "schemas/local-file-test.json",
        "hold hclTypes.providerSchemas",
      );
      await openFile("schemas/main.tf");
      await waitSquiggle("error", "schemas/main.tf once hclTypes.providerSchemas names local-file-test.json");
      await gotoLine(13, 14);
      await hover(["cannot be used where `string` is expected"]);
      await shot("provider-schemas-setting");
      await editUserSettings(
        () => page.keyboard.press("Control+Shift+K"), // delete the line
        (s) => !("hclTypes.providerSchemas" in s),
        "lose hclTypes.providerSchemas",
      );
      await openFile("schemas/main.tf");
      await until(
        async () => (await squiggles("error")) === 0,
        async () => `the error in schemas/main.tf stayed after hclTypes.providerSchemas was removed (${await squiggles("error")} squiggles)`,
      );
      // The next step restarts the server with eventual/main.hcl in front, as the one before left it.
      await openFile("eventual/main.hcl");
    });

    await step("hcl-types: Restart server brings diagnostics back", async () => {
      await runCommand("hcl-types: Restart server");
      // Stopping clears the diagnostics; the new server publishes them again.
      await until(
        async () => (await squiggles("warning")) > 0 && (await squiggles("error")) === 0,
        async () => `after the restart the 2.5 is not a warning: error=${await squiggles("error")}, warning=${await squiggles("warning")}`,
      );
      const log = await until(
        async () => {
          const t = outputChannelLog();
          const i = t.indexOf("[hcl-types] restarting the server");
          return i >= 0 && t.indexOf("[hcl-types] running hcl-types", i) > i ? t : undefined;
        },
        async () => `the output channel does not show the restart: ${JSON.stringify(outputChannelLog().split("\n").filter((l) => l.startsWith("[hcl-types]")))}`,
      );
      await gotoLine(11, 25);
      await hover(["A conditional: output(string) and promise(string) unify to output(string)."]);
      await shot("after-restart");
      console.log(`\nvscode-test: output channel: ${log.split("\n").filter((l) => l.startsWith("[hcl-types]")).join(" | ")}`);
    });

    // A second folder, as a cloned repository could be: its .vscode/settings.json
    // names a server binary, a terraform executable and runForSchemas, and its
    // module was prepared by `terraform init` (a lock file and a provider binary).
    let hostileLog;
    const noTerraformSent = (log, what) => {
      for (const r of traced(log, "response", "workspace/configuration")) {
        for (const v of r ?? []) {
          if (v && typeof v === "object" && ("terraform" in v || "workspaceTrusted" in v)) {
            fail(`${what}: the answer to the server's workspace/configuration carries ${JSON.stringify(v)}`);
          }
        }
      }
      for (const p of traced(log, "notification", "workspace/didChangeConfiguration")) {
        if (p?.settings?.hclTypes && "terraform" in p.settings.hclTypes) {
          fail(`${what}: workspace/didChangeConfiguration carries ${JSON.stringify(p.settings.hclTypes.terraform)}`);
        }
      }
    };
    const initOptions = (log, what) => {
      const inits = traced(log, "request", "initialize");
      if (inits.length !== 1) fail(`${what}: expected one traced initialize request, found ${inits.length}`);
      return inits[0]?.initializationOptions?.hclTypes;
    };

    await step("opening a folder whose settings name programs runs none of them", async () => {
      const before = new Set(outputChannelFiles());
      await page.goto(`${URL}/?folder=${encodeURIComponent(HOSTILE)}`, { timeout: TIMEOUT });
      await page.locator(".monaco-workbench").waitFor({ state: "visible", timeout: TIMEOUT });
      await until(
        async () => (await visibleText(".explorer-folders-view .monaco-list-row")).some((t) => t.includes("main.tf")),
        async () => "the explorer does not list the second workspace's main.tf",
      );
      // The extension still works there: the invalid default is squiggled (as a
      // warning: the user's hclTypes.severity from the settings step applies).
      await openFile("main.tf");
      await waitSquiggle("warning", "main.tf of the second workspace");
      await gotoLine(3, 13);
      await hover(['invalid value for `bool`: "maybe" is not a bool: only "true", "false", "1" and "0" convert']);
      hostileLog = await until(
        async () =>
          outputChannelFiles().find((f) => !before.has(f) && fs.readFileSync(f, "utf8").includes("[hcl-types] running hcl-types")),
        async () => `the second window's output channel does not show a running server: ${JSON.stringify(outputChannelFiles())}`,
      );
      // A background run of terraform starts when the module is first analysed,
      // before its diagnostics are published; give a marker time to write.
      await page.waitForTimeout(3000);
      const ran = markersRan();
      if (ran.length) fail(`programs named by the workspace ran: ${JSON.stringify(ran)}`);
      const log = fs.readFileSync(hostileLog, "utf8");
      const started = log.split("\n").filter((l) => l.startsWith("[hcl-types] starting "));
      // The user's settings name no server: the bundled one runs, never the workspace's.
      if (JSON.stringify(started) !== JSON.stringify([`[hcl-types] starting ${bundledBin} lsp`])) {
        fail(`the server started is not the bundled ${bundledBin}: ${JSON.stringify(started)}`);
      }
      const opts = initOptions(log, "in the second workspace");
      if (JSON.stringify(opts?.terraform) !== JSON.stringify({ runForSchemas: false }) || opts?.workspaceTrusted !== true) {
        fail(`initializationOptions are not {terraform: {runForSchemas: false}, workspaceTrusted: true}: ${JSON.stringify(opts)}`);
      }
      noTerraformSent(log, "in the second workspace");
      const leaked = log.split("\n").filter((l) => l.includes(".evil"));
      if (leaked.length) fail(`a path from the workspace's settings reached the server: ${JSON.stringify(leaked.slice(0, 5))}`);
      await shot("hostile-workspace");
    });

    await step("the user's own terraform settings reach the server at start, and a deliberate restart is quiet", async () => {
      const from = fs.readFileSync(hostileLog, "utf8").length;
      const since = () => fs.readFileSync(hostileLog, "utf8").slice(from);
      writeMachineSettings({
        "hclTypes.server.path": SERVER_BIN,
        "hclTypes.terraform.path": USER_TERRAFORM,
        "hclTypes.terraform.runForSchemas": true,
      });
      const log = await until(
        async () => {
          const t = since();
          return t.includes("[hcl-types] restarting the server") && t.includes("[hcl-types] running hcl-types") ? t : undefined;
        },
        async () => `the server did not restart after the user's terraform settings changed: ${JSON.stringify(since().split("\n").filter((l) => l.startsWith("[hcl-types]")))}`,
      );
      const opts = initOptions(log, "after the user's settings changed");
      const want = { runForSchemas: true, path: USER_TERRAFORM };
      if (JSON.stringify(opts?.terraform) !== JSON.stringify(want) || opts?.workspaceTrusted !== true) {
        fail(`initializationOptions are not {terraform: ${JSON.stringify(want)}, workspaceTrusted: true}: ${JSON.stringify(opts)}`);
      }
      await waitSquiggle("warning", "main.tf of the second workspace, after the restart");
      // Back to the start's settings: one more restart, with nothing to run.
      writeMachineSettings({ "hclTypes.server.path": SERVER_BIN });
      const log2 = await until(
        async () => {
          const t = since();
          return t.split("[hcl-types] running hcl-types").length > 2 ? t : undefined;
        },
        async () => `the server did not restart after the user's terraform settings were removed: ${JSON.stringify(since().split("\n").filter((l) => l.startsWith("[hcl-types]")))}`,
      );
      const opts2 = traced(log2, "request", "initialize")[1]?.initializationOptions?.hclTypes;
      if (JSON.stringify(opts2?.terraform) !== JSON.stringify({ runForSchemas: false })) {
        fail(`after the user's terraform settings went, initializationOptions.hclTypes.terraform is ${JSON.stringify(opts2?.terraform)}`);
      }
      noTerraformSent(log2, "with the user's terraform settings");
      await waitSquiggle("warning", "main.tf of the second workspace, after the second restart");
      await page.waitForTimeout(1000);
      const noisy = since().split("\n").filter((l) => /Server process exited/.test(l));
      if (noisy.length) fail(`a deliberate restart is logged as ${JSON.stringify(noisy)}`);
      if (!since().includes("[hcl-types] the server stopped")) fail("the output channel does not say the server stopped");
      const ran = markersRan();
      if (ran.length) fail(`programs named by the workspace ran: ${JSON.stringify(ran)}`);
    });

    await step("a missing server is reported with install help", async () => {
      // hclTypes.server.path is machine-scoped: only the user's settings set it.
      writeMachineSettings({ "hclTypes.server.path": "/nonexistent/hcl-types" });
      const want =
        "hcl-types: the language server was not found: looked for hclTypes.server.path = /nonexistent/hcl-types (/nonexistent/hcl-types). Install it with `cargo install --path .` in the hcl-types repository, or set hclTypes.server.path.";
      await until(
        async () => (await visibleText(".notifications-toasts .notification-toast")).some((t) => t.includes(want)),
        async () => `no notification says ${JSON.stringify(want)}; notifications: ${JSON.stringify(await visibleText(".notifications-toasts .notification-toast"))}`,
      );
      const buttons = (await visibleText(".notifications-toasts .notification-toast .monaco-button")).map((b) => b.trim());
      for (const b of ["How to install", "Open settings"]) {
        if (!buttons.includes(b)) fail(`the notification has no "${b}" button: ${JSON.stringify(buttons)}`);
      }
      await shot("missing-server-notification");
      await page.locator(".notifications-toasts .notification-toast .monaco-button", { hasText: "How to install" }).first().click();
      await until(
        async () => {
          const tab = await visibleText(".tabs-container .tab.active");
          return tab.some((t) => /Preview readme\.md/i.test(t));
        },
        async () => `"How to install" did not open the README preview; active tab: ${JSON.stringify(await visibleText(".tabs-container .tab.active"))}`,
      );
      await until(
        async () => {
          for (const f of page.frames()) {
            const t = await f.evaluate(() => document.body?.innerText ?? "").catch(() => "");
            if (t.includes("hcl-types for VS Code") && t.includes("npm run package")) return true;
          }
          return false;
        },
        async () => "the README preview does not show the extension's README (its title and install steps)",
      );
      await shot("missing-server-readme");
    });

    await step("a relative server path is refused, not resolved against the workspace", async () => {
      writeMachineSettings({ "hclTypes.server.path": ".evil/hcl-types" });
      const want =
        'hcl-types: the language server did not start: hclTypes.server.path must be an absolute path (`~/` may start it): ".evil/hcl-types" is not';
      await until(
        async () => (await visibleText(".notifications-toasts .notification-toast")).some((t) => t.includes(want)),
        async () => `no notification says ${JSON.stringify(want)}; notifications: ${JSON.stringify(await visibleText(".notifications-toasts .notification-toast"))}`,
      );
      await shot("relative-server-path");
      const ran = markersRan();
      if (ran.length) fail(`programs named by the workspace ran: ${JSON.stringify(ran)}`);
      // The user's path again: the server comes back.
      const from = fs.readFileSync(hostileLog, "utf8").length;
      writeMachineSettings({ "hclTypes.server.path": SERVER_BIN });
      await until(
        async () => fs.readFileSync(hostileLog, "utf8").slice(from).includes("[hcl-types] running hcl-types"),
        async () => "the server did not start again after hclTypes.server.path was restored",
      );
    });

    await step("package.json: every server setting is contributed; what runs is machine-scoped and restricted in untrusted workspaces", async () => {
      // The manifest code-server installed (from the .vsix), not the source.
      const dir = fs.readdirSync(EXTENSIONS).find((d) => d.startsWith("hcl-types.hcl-types-"));
      if (!dir) fail(`no hcl-types extension in ${EXTENSIONS}`);
      const pkg = JSON.parse(fs.readFileSync(path.join(EXTENSIONS, dir, "package.json"), "utf8"));
      const keys = ["hclTypes.server.path", "hclTypes.terraform.path", "hclTypes.terraform.pluginCache", "hclTypes.terraform.runForSchemas"];
      const u = pkg.capabilities?.untrustedWorkspaces;
      if (u?.supported !== "limited" || !u.description) {
        fail(`capabilities.untrustedWorkspaces is not {supported: "limited", description: …}: ${JSON.stringify(u)}`);
      }
      if (JSON.stringify([...(u.restrictedConfigurations ?? [])].sort()) !== JSON.stringify(keys)) {
        fail(`restrictedConfigurations are ${JSON.stringify(u.restrictedConfigurations)}, expected ${JSON.stringify(keys)}`);
      }
      const props = pkg.contributes?.configuration?.properties ?? {};
      for (const k of keys) {
        if (props[k]?.scope !== "machine") fail(`${k} has scope ${JSON.stringify(props[k]?.scope)}, expected "machine"`);
      }
      const run = props["hclTypes.terraform.runForSchemas"];
      if (run.type !== "boolean" || run.default !== false) fail(`hclTypes.terraform.runForSchemas is ${JSON.stringify(run)}`);
      for (const w of ["terraform providers schema -json", ".terraform/providers", "trusted"]) {
        if (!run.markdownDescription?.includes(w)) fail(`hclTypes.terraform.runForSchemas' description does not say ${JSON.stringify(w)}`);
      }
      if (props["hclTypes.terraform.path"]?.type !== "string") fail(`hclTypes.terraform.path is ${JSON.stringify(props["hclTypes.terraform.path"])}`);
      // Every server setting the README lists (its "Settings" JSON, docs/spec/lsp.md),
      // and the extension's own, is a setting of the extension.
      const every = [
        "server.path", "trace.server", "logLevel", "codeLens.references", "diagnostics.workspace", "dialects", "severity", "inlayHints.enable",
        "providerSchemas", "packageSchemas", "terraform.runForSchemas", "terraform.path", "terraform.pluginCache",
      ].map((k) => `hclTypes.${k}`);
      const missing = every.filter((k) => !props[k]);
      if (missing.length) fail(`package.json contributes no ${JSON.stringify(missing)}`);
      for (const k of ["hclTypes.providerSchemas", "hclTypes.packageSchemas"]) {
        if (props[k].type !== "array" || props[k].items?.type !== "string") fail(`${k} is ${JSON.stringify(props[k])}`);
      }
    });

    const expected = ["/nonexistent/", 'hclTypes.server.path must be an absolute path (`~/` may start it): ".evil/hcl-types"'];
    const bad = consoleErrors.filter((e) => /hcl-types|hclTypes/i.test(e) && !expected.some((x) => e.includes(x)));
    if (bad.length) console.log(`vscode-test: browser console errors naming hcl-types:\n  ${bad.join("\n  ")}`);
  } finally {
    await browser.close();
  }
}

main().then(
  () => {
    console.log(`vscode-test: ${passed} passed, 0 failed`);
  },
  (err) => {
    console.error(`vscode-test: FAIL: ${err instanceof Failure ? err.message : err?.stack ?? err}`);
    console.log(`vscode-test: ${passed} passed, 1 failed`);
    process.exit(1);
  },
);
