// Packages the extension with the hcl-types server inside, for the platform it is
// built on (a platform-specific .vsix, as rust-analyzer's is):
//
//   HCL_TYPES_BIN=/path/to/hcl-types npm run package:bundled
//
// HCL_TYPES_BIN defaults to target/release/hcl-types in cargo's target directory
// (CARGO_TARGET_DIR honoured, through ../../scripts/target-dir). The binary is copied
// to server/hcl-types (server/hcl-types.exe on Windows), stripped of its symbols when
// `strip` is there, and `vsce package --target <platform>` writes hcl-types.vsix. The
// extension runs that binary unless hclTypes.server.path names another; without a
// bundled one (npm run package), it looks for hcl-types on PATH.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "../..");
const die = (msg) => {
  console.error(`bundle-server: ${msg}`);
  process.exit(1);
};

// VS Code's platform names (`vsce package --target`).
const arch = { x64: "x64", arm64: "arm64", arm: "armhf" }[process.arch];
const os = { linux: "linux", darwin: "darwin", win32: "win32" }[process.platform];
if (!arch || !os) die(`no VS Code target for ${process.platform}-${process.arch}`);
const musl = os === "linux" && !process.report?.getReport()?.header?.glibcVersionRuntime;
const target = `${musl ? "alpine" : os}-${arch}`;

let bin = process.env.HCL_TYPES_BIN;
if (!bin) {
  let dir = path.join(repo, "target");
  try {
    dir = execFileSync(path.join(repo, "scripts", "target-dir"), { encoding: "utf8" }).trim() || dir;
  } catch {}
  bin = path.join(dir, "release", process.platform === "win32" ? "hcl-types.exe" : "hcl-types");
}
bin = path.resolve(bin);
if (!fs.existsSync(bin)) die(`no server binary at ${bin}: build it with \`cargo build --release\` or set HCL_TYPES_BIN`);

const serverDir = path.join(here, "server");
fs.rmSync(serverDir, { recursive: true, force: true });
fs.mkdirSync(serverDir);
const dest = path.join(serverDir, process.platform === "win32" ? "hcl-types.exe" : "hcl-types");
let stripped = false;
if (process.platform !== "win32") {
  try {
    execFileSync("strip", ["-o", dest, bin], { stdio: "ignore" });
    stripped = true;
  } catch {}
}
if (!stripped) fs.copyFileSync(bin, dest);
fs.chmodSync(dest, 0o755);
const version = execFileSync(dest, ["--version"], { encoding: "utf8" }).trim();
console.log(`bundle-server: ${version} from ${bin} (${(fs.statSync(dest).size / 1048576).toFixed(1)} MiB${stripped ? ", stripped" : ""}), target ${target}`);

const vsce = path.join(here, "node_modules", ".bin", process.platform === "win32" ? "vsce.cmd" : "vsce");
try {
  execFileSync(vsce, ["package", "--no-dependencies", "--allow-missing-repository", "--target", target, "-o", "hcl-types.vsix"], {
    cwd: here,
    stdio: "inherit",
  });
} finally {
  fs.rmSync(serverDir, { recursive: true, force: true });
}
