// npm run build:binaries [-- --targets=linux-x64,win-x64]
// Standalone signalint-mcp executables: @yao-pkg/pkg in SEA mode embeds dist/signalint-mcp.cjs into pinned Node
// binaries taken from the npm registry. pkg's own base-binary download is never used: its cache is seeded with
// archives made from our checksum-verified binaries, so the build needs no network beyond the npm registry.
// See docs/distribution.md.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "..");
const PINNED = JSON.parse(readFileSync(join(ROOT, "build", "node-binaries.json"), "utf8"));
const CACHE = join(ROOT, "dist", "node-cache");
const PKG_HOME = join(CACHE, "pkg-home"); // pkg reads base binaries from $HOME/.pkg-cache/sea
const SEA_CACHE = join(PKG_HOME, ".pkg-cache", "sea");
const PKG = join(ROOT, "node_modules", "@yao-pkg", "pkg", "lib-es5", "bin.js");
const OUT = join(ROOT, "dist", "bin");
const ENTRY = join(ROOT, "dist", "signalint-mcp.cjs");
const HOST = `${process.platform === "win32" ? "win" : process.platform}-${process.arch}`;
// Bump when the way a base binary is prepared changes, so seeded archives are rebuilt.
const RECIPE = "strip-debug-linux,unsigned-win,v1";

const requested = process.argv.find((arg) => arg.startsWith("--targets="))?.slice(10) ?? process.env.SIGNALINT_TARGETS;
// "host" builds only the binary this machine can run (what the tests use).
const targets = requested ? requested.split(",").map((name) => (name === "host" ? HOST : name)) : Object.keys(PINNED.targets);
for (const target of targets) if (!PINNED.targets[target]) throw new Error(`unknown target ${target}; known: ${Object.keys(PINNED.targets).join(", ")}`);
if (!existsSync(ENTRY)) throw new Error("dist/signalint-mcp.cjs is missing: run npm run build first");
if (!existsSync(PKG)) throw new Error("@yao-pkg/pkg is missing: run npm ci");

function integrityOf(file) {
  return `sha512-${createHash("sha512").update(readFileSync(file)).digest("base64")}`;
}

function onPath(command) {
  return spawnSync(command, ["--version"], { stdio: "ignore" }).status === 0;
}

/** The extracted Node binary of a target, fetched from the registry once and verified against the pinned hash. */
function nodeBinary(target) {
  const { package: name, binary, integrity } = PINNED.targets[target];
  const dir = join(CACHE, `${name}-${PINNED.version}`);
  const executable = join(dir, "package", binary);
  const tarball = join(CACHE, `${name}-${PINNED.version}.tgz`);
  if (!existsSync(tarball) || integrityOf(tarball) !== integrity) {
    mkdirSync(CACHE, { recursive: true });
    execFileSync("npm", ["pack", `${name}@${PINNED.version}`, "--pack-destination", CACHE, "--silent"], { stdio: ["ignore", "ignore", "inherit"] });
  }
  const actual = integrityOf(tarball);
  if (actual !== integrity) throw new Error(`${name}@${PINNED.version}: tarball integrity ${actual} does not match the pinned ${integrity}`);
  if (!existsSync(executable)) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    execFileSync("tar", ["-xzf", tarball, "-C", dir, `package/${binary}`]);
  }
  return executable;
}

/** A Linux base loses its debug info (−10 MB) before packaging; stripping after injection would break the binary. */
function stripDebug(file, target) {
  if (onPath("llvm-strip")) return void execFileSync("llvm-strip", ["--strip-debug", file]);
  if (target === HOST && onPath("strip")) return void execFileSync("strip", ["--strip-debug", file]);
  throw new Error(`stripping the ${target} base needs llvm-strip (Debian/Ubuntu: apt-get install llvm)`);
}

/** The Windows base loses its Authenticode signature before injection, so the result is a clean unsigned PE. */
function removeSignature(from, to) {
  if (!onPath("osslsigncode")) throw new Error("preparing the win-x64 base needs osslsigncode (Debian/Ubuntu: apt-get install osslsigncode)");
  execFileSync("osslsigncode", ["remove-signature", "-in", from, "-out", to], { stdio: ["ignore", "ignore", "inherit"] });
}

/**
 * Seed pkg's SEA cache with a target's prepared base, laid out as nodejs.org's archive for that target
 * (`node-v<version>-<os>-<arch>.tar.gz` with `<name>/bin/node`, or `.zip` with `<name>/node.exe`) plus the `.ok`
 * sentinel pkg writes after its own checksum check. pkg then skips the download and that check: the pinned sha512 in
 * nodeBinary() is the check.
 */
function seed(target) {
  const [os, arch] = target.split("-");
  const name = `node-v${PINNED.version}-${os}-${arch}`;
  const archive = join(SEA_CACHE, `${name}.${os === "win" ? "zip" : "tar.gz"}`);
  const stamp = join(SEA_CACHE, `${name}.seeded`);
  const recipe = `${PINNED.targets[target].integrity} ${RECIPE}`;
  if (existsSync(`${archive}.ok`) && existsSync(stamp) && readFileSync(stamp, "utf8") === recipe) return;
  const base = nodeBinary(target);
  // Whatever pkg extracted from an earlier archive goes too (it trusts its own `.ok` sentinels).
  for (const stale of [archive, `${archive}.ok`, stamp, join(SEA_CACHE, name), join(SEA_CACHE, `${name}.exe`), join(SEA_CACHE, `${name}.exe.ok`)])
    rmSync(stale, { recursive: true, force: true });
  const staging = join(CACHE, "staging");
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(SEA_CACHE, { recursive: true });
  if (os === "win") {
    mkdirSync(join(staging, name), { recursive: true });
    removeSignature(base, join(staging, name, "node.exe"));
    execFileSync("zip", ["-q", "-1", "-r", archive, name], { cwd: staging });
  } else {
    mkdirSync(join(staging, name, "bin"), { recursive: true });
    copyFileSync(base, join(staging, name, "bin", "node"));
    if (os === "linux") stripDebug(join(staging, name, "bin", "node"), target);
    execFileSync("sh", ["-c", 'tar -cf - "$1" | gzip -1 > "$2"', "sh", name, archive], { cwd: staging });
  }
  rmSync(staging, { recursive: true, force: true });
  writeFileSync(`${archive}.ok`, "");
  writeFileSync(stamp, recipe);
}

/** A PE file whose certificate table (data directory 4) is empty: no signature, dangling or otherwise. */
function assertUnsignedPe(file) {
  const pe = readFileSync(file);
  const header = pe.readUInt32LE(0x3c);
  const optional = header + 24;
  const directories = optional + (pe.readUInt16LE(optional) === 0x20b ? 112 : 96);
  const [offset, size] = [pe.readUInt32LE(directories + 4 * 8), pe.readUInt32LE(directories + 4 * 8 + 4)];
  if (offset !== 0 || size !== 0) throw new Error(`${file} still has a certificate table entry (offset ${offset}, size ${size})`);
}

const pkgTarget = (target) => {
  const [os, arch] = target.split("-");
  return `node${PINNED.version}-${os === "darwin" ? "macos" : os}-${arch}`;
};

/**
 * The tools the requested targets need beyond `npm ci`, checked before anything is fetched: one message lists every
 * missing tool and how to install it. (Node >= 22 for pkg is not among them: the build fetches its pinned Node.)
 */
function missingTools() {
  const needs = new Map([["tar", "every target"]]);
  if (targets.some((target) => !target.startsWith("win"))) needs.set("gzip", "Linux and macOS base archives");
  const linuxOther = targets.some((target) => target.startsWith("linux") && (target !== HOST || !onPath("strip")));
  if (linuxOther) needs.set("llvm-strip", "stripping Linux bases (Debian/Ubuntu: apt-get install llvm)");
  if (targets.some((target) => target.startsWith("win"))) {
    needs.set("osslsigncode", "removing the Windows base's signature (Debian/Ubuntu: apt-get install osslsigncode)");
    needs.set("zip", "the Windows base archive (Debian/Ubuntu: apt-get install zip)");
  }
  return [...needs].filter(([tool]) => !onPath(tool)).map(([tool, why]) => `  ${tool}: ${why}`);
}

const missing = missingTools();
if (missing.length) {
  console.error(`build:binaries (${targets.join(", ")}) needs tools that are not on PATH:\n${missing.join("\n")}`);
  console.error("Build fewer targets with --targets=host (or e.g. --targets=linux-x64), or install them.");
  process.exit(1);
}

// pkg needs Node >= 22 and generates the SEA blob with a Node of exactly the targets' version: run it on the pinned
// host binary (pkg then uses that same binary, or the seeded host base, as the blob generator).
if (!PINNED.targets[HOST]) throw new Error(`building needs a ${PINNED.version} host binary; no pinned target for ${HOST}`);
const runner = nodeBinary(HOST);
const started = performance.now();
mkdirSync(OUT, { recursive: true });
for (const target of targets) {
  seed(target);
  const output = join(OUT, `signalint-mcp-${target}${target.startsWith("win") ? ".exe" : ""}`);
  rmSync(output, { force: true });
  // --no-signature: pkg cannot sign Mach-O on Linux; the release job signs on macOS (docs/distribution.md).
  execFileSync(runner, [PKG, ENTRY, "--sea", "--no-signature", "--target", pkgTarget(target), "--output", output], {
    env: { ...process.env, HOME: PKG_HOME, USERPROFILE: PKG_HOME },
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (target.startsWith("win")) assertUnsignedPe(output);
  console.log(`built ${output}`);
}

const sums = readdirSync(OUT)
  .filter((name) => name.startsWith("signalint-mcp-"))
  .sort()
  .map(
    (name) =>
      `${createHash("sha256")
        .update(readFileSync(join(OUT, name)))
        .digest("hex")}  ${name}`,
  );
writeFileSync(join(OUT, "SHA256SUMS"), `${sums.join("\n")}\n`);
console.log(`wrote ${join(OUT, "SHA256SUMS")} (${targets.length} target(s) in ${((performance.now() - started) / 1000).toFixed(1)} s)`);
