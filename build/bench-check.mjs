// npm run bench: check_project through a real MCP client vs. the same engines (tsc and oxlint, in parallel, as the
// server runs them) run directly, per fixture, on a scratch copy (the fixtures are snapshotted and must be untouched).
// Each run: an edit that adds or removes a type error, a fresh server's first check_project (empty private state and
// cache homes: nothing cached, nothing warm), the engines run directly right after on the same tree; then, 3 s later,
// another edit and the same server's next check_project, and the engines directly again. Every answer is compared with
// the direct run (engine, file, line, col, rule), its isError and every engine's status; any mismatch exits 1
// (bench-harness.mjs). BENCH_RUNS (default 3) runs per fixture; BENCH_FIXTURES=sparse,… picks fixtures.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import {
  directTscOxlint,
  freshEnv,
  guardTree,
  mcpCheck,
  median,
  openSession,
  Project,
  ROOT,
  printSteps,
  runBench,
  scratchCopy,
  step,
  stopDaemon,
} from "./bench-harness.mjs";

const FIXTURES = (process.env.BENCH_FIXTURES ?? "sparse,systemic-ts,mixed-app,scale-app").split(",");
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const ERROR_LINE = '\nexport const benchBroken: number = "not a number";\n';

/** The fixture's first source file (sorted): the one the edits add an error to and remove it from. */
const firstSource = (dir) =>
  `src/${
    readdirSync(join(dir, "src"))
      .filter((name) => /\.tsx?$/.test(name))
      .sort()[0]
  }`;

const table = [];

await runBench(async () => {
  for (const name of FIXTURES) {
    const fixture = guardTree(join(ROOT, "fixtures", name));
    const dir = scratchCopy(fixture);
    const project = new Project(dir, { reference: () => directTscOxlint(dir) });
    await project.baseline();
    const file = firstSource(dir);
    let broken = false;
    const toggle = () => {
      if (broken) project.replace(file, ERROR_LINE, "");
      else project.replace(file, /$/, ERROR_LINE);
      broken = !broken;
    };
    const samples = { fresh: [], direct: [], later: [], rawBytes: 0, resultBytes: 0, issues: 0 };
    for (let run = 0; run < RUNS; run++) {
      const environment = freshEnv();
      const session = await openSession(dir, environment, "bench-check");
      await session.client.listTools();
      let measured;
      const fresh = await step(project, {
        group: name,
        label: `check_project, fresh server (run ${run + 1})`,
        edit: toggle,
        engines: ["tsc", "oxlint"],
        measure: async () => (measured = await mcpCheck(session.client, "check_project", {})),
      });
      samples.fresh.push(fresh.ms);
      samples.direct.push(fresh.coldMs);
      samples.resultBytes = measured.bytes ?? 0;
      samples.issues = measured.response?.totalIssues ?? 0;
      // An agent edits between checks.
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const later = await step(project, {
        group: name,
        label: `check_project 3 s later, after an edit (run ${run + 1})`,
        edit: toggle,
        engines: ["tsc", "oxlint"],
        measure: () => mcpCheck(session.client, "check_project", {}),
      });
      samples.later.push(later.ms);
      await session.client.close();
      stopDaemon(dir, environment);
    }
    samples.rawBytes = (await directTscOxlint(dir)).bytes;
    table.push({ name, ...samples });
  }
  printSteps(`check_project vs. tsc and oxlint run directly right after each step, ${RUNS} runs per fixture, Node ${process.version}`);
  console.log(
    `\n| fixture | issues | engines direct (ms) | check_project, fresh server (ms) | overhead | check_project 3 s later, after an edit (ms) | raw output (B) | CallToolResult both (B) |`,
  );
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|");
  for (const row of table) {
    const direct = median(row.direct);
    const fresh = median(row.fresh);
    console.log(
      `| ${row.name} | ${row.issues} | ${direct.toFixed(0)} | ${fresh.toFixed(0)} | ${(((fresh - direct) / direct) * 100).toFixed(1)}% | ${median(row.later).toFixed(0)} | ${row.rawBytes} | ${row.resultBytes} |`,
    );
  }
});
