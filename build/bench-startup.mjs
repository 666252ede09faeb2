// npm run bench:startup: time from spawn to the initialize answer (median of RUNS) and the server's peak RSS after two
// check_projects, for the bundle on Node, the bundle on Deno and the standalone binary. Engines run in their own
// processes and are not counted in the RSS. Each server starts from nothing (its own state and cache homes under the
// harness's root, no daemon) in a scratch copy of fixtures/systemic-ts (the fixture itself is snapshotted and must be
// untouched); before each of a way's two checks an error is edited in or out, and each answer must equal tsc and oxlint run
// directly right after (bench-harness.mjs), else the bench exits 1.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { BUNDLE, directTscOxlint, freshEnv, guardTree, median, Project, printSteps, ROOT, runBench, scratchCopy, step } from "./bench-harness.mjs";
import { INITIALIZE, startServer } from "./jsonrpc-stdio.mjs";

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const HOST = `${process.platform === "win32" ? "win" : process.platform}-${process.arch}`;
const BINARY = join(ROOT, "dist", "bin", `signalint-mcp-${HOST}`);
const DENO = join(ROOT, "dist", "deno", "package", process.platform === "win32" ? "deno.exe" : "deno");
const ERROR_LINE = '\nexport const benchBroken: number = "not a number";\n';

const WAYS = [
  ["bundle on Node", process.execPath, [BUNDLE]],
  ["bundle on Deno", DENO, ["run", "--allow-read", "--allow-write", "--allow-run", "--allow-env", BUNDLE]],
  ["binary", BINARY, []],
];

await runBench(async () => {
  const dir = scratchCopy(guardTree(join(ROOT, "fixtures", "systemic-ts")));
  const project = new Project(dir, { reference: () => directTscOxlint(dir) });
  await project.baseline();
  let broken = false;
  const toggle = () => {
    if (broken) project.replace("src/audit.ts", ERROR_LINE, "");
    else project.replace("src/audit.ts", /$/, ERROR_LINE);
    broken = !broken;
  };
  // In-process (no daemon): the RSS is then the whole server's, check included, as the table says; with a daemon the
  // check ran in the daemon and the front's RSS left it out.
  const start = (command, args) => startServer(command, args, { cwd: dir, env: freshEnv({ SIGNALINT_DAEMON: "0" }) });
  let id = 10;
  const call = async (server, name, args) => JSON.parse(await server.request(id++, "tools/call", { name, arguments: args })).result;
  const rows = [];
  for (const [label, command, args] of WAYS) {
    if (!existsSync(command)) {
      rows.push([label, "not built", "", ""]);
      continue;
    }
    const times = [];
    for (let i = 0; i < RUNS; i++) {
      const server = start(command, args);
      await server.request(1, "initialize", INITIALIZE);
      times.push(performance.now() - server.started);
      server.stop();
    }
    const server = start(command, args);
    await server.request(1, "initialize", INITIALIZE);
    server.notify("notifications/initialized");
    // Two checks, an edit before each: the second is the one a server that repeated its previous answer gets wrong.
    for (const which of ["first", "second"])
      await step(project, {
        group: "systemic-ts",
        label: `${which} check_project, ${label}`,
        edit: toggle,
        engines: ["tsc", "oxlint"],
        measure: async () => {
          const started = performance.now();
          const result = await call(server, "check_project", {});
          const ms = performance.now() - started;
          const response = result.structuredContent ?? {};
          const issues = [...(response.remainingIssues ?? [])];
          for (const cluster of response.clusters ?? [])
            issues.push(...(await call(server, "get_issue_detail", { clusterId: cluster.clusterId })).structuredContent.issues);
          return { ms, isError: Boolean(result.isError), text: result.content?.[0]?.text, issues, engines: response.engines };
        },
      });
    const status = readFileSync(`/proc/${server.child.pid}/status`, "utf8");
    const peak = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
    const now = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
    server.stop();
    rows.push([label, median(times).toFixed(0), peak.toFixed(1), now.toFixed(1)]);
  }
  printSteps("each way's check_project calls, each after an edit, compared with tsc and oxlint run directly right after it");
  console.log(
    `\nstartup: spawn → initialize answered, median of ${RUNS}; RSS of the server process after two check_project calls (systemic-ts, an edit before each)\n`,
  );
  console.log("| way | startup (ms) | peak RSS (MB) | RSS after check (MB) |");
  console.log("|---|---:|---:|---:|");
  for (const row of rows) console.log(`| ${row.join(" | ")} |`);
});
