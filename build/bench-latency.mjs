// npm run bench:latency: a generated 1,000-file TypeScript project, checked by a real MCP client; every figure is a
// ratio to a cold `tsc --noEmit` of the project's own TypeScript measured in the same run. The correctness column
// compares the server's tsc diagnostics with a cold run on the same tree.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  coldTsc as coldRun,
  generateFlat,
  generateRefs as generateRefsLayout,
  mcpIssues,
  median,
  processTreeMemory,
  ROOT,
  tscErrorKeys,
  tscKeysOf,
} from "./bench-projects.mjs";
import { coldWorkspace, generateWorkspaceProject } from "./bench-workspace-project.mjs";

// BENCH_PROJECT=refs: the project-references monorepo of bench-refs-project.mjs; ratios are to a cold `tsc -b`.
const REFS = process.env.BENCH_PROJECT === "refs";
// BENCH_PROJECT=workspace9: a workspace of 9 packages, one tsconfig each (bench-workspace-project.mjs); ratios are to
// cold `tsc --noEmit -p` runs of the nine configs, one after another.
const WORKSPACE = process.env.BENCH_PROJECT === "workspace9";
const FILES = Number(process.env.BENCH_FILES ?? (REFS ? 2000 : 1000));
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const QUIET_ROUNDS = 3;
// Every server's private cache directory lives here, removed when the bench exits.
const CACHE_ROOT = mkdtempSync(join(tmpdir(), "signalint-latency-cache-"));
process.on("exit", () => rmSync(CACHE_ROOT, { recursive: true, force: true }));
const VERSIONS = (process.env.BENCH_TS ?? "5,7")
  .split(",")
  .map((v) => (v === "5" ? 0 : 1))
  .map(
    (i) =>
      [
        ["TypeScript 5.9", join(ROOT, "node_modules", "typescript", "bin", "tsc")],
        ["TypeScript 7", join(ROOT, "node_modules", "typescript7", "bin", "tsc")],
      ][i],
  );

// BENCH_TSC_ONLY=1 measures tsc alone (no linter in the project).
const TSC_ONLY = Boolean(process.env.BENCH_TSC_ONLY);
const generate = (dir, tsc) => generateFlat(dir, { tsc, files: FILES, tscOnly: TSC_ONLY });
const generateRefs = (dir, tsc) => generateRefsLayout(dir, { tsc, files: FILES, tscOnly: TSC_ONLY });

/** The 9-package workspace beside the same engine links; returns the files the steps check and edit. */
function generateWorkspace(dir, tsc) {
  mkdirSync(join(dir, "node_modules"), { recursive: true });
  symlinkSync(resolve(tsc, "..", ".."), join(dir, "node_modules", "typescript"));
  symlinkSync(join(ROOT, "node_modules", "oxlint"), join(dir, "node_modules", "oxlint"));
  const layout = generateWorkspaceProject(dir, { files: FILES });
  if (process.env.BENCH_TSC_ONLY) writeFileSync(join(dir, "signalint.config.json"), '{ "engines": { "oxlint": false } }\n');
  return layout;
}

/** A cold run of the project's own tsc (bench-projects.mjs), or of each of the workspace's nine tsconfigs. */
function coldTsc(dir, tsc) {
  if (!WORKSPACE) return coldRun(dir, tsc, { refs: REFS, skip: [".state"] });
  const result = coldWorkspace(dir, tsc);
  return { ms: result.ms, keys: tscErrorKeys(result.stdout) };
}

async function serverTscKeys(client, response) {
  return tscKeysOf(await mcpIssues(client, response));
}

/**
 * A fresh server of its own: its state directory in the project, its cache directory (persisted TypeScript state, lint
 * cache) private to it, so no server of the bench starts from what another one persisted.
 */
function serverTransport(dir, state) {
  const cacheDir = mkdtempSync(join(CACHE_ROOT, "server-"));
  return new StdioClientTransport({
    command: process.execPath,
    args: [join(ROOT, "dist", "signalint-mcp.mjs")],
    cwd: dir,
    // Every issue inline: a big project's cluster detail would otherwise go to an artifact.
    // One server per session, in its own process (sessions sharing the project's daemon are bench-sessions.mjs's).
    env: {
      ...process.env,
      SIGNALINT_DAEMON: "0",
      SIGNALINT_STATE_DIR: join(dir, state),
      SIGNALINT_CACHE_DIR: cacheDir,
      SIGNALINT_STRUCTURED_MAX_BYTES: "16777216",
    },
    stderr: process.env.BENCH_STDERR ? "inherit" : "ignore",
  });
}

/** The slowest `ping` answer while a fresh server's first check_project builds the warm program (one ping at a time). */
async function pingWhileBuilding(dir) {
  const client = new Client({ name: "bench-ping", version: "1" });
  await client.connect(serverTransport(dir, ".state-ping"));
  let done = false;
  const checking = client.callTool({ name: "check_project", arguments: {} }).finally(() => (done = true));
  await new Promise((resolve) => setTimeout(resolve, 300));
  let slowest = 0;
  while (!done) {
    const started = performance.now();
    await client.callTool({ name: "ping", arguments: {} });
    slowest = Math.max(slowest, performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await checking;
  await client.close();
  return slowest;
}

/** A generated project (the 1,000-file one or the references monorepo) and the files its steps edit. */
function generateLayout(dir, tsc) {
  return REFS ? generateRefs(dir, tsc) : generate(dir, tsc);
}

/** Bytes under a directory (the persisted state's size on disk). */
function bytesUnder(dir) {
  const result = spawnSync("du", ["-sb", dir], { encoding: "utf8" });
  return Number(result.stdout.split("\t")[0] ?? 0);
}

/**
 * One fresh MCP server (no daemon: stopping it stops everything, as a reboot or an exited server would) that runs one
 * check and stops; the check's time from the client, its tsc mode and whether its diagnostics equal a cold run.
 */
async function checkInFreshServer(dir, tsc, env, name, tool, args, thinkMs = 0) {
  const client = new Client({ name: "bench-restart", version: "1" });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(ROOT, "dist", "signalint-mcp.mjs")],
    cwd: dir,
    env: { ...process.env, ...env, SIGNALINT_DAEMON: "0", SIGNALINT_STATE_DIR: join(dir, ".state"), SIGNALINT_STRUCTURED_MAX_BYTES: "16777216" },
    stderr: process.env.BENCH_STDERR ? "inherit" : "ignore",
  });
  await client.connect(transport);
  await client.listTools();
  // An agent reads before its first check: the server prewarms meanwhile (SIGNALINT_PREWARM_DELAY_MS, default 1 s).
  if (thinkMs) await new Promise((resolve) => setTimeout(resolve, thinkMs));
  const started = performance.now();
  const result = await client.callTool({ name: tool, arguments: args });
  const ms = performance.now() - started;
  const server = await serverTscKeys(client, result.structuredContent);
  // check_project responses carry no cache figures: the check's snapshot has them.
  const snapshot = await client.callTool({ name: "get_diagnostic_snapshot", arguments: { checkId: result.structuredContent.checkId } });
  await client.close();
  const expected = coldTsc(dir, tsc).keys.filter((key) => !args.files || args.files.some((file) => key.startsWith(`${file}:`)));
  const tscCache = snapshot.structuredContent.cache?.tsc;
  return {
    name,
    ms,
    mode: tscCache ? `${tscCache.mode} (${tscCache.misses} re-checked)` : "",
    correct: JSON.stringify(server) === JSON.stringify(expected),
    issues: server.length,
  };
}

/** `signalint-mcp check --cache-dir` as CI runs it (CI=true, a new process); its tsc issues as file:line:rule. */
function ciCheck(dir, cacheDir, binary = null) {
  const started = performance.now();
  const [command, ...prefix] = binary ? [binary] : [process.execPath, join(ROOT, "dist", "signalint-mcp.mjs")];
  const result = spawnSync(command, [...prefix, "check", "--format", "json", "--cache-dir", cacheDir], {
    cwd: dir,
    encoding: "utf8",
    // A 5,000-file project's report (every issue) is several MB.
    maxBuffer: 1024 ** 3,
    env: { ...process.env, CI: "true", SIGNALINT_STATE_DIR: join(dir, ".ci-state") },
  });
  const ms = performance.now() - started;
  const keys = JSON.parse(result.stdout)
    .issues.filter((issue) => issue.engine === "tsc")
    .map((issue) => `${issue.file}:${issue.line}:${issue.rule}`)
    .sort();
  return { ms, keys };
}

/** The release binary for this machine, as the GitHub Action runs it, when `npm run build:binaries` made one. */
const BINARY = join(ROOT, "dist", "bin", `signalint-mcp-${process.platform === "win32" ? "win" : process.platform}-${process.arch}`);

/** How long the restart phase's agent reads before its first check (BENCH_THINK_MS, default 10 s). */
const THINK_MS = Number(process.env.BENCH_THINK_MS ?? 10_000);

/**
 * Warm from disk (issue 17): the first check of a fresh server on an unchanged, already-checked project; the same after
 * a leaf was edited while nothing ran; CI's `check --cache-dir` with the cache of an earlier run, unchanged.
 */
async function measureRestart(label, tsc) {
  const dir = mkdtempSync(join(tmpdir(), "signalint-restart-"));
  const cacheBase = mkdtempSync(join(tmpdir(), "signalint-restart-cache-"));
  const env = { SIGNALINT_CACHE_DIR: cacheBase };
  const layout = generateLayout(dir, tsc);
  const cold = [];
  for (let i = 0; i < RUNS; i++) cold.push(coldTsc(dir, tsc).ms);
  const coldMs = median(cold);
  const rows = [];
  // The session before the restart: builds the warm program, which persists its state.
  await checkInFreshServer(dir, tsc, env, "first check_project (before the restart)", "check_project", {});
  rows.push(await checkInFreshServer(dir, tsc, env, "check_project after a restart, unchanged", "check_project", {}));
  // TypeScript's own floor for the next row: `tsc --incremental` with its build info (outside the tree) primed before
  // the same edit (not for references: a cold `tsc -b` of a fresh copy is the reference there).
  const buildInfo = join(mkdtempSync(join(tmpdir(), "signalint-reference-")), "reference.tsbuildinfo");
  const incremental = () => {
    const started = performance.now();
    spawnSync(process.execPath, [tsc, "--noEmit", "-p", "tsconfig.json", "--incremental", "--tsBuildInfoFile", buildInfo], { cwd: dir });
    return performance.now() - started;
  };
  if (!REFS) incremental();
  const leaf = join(dir, layout.leaf);
  writeFileSync(leaf, readFileSync(leaf, "utf8").replace("x * 3 +", "x * 33 +"));
  rows.push(await checkInFreshServer(dir, tsc, env, "check_project after a restart, one leaf edited while stopped", "check_project", {}));
  if (!REFS)
    rows.push({ name: "(reference) `tsc --incremental` after the same edit, its build info primed", ms: incremental(), mode: "", correct: null, issues: 0 });
  const another = join(dir, layout.another);
  writeFileSync(another, readFileSync(another, "utf8").replace("x * 3 +", "x * 33 +"));
  rows.push(
    await checkInFreshServer(dir, tsc, env, `the same with another leaf, asked ${THINK_MS / 1000} s after the server started`, "check_project", {}, THINK_MS),
  );
  const stateBytes = bytesUnder(cacheBase);
  const ciCache = mkdtempSync(join(tmpdir(), "signalint-ci-cache-"));
  ciCheck(dir, ciCache);
  const ci = ciCheck(dir, ciCache);
  const expected = coldTsc(dir, tsc).keys;
  rows.push({
    name: "CI `check --cache-dir`, restored cache, unchanged",
    ms: ci.ms,
    mode: "",
    correct: JSON.stringify(ci.keys) === JSON.stringify(expected),
    issues: ci.keys.length,
  });
  if (existsSync(BINARY)) {
    // The GitHub Action runs the release binary (its own Node), not this Node and the bundle.
    const binaryCache = mkdtempSync(join(tmpdir(), "signalint-ci-cache-"));
    ciCheck(dir, binaryCache, BINARY);
    const run = ciCheck(dir, binaryCache, BINARY);
    rows.push({
      name: "the same with the release binary (as the GitHub Action runs it)",
      ms: run.ms,
      mode: "",
      correct: JSON.stringify(run.keys) === JSON.stringify(expected),
      issues: run.keys.length,
    });
    rmSync(binaryCache, { recursive: true, force: true });
  }
  const ciBytes = bytesUnder(ciCache);
  for (const path of [dir, cacheBase, ciCache, dirname(buildInfo)]) rmSync(path, { recursive: true, force: true });
  return { label, coldMs, rows: rows.map((row) => ({ ...row, ratio: row.ms / coldMs })), stateBytes, ciBytes };
}

function printRestart(results) {
  const project = REFS ? `${FILES}-file project-references monorepo (ratios to a cold \`tsc -b\`)` : `${FILES}-file project`;
  console.log(`warm from disk on a generated ${project} (median of ${RUNS} cold runs; each check measured once)\n`);
  console.log("| TypeScript | step | time (ms) | ratio to cold tsc | tsc mode | diagnostics equal a cold run |");
  console.log("|---|---|---:|---:|---|---|");
  for (const { label, coldMs, rows } of results) {
    console.log(`| ${label} | cold \`${REFS ? "tsc -b" : "tsc --noEmit"}\` | ${coldMs.toFixed(0)} | 1.00 |  |  |`);
    for (const row of rows)
      console.log(
        `| ${label} | ${row.name} | ${row.ms.toFixed(0)} | ${row.ratio.toFixed(3)} | ${row.mode} | ${row.correct === null ? "" : row.correct ? `yes (${row.issues})` : "NO"} |`,
      );
  }
  console.log("");
  for (const { label, stateBytes, ciBytes } of results)
    console.log(`- ${label}: persisted state on disk ${(stateBytes / 1024).toFixed(0)} KiB (server); CI cache directory ${(ciBytes / 1024).toFixed(0)} KiB`);
}

/**
 * Issue 17 item 4: the same request again with nothing changed since it last ran answers from its kept results (tsc
 * mode "unchanged"; no engine runs). The two no-change checks just above ran with the file watch on and kept theirs
 * (the server's first check_project ran before the watch started, and a leaf was edited since).
 */
async function quietRows(timed, layout) {
  // Three rounds: one sample of a few milliseconds is at the mercy of a GC pause or another process's time slice.
  for (let round = 1; round <= QUIET_ROUNDS; round++) {
    await timed(`check_project, nothing changed since the same check (round ${round})`, "check_project", {});
    await timed(`check_files, nothing changed since the same check (round ${round})`, "check_files", { files: [layout.some] });
  }
}

async function measure(label, tsc) {
  const dir = mkdtempSync(join(tmpdir(), "signalint-latency-"));
  const layout = REFS ? generateRefs(dir, tsc) : WORKSPACE ? generateWorkspace(dir, tsc) : generate(dir, tsc);
  const cold = [];
  for (let i = 0; i < RUNS; i++) cold.push(coldTsc(dir, tsc).ms);
  const coldMs = median(cold);
  const pingMs = await pingWhileBuilding(dir);
  const client = new Client({ name: "bench-latency", version: "1" });
  const transport = serverTransport(dir, ".state");
  await client.connect(transport);
  await client.listTools();
  const rows = [];
  const timed = async (name, tool, args, edit) => {
    edit?.();
    const started = performance.now();
    const result = await client.callTool({ name: tool, arguments: args });
    const ms = performance.now() - started;
    const server = await serverTscKeys(client, result.structuredContent);
    // check_files returns the issues in the requested files; a cold run is filtered the same way.
    const expected = coldTsc(dir, tsc).keys.filter((key) => !args.files || args.files.some((file) => key.startsWith(`${file}:`)));
    // Server time (the check's own measured duration, from its snapshot) for the no-change steps, where the
    // client's round trip is most of what is measured.
    const snapshot = name.includes("nothing changed")
      ? (await client.callTool({ name: "get_diagnostic_snapshot", arguments: { checkId: result.structuredContent.checkId } })).structuredContent
      : undefined;
    const serverMs = snapshot?.durationMs;
    rows.push({
      serverMs,
      name,
      ms,
      ratio: ms / coldMs,
      correct: JSON.stringify(server) === JSON.stringify(expected),
      // check_project's response carries no cache figures: its snapshot has them.
      mode: result.structuredContent.cache?.tsc?.mode ?? snapshot?.cache?.tsc?.mode ?? "",
      issues: server.length,
    });
  };
  await timed("check_project, cold server", "check_project", {});
  // The agent flow: the first check_project builds the warm program, the agent edits a leaf at once and checks it.
  const edited = join(dir, layout.another);
  await timed("check_files, leaf edit right after the first check_project", "check_files", { files: [layout.another] }, () =>
    writeFileSync(edited, readFileSync(edited, "utf8").replace("x * 3 +", "x * 33 +")),
  );
  const memory = processTreeMemory(transport.pid);
  await timed("check_project, nothing changed", "check_project", {});
  await timed("check_files, nothing changed", "check_files", { files: [layout.some] });
  await quietRows(timed, layout);
  const leaf = join(dir, layout.leaf);
  await timed("check_files after a leaf edit", "check_files", { files: [layout.leaf] }, () =>
    writeFileSync(leaf, readFileSync(leaf, "utf8").replace("x * 3 +", "x * 33 +")),
  );
  const hub = join(dir, layout.hub);
  await timed("check_files after a hub edit (interface changed)", "check_files", { files: [layout.hub] }, () =>
    writeFileSync(hub, readFileSync(hub, "utf8").replace("  name: string;", "  name: string;\n  tag?: string;")),
  );
  await timed("check_files after a hub edit that breaks 500 importers", "check_files", { files: [layout.hub, layout.first] }, () =>
    writeFileSync(hub, readFileSync(hub, "utf8").replace("  id: number;", "  id: string;")),
  );
  await client.close();
  rmSync(dir, { recursive: true, force: true });
  return { label, coldMs, rows, pingMs, memory };
}

// BENCH_RESTART=1: the warm-from-disk phase (issue 17) instead of the in-session steps.
if (process.env.BENCH_RESTART) {
  const restarts = [];
  for (const [label, tsc] of VERSIONS) restarts.push(await measureRestart(label, tsc));
  printRestart(restarts);
  process.exit(0);
}

const results = [];
for (const [label, tsc] of VERSIONS) results.push(await measure(label, tsc));
console.log(
  `latency on a generated ${FILES}-file ${REFS ? "project-references monorepo (ratios to a cold `tsc -b`)" : WORKSPACE ? "workspace of 9 tsconfigs (ratios to 9 cold `tsc -p` runs)" : "project"} (median of ${RUNS} cold tsc runs; each check measured once from the MCP client, including the round trip and oxlint)\n`,
);
console.log("| TypeScript | step | time (ms) | ratio to cold tsc | tsc mode | diagnostics equal a cold run |");
console.log("|---|---|---:|---:|---|---|");
for (const { label, coldMs, rows } of results) {
  console.log(`| ${label} | cold \`${REFS ? "tsc -b" : WORKSPACE ? "tsc --noEmit -p" : "tsc --noEmit"}\` | ${coldMs.toFixed(0)} | 1.00 |  |  |`);
  for (const row of rows)
    console.log(`| ${label} | ${row.name} | ${row.ms.toFixed(0)} | ${row.ratio.toFixed(3)} | ${row.mode} | ${row.correct ? `yes (${row.issues})` : "NO"} |`);
}
console.log("\n| TypeScript | `ping` while a warm program builds, slowest (ms) | server RSS (MB) | warm hosts' RSS (MB) |");
console.log("|---|---:|---:|---:|");
for (const { label, pingMs, memory } of results)
  console.log(`| ${label} | ${pingMs.toFixed(0)} | ${memory?.server.toFixed(0) ?? "?"} | ${memory?.hosts.toFixed(0) ?? "?"} |`);
console.log("\nServer time of the no-change steps (the check's own duration, from get_diagnostic_snapshot):\n");
for (const { label, rows } of results) {
  for (const row of rows.filter((row) => row.serverMs !== undefined)) console.log(`- ${label}, ${row.name}: ${row.serverMs} ms`);
  for (const tool of ["check_project", "check_files"]) {
    const quiet = rows.filter((row) => row.name.startsWith(`${tool}, nothing changed since the same check`)).map((row) => row.serverMs);
    if (quiet.length) console.log(`- ${label}, ${tool} with nothing changed, median of ${quiet.length} rounds: ${median(quiet)} ms`);
  }
}
