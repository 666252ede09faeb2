// node build/release-assets.mjs [--bin=dist/bin] [--bundle=dist/single/signalint-mcp.mjs] [--out=dist/release]
// The release directory: every raw binary, a compressed copy of each (.tar.gz for Linux and macOS, .zip for Windows,
// the archive holding the binary under its asset name), the .mjs bundle, and SHA256SUMS over all of them. Uses only
// Node builtins, tar and zip, so the publishing job runs it without installing anything. Prints the size table.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";

const option = (name, fallback) => resolve(process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const BIN = option("bin", "dist/bin");
const BUNDLE = option("bundle", "dist/single/signalint-mcp.mjs"); // one file: `deno run <url>` fetches nothing beside it
const OUT = option("out", "dist/release");

const binaries = readdirSync(BIN)
  .filter((name) => /^signalint-mcp-[a-z]+-[a-z0-9]+(\.exe)?$/.test(name))
  .sort();
if (binaries.length === 0) throw new Error(`no signalint-mcp-<os>-<arch> binaries in ${BIN}: run npm run build:binaries first`);

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
const rows = [];
for (const name of binaries) {
  const raw = join(OUT, name);
  copyFileSync(join(BIN, name), raw);
  chmodSync(raw, 0o755);
  const archive = name.endsWith(".exe") ? `${name.slice(0, -4)}.zip` : `${name}.tar.gz`;
  if (archive.endsWith(".zip")) execFileSync("zip", ["-q", "-9", "-X", archive, name], { cwd: OUT });
  else execFileSync("tar", ["-czf", archive, "--owner=0", "--group=0", "--numeric-owner", name], { cwd: OUT });
  rows.push([name, statSync(raw).size, archive, statSync(join(OUT, archive)).size]);
}
const bundle = join(OUT, basename(BUNDLE));
copyFileSync(BUNDLE, bundle);
chmodSync(bundle, 0o755);

const assets = readdirSync(OUT)
  .filter((name) => name !== "SHA256SUMS")
  .sort();
const sums = assets.map(
  (name) =>
    `${createHash("sha256")
      .update(readFileSync(join(OUT, name)))
      .digest("hex")}  ${name}`,
);
writeFileSync(join(OUT, "SHA256SUMS"), `${sums.join("\n")}\n`);

const bytes = (n) => n.toLocaleString("en-US");
console.log(`| binary | bytes | compressed | bytes |\n|---|---:|---|---:|`);
for (const [name, size, archive, packed] of rows) console.log(`| ${name} | ${bytes(size)} | ${archive} | ${bytes(packed)} |`);
console.log(`\n${assets.length} assets and SHA256SUMS in ${OUT}`);
