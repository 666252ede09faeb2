// npm run bench:sessions (issue 20): what a new MCP session, a hook and a second CLI check cost while the project's
// daemon is alive. Every row is a ratio to a cold tsc of the same project in the same run (`tsc --noEmit`, `tsc -b`
// for the references monorepo), the one run right after that step on the same tree, and every row's tsc diagnostics
// must equal that cold run's (else the bench says which row and exits 1). The daemon is forced on (SIGNALINT_DAEMON=1, also under CI), with a state
// directory and a cache directory of the bench's own, and stopped at the end, also when a step fails.
// BENCH_PROJECTS=1000,5000,refs (default) picks the projects: a number is a generated single-tsconfig project of that
// many modules, `refs` the references monorepo (BENCH_REFS_FILES modules, default 2,000); BENCH_RUNS cold runs before the steps;
// BENCH_TS=5|7; BENCH_TSC_ONLY=1 leaves oxlint out; BENCH_STDERR=1 shows the servers' stderr.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { coldTsc, generateFlat, generateRefs, mcpIssues, median, ROOT, tscKeysOf, TYPESCRIPTS } from "./bench-projects.mjs";

const BUNDLE = join(ROOT, "dist", "signalint-mcp.mjs");
const PROJECTS = (process.env.BENCH_PROJECTS ?? "1000,5000,refs").split(",").map((name) => name.trim());
const REFS_FILES = Number(process.env.BENCH_REFS_FILES ?? 2000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const [TS_LABEL, TSC] = TYPESCRIPTS[process.env.BENCH_TS === "7" ? 7 : 5];
const TSC_ONLY = Boolean(process.env.BENCH_TSC_ONLY);
/** The environment of every Signalint process the bench starts: daemon on, private state and cache directories (both outside the project, as by default). */
function signalintEnv(stateDir, cacheDir) {
  return {
    ...process.env,
    SIGNALINT_DAEMON: "1",
    SIGNALINT_STATE_DIR: stateDir,
    SIGNALINT_CACHE_DIR: cacheDir,
    // Every issue inline: a big project's cluster detail would otherwise go to an artifact.
    SIGNALINT_STRUCTURED_MAX_BYTES: "16777216",
  };
}

/** A Signalint process run to its end (its start included in `ms`), with stdin given. */
function runTimed(command, args, options) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr, ms: performance.now() - started }));
    child.stdin.end(options.input ?? "");
  });
}

/** A new MCP session on the bundle: the SDK client spawns the front; `initializeMs` is spawn → initialize answered. */
async function openSession(dir, env) {
  const client = new Client({ name: "bench-sessions", version: "1" });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BUNDLE],
    cwd: dir,
    env,
    stderr: process.env.BENCH_STDERR ? "inherit" : "ignore",
  });
  const started = performance.now();
  await client.connect(transport);
  return { client, initializeMs: performance.now() - started };
}

/** The tsc keys of the Claude Code hook's stderr lines (`file:line:col severity rule (engine): message`). */
function hookKeys(stderr) {
  return stderr
    .split("\n")
    .map((line) => /^(.+?):(\d+):\d+ (?:error|warning) (TS\d+) \(tsc\)/.exec(line))
    .filter(Boolean)
    .map((m) => `${m[1]}:${m[2]}:${m[3]}`)
    .sort();
}

/** The hook command `init --hooks` installs (the absolute form: the portable one would fetch a release from npm). */
function installedHook(dir, env) {
  const printed = spawnSync(process.execPath, [BUNDLE, "init", "--hooks", "--absolute", "--print"], { cwd: dir, env, encoding: "utf8" });
  const json = printed.stdout.split("# Claude Code hook")[1]?.split("\n").slice(1).join("\n").split("\n# ")[0];
  const command = JSON.parse(json ?? "null")?.hooks?.PostToolUse?.[0]?.hooks?.[0]?.command;
  if (typeof command !== "string") throw new Error(`init --hooks --print named no hook command:\n${printed.stdout}${printed.stderr}`);
  return command;
}

/** A one-line edit of a leaf module that adds a type error (so a stale answer would differ from the cold run). */
function editLeaf(dir, file) {
  const path = join(dir, file);
  const before = readFileSync(path, "utf8");
  const after = before.replace("x * 3 +", 'x * "3" +');
  if (after === before) throw new Error(`${file}: nothing to edit`);
  writeFileSync(path, after);
}

/** Stop the project's daemon (`daemon stop`), and kill it through its record if it is still there. */
function stopDaemon(dir, env) {
  const record = join(env.SIGNALINT_STATE_DIR, "daemon.record");
  const pid = existsSync(record) ? JSON.parse(readFileSync(record, "utf8")).pid : null;
  spawnSync(process.execPath, [BUNDLE, "daemon", "stop"], { cwd: dir, env, encoding: "utf8" });
  if (pid === null) return;
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // Stopped.
  }
}

/** The rows of one project: each a time, its ratio to the cold tsc, and whether its diagnostics equal a cold run's. */
async function measure(name) {
  const refs = name.startsWith("refs");
  const files = refs ? REFS_FILES : Number(name);
  const dir = mkdtempSync(join(tmpdir(), "signalint-sessions-"));
  const cacheDir = mkdtempSync(join(tmpdir(), "signalint-sessions-cache-"));
  const stateDir = mkdtempSync(join(tmpdir(), "signalint-sessions-state-"));
  const env = signalintEnv(stateDir, cacheDir);
  const layout = (refs ? generateRefs : generateFlat)(dir, { tsc: TSC, files, tscOnly: TSC_ONLY });
  const colds = [];
  const cold = () => {
    const run = coldTsc(dir, TSC, { refs });
    colds.push(run.ms);
    return run;
  };
  for (let i = 0; i < RUNS; i++) cold();
  const rows = [];
  // Each row's reference is the cold run right after it, on the same tree (its diagnostics are the row's expected
  // ones): on a machine whose load moves during the run, a step and its reference see the same load.
  const row = (label, ms, keys, reference, extra = {}) =>
    rows.push({ label, ms, ratio: ms / reference.ms, correct: JSON.stringify(keys) === JSON.stringify(reference.keys), issues: keys.length, ...extra });
  const expectedFor = (only) => {
    const run = cold();
    return { ms: run.ms, keys: run.keys.filter((key) => !only || key.startsWith(`${only}:`)) };
  };
  const sessionCheck = async (label, tool, args) => {
    const session = await openSession(dir, env);
    const started = performance.now();
    const result = await session.client.callTool({ name: tool, arguments: args });
    const ms = performance.now() - started;
    if (result.isError) throw new Error(`${label}: ${result.content[0]?.text}`);
    const keys = tscKeysOf(await mcpIssues(session.client, result.structuredContent));
    await session.client.close();
    row(label, ms, keys, expectedFor(args.files?.[0]), { initializeMs: session.initializeMs, mode: result.structuredContent.cache?.tsc?.mode ?? "" });
    return session.initializeMs;
  };
  let memory = null;
  try {
    // An earlier session: it starts the daemon, which builds the warm program, and exits.
    await sessionCheck("first session's check_project (starts the daemon)", "check_project", {});
    const initialize = [await sessionCheck("new session, first check_project, unchanged project", "check_project", {})];
    editLeaf(dir, layout.leaf);
    initialize.push(await sessionCheck("leaf edited while no client ran, new session's check_files", "check_files", { files: [layout.leaf] }));
    editLeaf(dir, layout.another);
    const hookInput = JSON.stringify({ cwd: dir, hook_event_name: "PostToolUse", tool_name: "Edit", tool_input: { file_path: join(dir, layout.another) } });
    const hook = await runTimed("/bin/sh", ["-c", installedHook(dir, env)], { cwd: dir, env, input: hookInput });
    if (hook.status !== 2 && hook.status !== 0) throw new Error(`hook exited ${hook.status}: ${hook.stderr}`);
    row("`hook` after a leaf edit (process start included)", hook.ms, hookKeys(hook.stderr), expectedFor(layout.another));
    editLeaf(dir, layout.third);
    const cliCheck = () => runTimed(process.execPath, [BUNDLE, "check", "--format", "json"], { cwd: dir, env });
    for (const label of ["first CLI `check` (daemon alive, after a leaf edit)", "second CLI `check`"]) {
      const check = await cliCheck();
      const report = JSON.parse(check.stdout || "null");
      if (!report) throw new Error(`${label} printed no report (exit ${check.status}): ${check.stderr}`);
      row(label, check.ms, tscKeysOf(report.issues), expectedFor(null));
    }
    const status = spawnSync(process.execPath, [BUNDLE, "daemon", "status", "--json"], { cwd: dir, env, encoding: "utf8" });
    const info = JSON.parse(status.stdout);
    memory = { daemon: info.rssBytes / 2 ** 20, hosts: info.hostsRssBytes / 2 ** 20 };
    const coldMs = median(colds);
    const name = refs ? `references monorepo (${files} files)` : `${files} files`;
    return { name, refs, coldMs, coldRange: [Math.min(...colds), Math.max(...colds)], rows, initializeMs: Math.max(...initialize), memory };
  } finally {
    stopDaemon(dir, env);
    rmSync(dir, { recursive: true, force: true });
    rmSync(cacheDir, { recursive: true, force: true });
    rmSync(stateDir, { recursive: true, force: true });
  }
}

const TARGETS = {
  "new session, first check_project, unchanged project": 0.1,
  "leaf edited while no client ran, new session's check_files": 0.15,
  "`hook` after a leaf edit (process start included)": 0.15,
  "second CLI `check`": 0.15,
};

const loadBefore = loadavg()[0];
const results = [];
for (const name of PROJECTS) results.push(await measure(name));
console.log(
  `sessions sharing one daemon, ${TS_LABEL}; each ratio is to the cold tsc run right after that step (${RUNS} more before the steps); load average ${loadBefore.toFixed(2)} before, ${loadavg()[0].toFixed(2)} after\n`,
);
console.log(`| step | ${results.map((r) => r.name).join(" | ")} | target |`);
console.log(`|---|${results.map(() => "---:|").join("")}---|`);
const range = (r) => `${r.coldRange[0].toFixed(0)}–${r.coldRange[1].toFixed(0)}`;
console.log(
  `| cold tsc (ms): median (range) of the run | ${results.map((r) => `${r.coldMs.toFixed(0)} (${range(r)})${r.refs ? " `tsc -b`" : ""}`).join(" | ")} |  |`,
);
for (const [index, { label }] of results[0].rows.entries()) {
  const cells = results.map(({ rows }) => `${rows[index].ratio.toFixed(3)} (${rows[index].ms.toFixed(0)} ms)${rows[index].correct ? "" : " WRONG"}`);
  console.log(`| ${label} | ${cells.join(" | ")} | ${TARGETS[label] !== undefined ? `≤ ${TARGETS[label].toFixed(2)}` : ""} |`);
}
console.log(
  `| MCP front: spawn → initialize answered (ms, slowest of the new sessions) | ${results.map((r) => r.initializeMs.toFixed(0)).join(" | ")} | ≤ 150 ms |`,
);
const mb = (value) => (value === undefined || value === null ? "?" : value.toFixed(0));
console.log(`| daemon RSS / its warm hosts' RSS (MB) | ${results.map(({ memory: m }) => `${mb(m?.daemon)} / ${mb(m?.hosts)}`).join(" | ")} |  |`);
console.log("\ntsc mode of the MCP rows and tsc issues per row (each equal to a cold run's unless marked WRONG):\n");
for (const { name, rows } of results) console.log(`- ${name}: ${rows.map((r) => `${r.label}: ${r.mode || "-"}, ${r.issues}`).join("; ")}`);
const wrong = results.flatMap(({ name, rows }) => rows.filter((r) => !r.correct).map((r) => `${name}: ${r.label}`));
if (wrong.length) {
  console.error(`\nDiagnostics differ from a cold tsc run in: ${wrong.join("; ")}`);
  process.exit(1);
}
