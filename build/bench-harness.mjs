// The harness every bench* script uses (issue 37): benchmarks that can fail.
// - Private state and cache: every Signalint process a bench starts gets `env()` (XDG_STATE_HOME and XDG_CACHE_HOME
//   under one temporary root, SIGNALINT_STATE_DIR / SIGNALINT_CACHE_DIR unset), so nothing persisted by an earlier run
//   or by the user's own sessions is timed, and nothing is left behind.
// - Daemons: `finish()` stops every daemon a bench started, found through Signalint's own code (openProject's state
//   directory rule and the daemon record of src/daemon/record.ts, bundled from src/ when the harness loads), and fails
//   the run if one is still alive.
// - Trees: `guardTree()` snapshots a tree (the tests' snapshotTree of test/helpers/tree.ts) and `finish()` fails the
//   run if anything under it was created, changed or removed; `Project.edit()` re-bases its snapshot after the bench's
//   own edits, so every step also proves Signalint wrote nothing into the project.
// - Steps: `step()` applies an edit that must change the expected diagnostics (an error added or removed), times the
//   measured call, runs the project's own tool cold right after on the same tree (interleaved), and compares the issue
//   sets (engine, file, line, col, code/rule), `isError` and every engine's status. Any mismatch, failed engine or
//   unchanged answer makes `finish()` exit 1. Ratios are printed with the cold time and the load average.
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { basename, join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";

export const ROOT = resolve(import.meta.dirname, "..");
export const BUNDLE = join(ROOT, "dist", "signalint-mcp.mjs");
export const TSC = join(ROOT, "node_modules", "typescript", "bin", "tsc");
export const OXLINT = join(ROOT, "node_modules", "oxlint", "bin", "oxlint");

/** Everything a bench creates lives under this root, removed by `finish()` (and at exit). */
export const TEMP_ROOT = mkdtempSync(join(tmpdir(), "signalint-bench-"));
process.on("exit", () => rmSync(TEMP_ROOT, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }));
const STATE_HOME = join(TEMP_ROOT, "state-home");
const CACHE_HOME = join(TEMP_ROOT, "cache-home");

// Signalint's own rules, bundled from src/ (and the tests' tree snapshot): where a project's state directory is, the
// daemon record's name and content, whether a recorded pid is still that daemon. Never a copy of a path rule here.
const codeFile = join(TEMP_ROOT, "signalint-code.mjs");
await build({
  stdin: {
    contents: [
      'export { openProject } from "./src/service/project/project.ts";',
      'export { readDaemonRecord, identifyDaemon, recordFile } from "./src/daemon/record.ts";',
      'export { createNodeRuntime } from "./src/runtime/node.ts";',
      'export { callerRuntime } from "./src/runtime/caller-runtime.ts";',
      'export { snapshotTree } from "./test/helpers/tree.ts";',
    ].join("\n"),
    resolveDir: ROOT,
    loader: "ts",
    sourcefile: "bench-harness-code.ts",
  },
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  outfile: codeFile,
  // As build/bundle.mjs: jsonc-parser's UMD "main" cannot be bundled, its ES module build can.
  alias: { "jsonc-parser": "jsonc-parser/lib/esm/main.js" },
  logLevel: "error",
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});
const code = await import(pathToFileURL(codeFile).href);

/** The environment of every Signalint process a bench starts (`extra` added): private state home and cache home. */
export function env(extra = {}) {
  const base = { ...process.env };
  delete base.SIGNALINT_STATE_DIR;
  delete base.SIGNALINT_CACHE_DIR;
  // Every issue inline: a big project's cluster detail would otherwise go to an artifact.
  return { ...base, XDG_STATE_HOME: STATE_HOME, XDG_CACHE_HOME: CACHE_HOME, SIGNALINT_STRUCTURED_MAX_BYTES: "16777216", ...extra };
}

const runtimeFor = (environment) =>
  code.callerRuntime(code.createNodeRuntime(), Object.fromEntries(Object.entries(environment).filter(([, v]) => v !== undefined)));

/** The state directory Signalint uses for `root` in `environment` (openProject's own rule). */
export async function stateDirOf(root, environment = env()) {
  return (await code.openProject(runtimeFor(environment), { root })).stateDir;
}

/** A fresh directory under the bench's root. */
export function tempDir(prefix = "dir-") {
  return mkdtempSync(join(TEMP_ROOT, prefix));
}

/** The middle value (the upper one of an even count). */
export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

// ---- issue keys ---------------------------------------------------------------------------------------------------

/** One issue's key: engine, file, line, column, code or rule. */
export const keyOf = (engine, file, line, col, rule) => `${engine} ${file}:${line}:${col} ${rule}`;

/**
 * The keys (sorted) of a Signalint answer's issues, each engine report of a merged issue counted once per engine; a
 * merged report carries the merged issue's position, not its own column, so its column is `*` (any column matches).
 */
export function answerKeys(issues, engines = null) {
  return issues
    .flatMap((issue) => [issue, ...(issue.alsoReportedBy ?? []).map((other) => ({ ...issue, ...other, col: "*" }))])
    .filter((issue) => !engines || engines.includes(issue.engine))
    .map((issue) => {
      // A tsc diagnostic in a file outside the root is reported on a tsconfig, its place leading the message
      // (engines/tsc.ts outsideRootIssue): keyed by that place, as the raw run prints it.
      const outside =
        issue.engine === "tsc" && issue.line === 1 && issue.col === 1
          ? /^(\.\.\/[^\n]*?)\((\d+),(\d+)\): /.exec(issue.fullMessage ?? issue.message ?? "")
          : null;
      return outside
        ? keyOf("tsc", outside[1], Number(outside[2]), Number(outside[3]), issue.rule)
        : keyOf(issue.engine, issue.file, issue.line, issue.col, issue.rule);
    })
    .sort();
}

/** The differences of two key lists (each key matched once; a `*` column of `got` matches any column). */
export function compareKeys(expected, got) {
  const left = [...expected];
  const extra = [];
  const loose = (key) => key.replace(/:(\d+|\*) /, ": ");
  for (const key of [...got].sort((a, b) => Number(a.includes(":* ")) - Number(b.includes(":* ")))) {
    const index = key.includes(":* ") ? left.findIndex((other) => loose(other) === loose(key)) : left.indexOf(key);
    if (index >= 0) left.splice(index, 1);
    else extra.push(key);
  }
  return { missing: left, extra };
}

/** Every issue of an MCP check response: its remaining issues and each cluster's (get_issue_detail). */
export async function mcpIssues(client, response) {
  const issues = [];
  // A compact issue's message is cut at 120 characters: one whose text was cut (a tsc diagnostic outside the root
  // leads it with its place) is asked whole.
  for (const issue of response.remainingIssues ?? []) {
    const cut =
      issue.message?.endsWith("…") &&
      (await client.callTool({ name: "get_issue_detail", arguments: { issueId: issue.issueId ?? issue.id } })).structuredContent?.issues?.[0];
    issues.push(cut ? { ...issue, fullMessage: cut.fullMessage } : issue);
  }
  for (const cluster of response.clusters ?? [])
    issues.push(...(await client.callTool({ name: "get_issue_detail", arguments: { clusterId: cluster.clusterId } })).structuredContent.issues);
  return issues;
}

/** tsc's `--pretty false` errors as keys, paths relative to `root` (tsc prints them relative to its cwd `cwd`). */
export function tscKeys(stdout, cwd = ".", root = cwd) {
  return stdout
    .split("\n")
    .map((line) => /^(.+?)\((\d+),(\d+)\): error (TS\d+)/.exec(line))
    .filter(Boolean)
    .map((m) => keyOf("tsc", relative(root, resolve(cwd, m[1])).replace(/\\/g, "/"), m[2], m[3], m[4]))
    .sort();
}

/**
 * Why a `tsc --noEmit` run failed, or null: exit 0 is clean; with errors TypeScript 5/6 exit 2 and TypeScript 7 exits 1,
 * so 1 and 2 count as a run only when it printed the errors it found (and nothing on stderr).
 */
function tscFailure(run, label) {
  if (run.status === 0) return null;
  if ((run.status === 1 || run.status === 2) && !run.stderr.trim() && tscKeys(run.stdout).length) return null;
  return `${label} exited ${run.status}: ${(run.stderr || run.stdout).slice(0, 300)}`;
}

/** The project's own tsc, cold: `--noEmit -p <config>` (each config), or `-b` on a fresh copy (no earlier build info). */
export function coldTsc(dir, { tsc = TSC, configs = ["tsconfig.json"], build: solution = false, skip = [] } = {}) {
  if (!solution) {
    const started = performance.now();
    const keys = new Set();
    let failed = null;
    for (const config of configs) {
      const run = spawnSync(process.execPath, [tsc, "--noEmit", "--pretty", "false", "-p", config], { cwd: dir, encoding: "utf8", maxBuffer: 1024 ** 3 });
      failed ??= tscFailure(run, `tsc -p ${config}`);
      for (const key of tscKeys(run.stdout, dir)) keys.add(key);
    }
    return { ms: performance.now() - started, keys: [...keys].sort(), failed };
  }
  const copy = tempDir("cold-");
  cpSync(dir, copy, { recursive: true, filter: (source) => !skip.some((name) => source.endsWith(name)) });
  const started = performance.now();
  const run = spawnSync(process.execPath, [tsc, "-b", "--pretty", "false"], { cwd: copy, encoding: "utf8", maxBuffer: 1024 ** 3 });
  const ms = performance.now() - started;
  rmSync(copy, { recursive: true, force: true });
  return { ms, keys: tscKeys(run.stdout, copy), failed: run.status !== 0 && run.status !== 1 && run.status !== 2 ? `tsc -b exited ${run.status}` : null };
}

/** The project's own oxlint, cold (`--format json`), as keys. */
export function coldOxlint(dir, { oxlint = OXLINT } = {}) {
  const started = performance.now();
  const run = spawnSync(oxlint, ["--format", "json", "--ignore-pattern", "**/node_modules/**", "."], { cwd: dir, encoding: "utf8", maxBuffer: 1024 ** 3 });
  const ms = performance.now() - started;
  let report = null;
  try {
    report = JSON.parse(run.stdout);
  } catch {
    return { ms, keys: [], failed: `oxlint printed no JSON (exit ${run.status}): ${run.stderr.slice(0, 300)}` };
  }
  const keys = report.diagnostics
    .map((d) => {
      const span = d.labels?.[0]?.span;
      return keyOf("oxlint", d.filename.replace(/^\.\//, ""), span?.line ?? 1, span?.column ?? 1, d.code ?? "");
    })
    .sort();
  return { ms, keys, failed: null };
}

function runAsync(command, args, cwd) {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
    child.on("close", (status) => done({ status, stdout, stderr }));
  });
}

/**
 * tsc (`--noEmit -p tsconfig.json`) and oxlint run directly and in parallel, as the server runs them on a project with
 * both: one time, their keys together, and the bytes they printed.
 */
export async function directTscOxlint(dir, { tsc = TSC, oxlint = OXLINT } = {}) {
  const started = performance.now();
  const [t, o] = await Promise.all([
    runAsync(process.execPath, [tsc, "--noEmit", "--pretty", "false", "-p", "tsconfig.json"], dir),
    runAsync(oxlint, ["--format", "json", "--ignore-pattern", "**/node_modules/**", "."], dir),
  ]);
  const ms = performance.now() - started;
  const failed = [];
  const tscFailed = tscFailure(t, "tsc");
  if (tscFailed) failed.push(tscFailed);
  let oxKeys = [];
  try {
    oxKeys = JSON.parse(o.stdout).diagnostics.map((d) =>
      keyOf("oxlint", d.filename.replace(/^\.\//, ""), d.labels?.[0]?.span?.line ?? 1, d.labels?.[0]?.span?.column ?? 1, d.code ?? ""),
    );
  } catch {
    failed.push(`oxlint printed no JSON (exit ${o.status}): ${o.stderr.slice(0, 300)}`);
  }
  const bytes = Buffer.byteLength(t.stdout) + Buffer.byteLength(o.stdout);
  return { ms, keys: [...tscKeys(t.stdout, dir), ...oxKeys].sort(), failed: failed.join("; ") || null, bytes };
}

/**
 * A copy of a fixture (or any tree) in a fresh directory outside this repository, with node_modules links to the
 * engine packages installed here (as a project with its own installs has).
 */
export function scratchCopy(source, packages = { typescript: "typescript", oxlint: "oxlint" }) {
  const target = tempDir(`${basename(source)}-`);
  cpSync(source, target, { recursive: true });
  mkdirSync(join(target, "node_modules"), { recursive: true });
  for (const [name, pkg] of Object.entries(packages)) symlinkSync(join(ROOT, "node_modules", pkg), join(target, "node_modules", name));
  return target;
}

/** Several cold references one after another: one time, their keys together. */
export function combined(...runs) {
  return {
    ms: runs.reduce((sum, run) => sum + run.ms, 0),
    keys: runs.flatMap((run) => run.keys).sort(),
    failed:
      runs
        .map((run) => run.failed)
        .filter(Boolean)
        .join("; ") || null,
  };
}

// ---- the run ------------------------------------------------------------------------------------------------------

const failures = [];
const guarded = [];
const roots = new Map();

/** Record a failure (the run will exit 1); returns false. */
export function fail(message) {
  failures.push(message);
  console.error(`FAIL: ${message}`);
  return false;
}

/** Snapshot `root` now; `finish()` fails the run if anything under it changed (the repository's fixtures). */
export function guardTree(root, exclude = []) {
  guarded.push({ root, exclude, before: code.snapshotTree(root, exclude) });
  return root;
}

function treeChanges(root, before, exclude) {
  const after = code.snapshotTree(root, exclude);
  const changes = [];
  for (const [path, entry] of after) if (before.get(path) !== entry) changes.push(`${before.has(path) ? "changed" : "written"} ${path}`);
  for (const path of before.keys()) if (!after.has(path)) changes.push(`removed ${path}`);
  return changes;
}

/** Where a bench started Signalint: a root and the environment (state home, state dir) it was started with. */
export function trackRoot(root, environment = env()) {
  const picked = Object.fromEntries(["XDG_STATE_HOME", "XDG_CACHE_HOME", "SIGNALINT_STATE_DIR", "HOME"].map((name) => [name, environment[name]]));
  roots.set(`${root}\0${JSON.stringify(picked)}`, { root, environment });
}

/** A fresh private state home and cache home (under the bench's), for a server that must start from nothing. */
export function freshEnv(extra = {}) {
  return env({ XDG_STATE_HOME: tempDir("state-home-"), XDG_CACHE_HOME: tempDir("cache-home-"), ...extra });
}

/**
 * A project under test: its tree is snapshotted after every edit the bench makes (`edit`, `replace`), and each step
 * verifies that nothing else was written into it; `expected` is the whole project's last cold answer.
 */
export class Project {
  constructor(dir, { exclude = [], reference } = {}) {
    this.dir = dir;
    this.exclude = exclude;
    this.reference = reference;
    this.expected = null;
    this.before = code.snapshotTree(dir, exclude);
  }

  /** Replace `search` by `replacement` in `file` (which must contain it), or write `text` when search is null. */
  replace(file, search, replacement) {
    const path = join(this.dir, file);
    const before = readFileSync(path, "utf8");
    const after = before.replace(search, replacement);
    if (after === before) throw new Error(`${file}: ${JSON.stringify(search)} not found`);
    writeFileSync(path, after);
    this.rebase();
  }

  /** After the bench's own edits: the tree as it is now is the reference. */
  rebase() {
    this.before = code.snapshotTree(this.dir, this.exclude);
  }

  /** What Signalint wrote into the tree since the last edit (empty when nothing). */
  changes() {
    return treeChanges(this.dir, this.before, this.exclude);
  }

  /** The cold reference now, kept as the project's expected answer (a baseline, before the first step). */
  async baseline() {
    const run = await this.reference();
    if (run.failed) fail(`${this.dir}: the cold reference failed: ${run.failed}`);
    this.expected = run.keys;
    return run;
  }
}

const rows = [];
const loadStart = loadavg()[0];

/**
 * One timed step on `project`: `edit()` (the bench's own edit; it must change the expected answer unless
 * `unchanged: true`), then `measure()` → { ms, issues, isError?, engines?, text?, mode? }, then the project's cold
 * reference right after on the same tree. `files` limits the comparison to those files (check_files); `engines` to
 * those engines' issues (default: the engines of the reference). Returns the row.
 */
export async function step(project, { group = "", label, edit = null, unchanged = false, files = null, engines = ["tsc"], measure, extra = {} }) {
  if (edit) {
    edit();
    project.rebase();
  }
  let measured;
  try {
    measured = await measure();
  } catch (error) {
    measured = { ms: Number.NaN, issues: [], isError: true, text: String(error?.stack ?? error) };
  }
  const written = project.changes();
  const reference = await project.reference();
  const previous = project.expected;
  project.expected = reference.keys;
  const inScope = (key) => !files || files.some((file) => key.split(" ")[1].startsWith(`${file}:`));
  const ofEngines = (key) => engines.includes(key.split(" ")[0]);
  const expected = reference.keys.filter((key) => inScope(key) && ofEngines(key));
  const got = answerKeys(measured.issues, engines).filter(inScope);
  const problems = [];
  if (measured.isError) problems.push(`isError: ${String(measured.text ?? "").slice(0, 300)}`);
  for (const [engine, status] of Object.entries(measured.engines ?? {}))
    if (status.status === "error" || (engines.includes(engine) && status.status !== "ok"))
      problems.push(`engine ${engine} ${status.status}${status.code ? ` (${status.code})` : ""}${status.message ? `: ${status.message.slice(0, 200)}` : ""}`);
  if (measured.engines === undefined && measured.requireEngines !== false) problems.push("no engine statuses in the answer");
  if (reference.failed) problems.push(`cold reference failed: ${reference.failed}`);
  const { missing, extra: extraKeys } = compareKeys(expected, got);
  if (missing.length || extraKeys.length)
    problems.push(
      `issues differ from the cold run: missing ${JSON.stringify(missing.slice(0, 5))}, not in the cold run ${JSON.stringify(extraKeys.slice(0, 5))}`,
    );
  if (edit && !unchanged && previous !== null && JSON.stringify(previous) === JSON.stringify(reference.keys))
    problems.push("the edit did not change the expected diagnostics (a stale answer would pass)");
  if (unchanged && previous !== null && JSON.stringify(previous) !== JSON.stringify(reference.keys))
    problems.push("the expected diagnostics changed on a no-edit step");
  if (written.length) problems.push(`wrote into the project tree: ${written.slice(0, 5).join(", ")}`);
  const row = {
    group,
    label,
    ms: measured.ms,
    coldMs: reference.ms,
    ratio: measured.ms / reference.ms,
    issues: got.length,
    mode: measured.mode ?? "",
    problems,
    ...extra,
  };
  rows.push(row);
  for (const problem of problems) fail(`${group ? `${group}: ` : ""}${label}: ${problem}`);
  project.rebase();
  return row;
}

/** The steps measured so far. */
export const stepRows = () => rows;

/** The table of steps: time, cold time right after, ratio, tsc mode, issues, and whether the answer was right. */
export function printSteps(title) {
  console.log(`${title}; load average ${loadStart.toFixed(2)} at the start, ${loadavg()[0].toFixed(2)} now\n`);
  console.log("| project | step | time (ms) | cold run right after (ms) | ratio | mode | issues | equal to the cold run |");
  console.log("|---|---|---:|---:|---:|---|---:|---|");
  for (const row of rows)
    console.log(
      `| ${row.group} | ${row.label} | ${row.ms.toFixed(0)} | ${row.coldMs.toFixed(0)} | ${row.ratio.toFixed(3)} | ${row.mode} | ${row.issues} | ${row.problems.length ? "**NO**" : "yes"} |`,
    );
}

/** The record's state directories: the tracked roots' (by Signalint's own rule) and every one under the bench's root. */
async function daemonStateDirs() {
  const dirs = new Set();
  for (const { root, environment } of roots.values()) if (existsSync(root)) dirs.add(await stateDirOf(root, environment));
  const recordName = basename(code.recordFile(TEMP_ROOT));
  const walk = (dir, depth) => {
    if (depth > 8 || !existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory() && entry.name !== "node_modules") walk(join(dir, entry.name), depth + 1);
      else if (entry.name === recordName) dirs.add(dir);
    }
  };
  walk(TEMP_ROOT, 0);
  return [...dirs];
}

/** `daemon stop` for one root in one environment (what a user runs). */
export function stopDaemon(root, environment = env()) {
  if (existsSync(root)) spawnSync(process.execPath, [BUNDLE, "daemon", "stop"], { cwd: root, env: environment, encoding: "utf8" });
}

/** Stop the daemons this bench started: `daemon stop` per tracked root, then SIGKILL to any recorded daemon still alive. */
export async function stopDaemons() {
  const runtime = runtimeFor(env());
  for (const { root, environment } of roots.values()) stopDaemon(root, environment);
  for (const dir of await daemonStateDirs()) {
    const record = await code.readDaemonRecord(runtime, dir);
    if (!record) continue;
    const identity = await code.identifyDaemon(runtime, record);
    if (identity === "gone" || identity === "other") continue;
    fail(`the daemon of ${record.root} (pid ${record.pid}, record in ${dir}) was still alive after \`daemon stop\`; killed`);
    try {
      process.kill(record.pid, "SIGKILL");
    } catch {
      // gone meanwhile
    }
  }
}

/** Stop daemons, verify guarded trees, remove the bench's directories; exit 1 on any failure. */
export async function finish() {
  await stopDaemons();
  for (const { root, exclude, before } of guarded) {
    const changes = treeChanges(root, before, exclude);
    if (changes.length) fail(`the bench changed ${root}: ${changes.slice(0, 10).join(", ")}`);
  }
  rmSync(TEMP_ROOT, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
  if (failures.length) {
    console.error(`\n${failures.length} failure(s):\n${failures.map((f) => `- ${f}`).join("\n")}`);
    process.exit(1);
  }
}

/** Run `main` and `finish()` whatever happens (a thrown error is a failure). */
export async function runBench(main) {
  try {
    await main();
  } catch (error) {
    fail(String(error?.stack ?? error));
  }
  await finish();
}

// ---- Signalint clients --------------------------------------------------------------------------------------------

/** A new MCP session on the bundle in `dir` (the SDK client); `initializeMs` is spawn → initialize answered. */
export async function openSession(dir, environment = env(), name = "bench") {
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
  trackRoot(dir, environment);
  const client = new Client({ name, version: "1" });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BUNDLE],
    cwd: dir,
    env: environment,
    stderr: process.env.BENCH_STDERR ? "inherit" : "ignore",
  });
  const started = performance.now();
  await client.connect(transport);
  return { client, transport, initializeMs: performance.now() - started };
}

const CALL_TIMEOUT_MS = 60 * 60_000;

/**
 * One MCP tool call timed from the client, with every issue of its answer (the check's snapshot for its engines'
 * statuses and tsc mode when the response leaves them out).
 */
export async function mcpCheck(client, tool, args) {
  const started = performance.now();
  // The SDK's default request timeout (60 s) is shorter than a real repository's first check under load (Hono: the
  // first check failed with "Request timed out" while the daemon went on checking): a check's own timeouts apply.
  const result = await client.callTool({ name: tool, arguments: args }, undefined, { timeout: CALL_TIMEOUT_MS });
  const ms = performance.now() - started;
  const bytes = Buffer.byteLength(JSON.stringify(result));
  const response = result.structuredContent ?? {};
  if (result.isError) return { ms, isError: true, text: result.content?.[0]?.text, issues: [] };
  // after_edit_check answers in brief: the whole check (every issue of the named files) is its snapshot.
  const brief = tool === "after_edit_check";
  const answer =
    response.checkId && (brief || !response.cache)
      ? (await client.callTool({ name: "get_diagnostic_snapshot", arguments: { checkId: response.checkId } })).structuredContent
      : null;
  const issues = brief ? (answer?.issues ?? []) : await mcpIssues(client, response);
  const cache = response.cache ?? answer?.cache;
  return {
    ms,
    isError: false,
    issues,
    engines: response.engines ?? answer?.engines,
    status: response.status,
    mode: cache?.tsc ? `${cache.tsc.mode ?? ""}${cache.tsc.misses !== undefined ? ` (${cache.tsc.misses} re-checked)` : ""}` : "",
    response,
    bytes,
    serverMs: answer?.durationMs,
  };
}

/** `signalint-mcp check --format json` (a new process; its start included), its report's issues and engines. */
export function cliCheck(dir, environment = env(), args = []) {
  trackRoot(dir, environment);
  const started = performance.now();
  const run = spawnSync(process.execPath, [BUNDLE, "check", "--format", "json", ...args], {
    cwd: dir,
    env: environment,
    encoding: "utf8",
    maxBuffer: 1024 ** 3,
  });
  const ms = performance.now() - started;
  let report = null;
  try {
    report = JSON.parse(run.stdout);
  } catch {
    return { ms, isError: true, text: `check printed no report (exit ${run.status}): ${run.stderr.slice(0, 300)}`, issues: [] };
  }
  return { ms, isError: false, issues: report.issues ?? [], engines: report.engines, status: report.status, report };
}
