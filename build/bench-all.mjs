// npm run bench:all: every bench whose tables docs/benchmarks.md publishes, one after another, each a separate
// process on the harness (bench-harness.mjs: every step compared with a cold run right after it, exit 1 on any
// mismatch). Prints the tables with the command, commit, Node version and load average of each; `--write` replaces
// the section between the bench:all markers of docs/benchmarks.md (and cause-table.mjs its own). Stops at the first
// bench that fails, and writes nothing then. `--quick`: small sizes (a check that the benches run and pass, not
// figures to publish). Run `npm run build` first (bench:all does), on an idle machine for figures worth recording.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { ROOT } from "./bench-projects.mjs";

const QUICK = process.argv.includes("--quick");
const WRITE = process.argv.includes("--write");
const DOC = join(ROOT, "docs", "benchmarks.md");

/** [title, environment, script]: the documented sizes, or the quick ones. */
const BENCHES = QUICK
  ? [
      ["check_project vs. the engines run directly", { BENCH_RUNS: "1", BENCH_FIXTURES: "sparse,systemic-ts" }, "bench-check.mjs"],
      ["Payload bytes", { BENCH_FIXTURES: "systemic-ts" }, "bench-payload.mjs"],
      ["Startup and memory", { BENCH_RUNS: "3" }, "bench-startup.mjs"],
      ["Warm at scale", { BENCH_FILES: "200", BENCH_TS: "5", BENCH_RUNS: "1" }, "bench-latency.mjs"],
      ["Warm from disk", { BENCH_RESTART: "1", BENCH_FILES: "200", BENCH_TS: "5", BENCH_RUNS: "1", BENCH_THINK_MS: "2000" }, "bench-latency.mjs"],
      ["Sessions share one daemon", { BENCH_PROJECTS: "200", BENCH_RUNS: "1" }, "bench-sessions.mjs"],
      ["The agent fix loop", {}, "bench-workflow.mjs"],
      ["Engine fixes", { BENCH_FILES: "200", BENCH_RUNS: "1" }, "bench-fix.mjs"],
    ]
  : [
      ["check_project vs. the engines run directly", { BENCH_RUNS: "5" }, "bench-check.mjs"],
      ["Payload bytes", {}, "bench-payload.mjs"],
      ["Startup and memory", {}, "bench-startup.mjs"],
      ["Warm at scale", { BENCH_TS: "5,7", BENCH_RUNS: "3" }, "bench-latency.mjs"],
      ["Warm at scale, references monorepo", { BENCH_PROJECT: "refs", BENCH_TS: "5", BENCH_RUNS: "3" }, "bench-latency.mjs"],
      ["Warm from disk", { BENCH_RESTART: "1", BENCH_TS: "5,7", BENCH_RUNS: "3" }, "bench-latency.mjs"],
      ["Sessions share one daemon", { BENCH_PROJECTS: "1000,refs", BENCH_RUNS: "3" }, "bench-sessions.mjs"],
      ["The agent fix loop", {}, "bench-workflow.mjs"],
      ["Engine fixes", { BENCH_RUNS: "3" }, "bench-fix.mjs"],
    ];

const git = (...args) => spawnSync("git", args, { cwd: ROOT, encoding: "utf8" }).stdout.trim();
const commit = `${git("rev-parse", "--short", "HEAD")}${git("status", "--porcelain", "--untracked-files=no") ? " (with uncommitted changes)" : ""}`;
const sections = [];
for (const [title, environment, script] of BENCHES) {
  const command = `${Object.entries(environment)
    .map(([name, value]) => `${name}=${value} `)
    .join("")}node build/${script}`;
  const load = loadavg()[0];
  const started = new Date();
  console.error(`bench:all: ${command}`);
  const run = spawnSync(process.execPath, [join(ROOT, "build", script)], {
    cwd: ROOT,
    env: { ...process.env, ...environment },
    encoding: "utf8",
    maxBuffer: 1024 ** 3,
    stdio: ["ignore", "pipe", "inherit"],
  });
  process.stdout.write(run.stdout);
  if (run.status !== 0) {
    console.error(`bench:all: \`${command}\` failed (exit ${run.status}); nothing written`);
    process.exit(1);
  }
  sections.push(
    [
      `### ${title}`,
      "",
      `\`${command}\` — commit ${commit}, ${started.toISOString().slice(0, 16).replace("T", " ")} UTC, Node ${process.version}, ${cpus().length} cores, load average ${load.toFixed(2)} at its start, ${loadavg()[0].toFixed(2)} at its end${QUICK ? "; quick sizes (`--quick`)" : ""}.`,
      "",
      run.stdout.trim(),
    ].join("\n"),
  );
}
// The cause corpus writes its own table (between its markers) with --write, and checks its own expectations.
const cause = spawnSync(process.execPath, [join(ROOT, "build", "cause-table.mjs"), ...(WRITE ? ["--write"] : [])], { cwd: ROOT, stdio: "inherit" });
if (cause.status !== 0) {
  console.error("bench:all: build/cause-table.mjs failed");
  process.exit(1);
}
if (WRITE) {
  const doc = readFileSync(DOC, "utf8");
  const [start, end] = ["<!-- bench:all:start -->", "<!-- bench:all:end -->"];
  if (!doc.includes(start) || !doc.includes(end)) throw new Error(`${DOC} has no ${start} … ${end} section`);
  const body = `${start}\n\n${sections.join("\n\n")}\n\n${end}`;
  writeFileSync(DOC, doc.slice(0, doc.indexOf(start)) + body + doc.slice(doc.indexOf(end) + end.length));
  console.error(`bench:all: wrote ${sections.length} tables into docs/benchmarks.md`);
}
