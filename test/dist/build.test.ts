import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { it } from "node:test";
import { REPO, removeDir, tempDir } from "../helpers.ts";
import { HOST, HOST_BINARY } from "./release-dir.ts";

const PINNED = JSON.parse(readFileSync(join(REPO, "build", "node-binaries.json"), "utf8")) as {
  version: string;
  targets: Record<string, { package: string; binary: string }>;
};

it("the host binary is pkg's SEA build of the stripped pinned base: no debug sections, the base's Node version inside", {
  skip: HOST.startsWith("linux") ? false : "ELF only",
}, () => {
  assert.ok(existsSync(HOST_BINARY), `${HOST_BINARY} is built by pretest`);
  const pinned = PINNED.targets[HOST];
  assert.ok(pinned);
  const base = join(REPO, "dist", "node-cache", `${pinned.package}-${PINNED.version}`, "package", pinned.binary);
  const sections = (file: string) => execFileSync("readelf", ["-S", "--wide", file], { encoding: "utf8" });
  assert.match(sections(base), /\.debug_/, "the registry's base has debug sections");
  assert.doesNotMatch(sections(HOST_BINARY), /\.debug_/);
  // The embedded runtime is the pinned Node: a script run on it (as an engine is, with __signalint-node) sees that version.
  const dir = tempDir("signalint-embedded-");
  writeFileSync(join(dir, "version.cjs"), "process.stdout.write(process.version);\n");
  assert.equal(execFileSync(HOST_BINARY, ["__signalint-node", join(dir, "version.cjs")], { encoding: "utf8" }), `v${PINNED.version}`);
  removeDir(dir);
});

it("build:binaries checks its toolchain first and names each missing tool with how to install it", () => {
  const result = spawnSync(process.execPath, [join(REPO, "build", "build-binaries.mjs"), "--targets=win-x64,linux-arm64"], {
    cwd: REPO,
    encoding: "utf8",
    env: { PATH: join(REPO, "no-such-dir") },
  });
  assert.equal(result.status, 1);
  assert.match(result.stderr, /needs tools that are not on PATH:/);
  assert.match(result.stderr, /llvm-strip: .*apt-get install llvm/);
  assert.match(result.stderr, /osslsigncode: .*apt-get install osslsigncode/);
  assert.match(result.stderr, /--targets=host/);
});

it("npm run build says what it wrote: the embedded tool catalog, then one line per file with its size", () => {
  const dir = tempDir("signalint-bundle-");
  try {
    const result = spawnSync(process.execPath, [join(REPO, "build", "bundle.mjs"), `--outdir=${dir}`], { cwd: REPO, encoding: "utf8" });
    assert.equal(result.status, 0, result.stderr);
    const lines = result.stdout.trimEnd().split("\n");
    const files = ["signalint-mcp-chunk.mjs", "signalint-mcp-run.mjs", "signalint-mcp.mjs", "single/signalint-mcp.mjs", "signalint-mcp.cjs"];
    assert.equal(lines.length, 1 + files.length, result.stdout);
    assert.match(lines[0] ?? "", /^embedded the tool catalog \(\d+ KB of JSON\) in the bundles$/);
    for (const [index, name] of files.entries()) {
      const bytes = statSync(join(dir, name)).size;
      assert.equal(lines[index + 1], `wrote ${dir}/${name} (${(bytes / 1024 / 1024).toFixed(2)} MB, ${bytes.toLocaleString("en-US")} bytes)`);
    }
  } finally {
    removeDir(dir);
  }
});

it("on Node 22+ the npm bundle keeps its compiled code in the user's cache directory, never in the project", {
  skip: HOST.startsWith("linux") ? false : "runs the pinned Linux base",
}, () => {
  const pinned = PINNED.targets[HOST];
  assert.ok(pinned);
  // The pinned base is a plain Node (26): the same node a user's `npx signalint-mcp` runs on.
  const node = join(REPO, "dist", "node-cache", `${pinned.package}-${PINNED.version}`, "package", pinned.binary);
  const home = tempDir("signalint-compiled-home-");
  const project = tempDir("signalint-compiled-project-");
  writeFileSync(join(project, "package.json"), '{ "name": "compiled", "private": true }\n');
  const env = { PATH: process.env.PATH ?? "", HOME: home, XDG_CACHE_HOME: join(home, "cache"), XDG_STATE_HOME: join(home, "state") };
  // --version loads the whole of Signalint (only a server start has the light front).
  const run = () => spawnSync(node, [join(REPO, "dist", "signalint-mcp.mjs"), "--version"], { cwd: project, env, encoding: "utf8" });
  const first = run();
  assert.equal(first.status, 0, first.stderr);
  const cache = join(home, "cache", "signalint", "node-compile-cache");
  const kept = readdirSync(cache, { recursive: true }).filter((name) => statSync(join(cache, String(name))).isFile());
  assert.ok(kept.length > 0, "compiled code written under <cache base>/node-compile-cache");
  assert.deepEqual(readdirSync(project), ["package.json"], "nothing written into the project");
  // A second run reads it back and answers the same.
  const second = run();
  assert.equal(second.status, first.status);
  assert.equal(second.stdout, first.stdout);
  // A cache base inside the project (XDG_CACHE_HOME=$CI_PROJECT_DIR/.cache on GitLab) keeps nothing there.
  const inside = spawnSync(node, [join(REPO, "dist", "signalint-mcp.mjs"), "--version"], {
    cwd: project,
    env: { ...env, XDG_CACHE_HOME: join(project, ".cache") },
    encoding: "utf8",
  });
  assert.equal(inside.status, 0, inside.stderr);
  assert.deepEqual(readdirSync(project), ["package.json"], "nothing written into the project");
  removeDir(home);
  removeDir(project);
});
