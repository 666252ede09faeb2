// npm run bench:sessions (issue 20): what a new MCP session, a hook and a second CLI check cost while the project's
// daemon is alive. Every row is a ratio to a cold tsc of the same project in the same run (`tsc --noEmit`, `tsc -b`
// for the references monorepo), the one run right after that step on the same tree, and every row's tsc diagnostics
// must equal that cold run's, and every edit adds a type error (else the bench says which row and exits 1; bench-harness.mjs).
// The daemon is forced on (SIGNALINT_DAEMON=1, also under CI), with the harness's private state and cache homes, and
// stopped at the end through its current record, also when a step fails.
// BENCH_PROJECTS=1000,5000,refs (default) picks the projects: a number is a generated single-tsconfig project of that
// many modules, `refs` the references monorepo (BENCH_REFS_FILES modules, default 2,000); BENCH_RUNS cold runs before the steps;
// BENCH_TS=5|7; BENCH_TSC_ONLY=1 leaves oxlint out; BENCH_STDERR=1 shows the servers' stderr.
import { spawn, spawnSync } from "node:child_process";
import { join } from "node:path";
import { generateFlat, generateRefs, TYPESCRIPTS } from "./bench-projects.mjs";
import {
  BUNDLE,
  cliCheck,
  coldTsc,
  env as benchEnv,
  mcpCheck,
  median,
  openSession,
  Project,
  printSteps,
  runBench,
  step,
  stopDaemon,
  tempDir,
  trackRoot,
} from "./bench-harness.mjs";

const PROJECTS = (process.env.BENCH_PROJECTS ?? "1000,5000,refs").split(",").map((name) => name.trim());
const REFS_FILES = Number(process.env.BENCH_REFS_FILES ?? 2000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const [TS_LABEL, TSC] = TYPESCRIPTS[process.env.BENCH_TS === "7" ? 7 : 5];
const TSC_ONLY = Boolean(process.env.BENCH_TSC_ONLY);
/** The environment of every Signalint process the bench starts: daemon on, the harness's private state and cache homes. */
const signalintEnv = () => benchEnv({ SIGNALINT_DAEMON: "1" });

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

/** The issues of the Claude Code hook's stderr lines (`file:line:col severity rule (engine): message`). */
function hookIssues(stderr) {
  return stderr
    .split("\n")
    .map((line) => /^(.+?):(\d+):(\d+) (?:error|warning) (\S+) \((\w+)\)/.exec(line))
    .filter(Boolean)
    .map((m) => ({ file: m[1], line: Number(m[2]), col: Number(m[3]), rule: m[4], engine: m[5] }));
}

/** The hook command `init --hooks` installs (the absolute form: the portable one would fetch a release from npm). */
function installedHook(dir, env) {
  const printed = spawnSync(process.execPath, [BUNDLE, "init", "--hooks", "--absolute", "--print"], { cwd: dir, env, encoding: "utf8" });
  const json = printed.stdout.split("# Claude Code hook")[1]?.split("\n").slice(1).join("\n").split("\n# ")[0];
  const command = JSON.parse(json ?? "null")?.hooks?.PostToolUse?.[0]?.hooks?.[0]?.command;
  if (typeof command !== "string") throw new Error(`init --hooks --print named no hook command:\n${printed.stdout}${printed.stderr}`);
  return command;
}

/** The rows of one project: each a time, its ratio to the cold tsc run right after it, and whether its answer equals it. */
async function measure(name) {
  const refs = name.startsWith("refs");
  const files = refs ? REFS_FILES : Number(name);
  const dir = tempDir("sessions-");
  const env = signalintEnv();
  trackRoot(dir, env);
  const layout = (refs ? generateRefs : generateFlat)(dir, { tsc: TSC, files, tscOnly: TSC_ONLY });
  const group = refs ? `references monorepo (${files} files)` : `${files} files`;
  const colds = [];
  const project = new Project(dir, {
    reference: () => {
      const run = coldTsc(dir, { tsc: TSC, build: refs });
      colds.push(run.ms);
      return run;
    },
  });
  for (let i = 0; i < RUNS; i++) await project.baseline();
  const rows = [];
  const initialize = [];
  const sessionCheck = async (label, tool, args, options = {}) => {
    const session = await openSession(dir, env, "bench-sessions");
    const row = await step(project, {
      group,
      label,
      files: args.files ?? null,
      ...options,
      measure: () => mcpCheck(session.client, tool, args),
    });
    await session.client.close();
    initialize.push(session.initializeMs);
    rows.push({ ...row, initializeMs: session.initializeMs });
  };
  /** A one-line edit of a leaf module that adds a type error (a stale answer would differ from the cold run). */
  const editLeaf = (file) => () => project.replace(file, "x * 3 +", 'x * "3" +');
  let memory = null;
  try {
    // An earlier session: it starts the daemon, which builds the warm program, and exits.
    await sessionCheck("first session's check_project (starts the daemon)", "check_project", {}, { unchanged: true });
    initialize.length = 0;
    await sessionCheck("new session, first check_project, unchanged project", "check_project", {}, { unchanged: true });
    await sessionCheck("leaf edited while no client ran, new session's check_files", "check_files", { files: [layout.leaf] }, { edit: editLeaf(layout.leaf) });
    const hookInput = JSON.stringify({ cwd: dir, hook_event_name: "PostToolUse", tool_name: "Edit", tool_input: { file_path: join(dir, layout.another) } });
    rows.push(
      await step(project, {
        group,
        label: "`hook` after a leaf edit (process start included)",
        edit: editLeaf(layout.another),
        files: [layout.another],
        measure: async () => {
          const hook = await runTimed("/bin/sh", ["-c", installedHook(dir, env)], { cwd: dir, env, input: hookInput });
          const failed = hook.status !== 2 && hook.status !== 0;
          // The hook prints no engine statuses: an engine that failed shows as a line of its own (not an issue).
          return { ms: hook.ms, issues: hookIssues(hook.stderr), isError: failed, text: `hook exited ${hook.status}: ${hook.stderr}`, requireEngines: false };
        },
      }),
    );
    rows.push(
      await step(project, {
        group,
        label: "first CLI `check` (daemon alive, after a leaf edit)",
        edit: editLeaf(layout.third),
        measure: () => cliCheck(dir, env),
      }),
    );
    // The same answer again: nothing changed since the first CLI check (its expected answer is that one's).
    rows.push(await step(project, { group, label: "second CLI `check`", unchanged: true, measure: () => cliCheck(dir, env) }));
    const status = spawnSync(process.execPath, [BUNDLE, "daemon", "status", "--json"], { cwd: dir, env, encoding: "utf8" });
    const info = JSON.parse(status.stdout || "{}");
    memory = { daemon: info.rssBytes / 2 ** 20, hosts: info.hostsRssBytes / 2 ** 20 };
  } finally {
    stopDaemon(dir, env);
  }
  return { name: group, refs, coldMs: median(colds), coldRange: [Math.min(...colds), Math.max(...colds)], rows, initializeMs: Math.max(...initialize), memory };
}

const TARGETS = {
  "new session, first check_project, unchanged project": 0.1,
  "leaf edited while no client ran, new session's check_files": 0.15,
  "`hook` after a leaf edit (process start included)": 0.15,
  "second CLI `check`": 0.15,
};

await runBench(async () => {
  const results = [];
  for (const name of PROJECTS) results.push(await measure(name));
  printSteps(`sessions sharing one daemon, ${TS_LABEL}; each ratio is to the cold tsc run right after that step (${RUNS} more before the steps)`);
  console.log(`\n| step | ${results.map((r) => r.name).join(" | ")} | target |`);
  console.log(`|---|${results.map(() => "---:|").join("")}---|`);
  const range = (r) => `${r.coldRange[0].toFixed(0)}–${r.coldRange[1].toFixed(0)}`;
  console.log(
    `| cold tsc (ms): median (range) of the run | ${results.map((r) => `${r.coldMs.toFixed(0)} (${range(r)})${r.refs ? " \`tsc -b\`" : ""}`).join(" | ")} |  |`,
  );
  for (const [index, { label }] of results[0].rows.entries()) {
    const cells = results.map(({ rows }) => `${rows[index].ratio.toFixed(3)} (${rows[index].ms.toFixed(0)} ms)${rows[index].problems.length ? " WRONG" : ""}`);
    console.log(`| ${label} | ${cells.join(" | ")} | ${TARGETS[label] !== undefined ? `≤ ${TARGETS[label].toFixed(2)}` : ""} |`);
  }
  console.log(
    `| MCP front: spawn → initialize answered (ms, slowest of the new sessions) | ${results.map((r) => r.initializeMs.toFixed(0)).join(" | ")} | ≤ 150 ms |`,
  );
  const mb = (value) => (value === undefined || value === null || Number.isNaN(value) ? "?" : value.toFixed(0));
  console.log(`| daemon RSS / its warm hosts' RSS (MB) | ${results.map(({ memory: m }) => `${mb(m?.daemon)} / ${mb(m?.hosts)}`).join(" | ")} |  |`);
});
