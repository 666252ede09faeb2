// npm run build:binaries [-- --targets linux-x64,win-x64]
// Standalone signalint-mcp executables: dist/signalint-mcp.cjs injected as a Node single executable application
// into pinned Node binaries taken from the npm registry (see docs/distribution.md for why Node's own --build-sea
// is used rather than pkg). Needs no network beyond the npm registry.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "..");
const PINNED = JSON.parse(readFileSync(join(ROOT, "build", "node-binaries.json"), "utf8"));
const CACHE = join(ROOT, "dist", "node-cache");
const OUT = join(ROOT, "dist", "bin");
const ENTRY = join(ROOT, "dist", "signalint-mcp.cjs");
const HOST = `${process.platform === "win32" ? "win" : process.platform}-${process.arch}`;

const requested = process.argv.find((arg) => arg.startsWith("--targets="))?.slice(10) ?? process.env.SIGNALINT_TARGETS;
// "host" builds only the binary this machine can run (what the tests use).
const targets = requested ? requested.split(",").map((name) => (name === "host" ? HOST : name)) : Object.keys(PINNED.targets);
for (const target of targets) if (!PINNED.targets[target]) throw new Error(`unknown target ${target}; known: ${Object.keys(PINNED.targets).join(", ")}`);
if (!existsSync(ENTRY)) throw new Error("dist/signalint-mcp.cjs is missing: run npm run build first");

function integrityOf(file) {
  return `sha512-${createHash("sha512").update(readFileSync(file)).digest("base64")}`;
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

// The SEA blob must be produced by exactly the Node version it is injected into: use the pinned host binary.
const generator = nodeBinary(
  PINNED.targets[HOST]
    ? HOST
    : (() => {
        throw new Error(`building needs a ${PINNED.version} host binary; no pinned target for ${HOST}`);
      })(),
);
mkdirSync(OUT, { recursive: true });
for (const target of targets) {
  const base = nodeBinary(target);
  const output = join(OUT, `signalint-mcp-${target}${target.startsWith("win") ? ".exe" : ""}`);
  const config = join(CACHE, `sea-${target}.json`);
  writeFileSync(
    config,
    JSON.stringify({
      main: ENTRY,
      mainFormat: "commonjs",
      executable: base,
      output,
      disableExperimentalSEAWarning: true,
      useCodeCache: false, // code cache and snapshots only load on the platform that made them; these are cross-built
      useSnapshot: false,
    }),
  );
  execFileSync(generator, ["--build-sea", config], { stdio: ["ignore", "ignore", "inherit"] });
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
console.log(`wrote ${join(OUT, "SHA256SUMS")}`);
