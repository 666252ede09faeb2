// npm run bench:startup: time from spawn to the initialize answer (median of RUNS) and the server's peak RSS after a
// check_project, for the bundle on Node, the bundle on Deno and the standalone binary. Engines run in their own
// processes and are not counted in the RSS.
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { INITIALIZE, startServer } from "./jsonrpc-stdio.mjs";

const ROOT = resolve(import.meta.dirname, "..");
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const HOST = `${process.platform === "win32" ? "win" : process.platform}-${process.arch}`;
const BUNDLE = join(ROOT, "dist", "signalint-mcp.mjs");
const BINARY = join(ROOT, "dist", "bin", `signalint-mcp-${HOST}`);
const DENO = join(ROOT, "dist", "deno", "package", process.platform === "win32" ? "deno.exe" : "deno");
const FIXTURE = join(ROOT, "fixtures", "systemic-ts");

const WAYS = [
  ["bundle on Node", process.execPath, [BUNDLE]],
  ["bundle on Deno", DENO, ["run", "--allow-read", "--allow-write", "--allow-run", "--allow-env", BUNDLE]],
  ["binary", BINARY, []],
];

// In-process (no daemon): the RSS is then the whole server's, check included, as the table says; with a daemon the check
// ran in the daemon, the front's RSS left it out, and a daemon per measured server outlived the bench.
const start = (command, args) => startServer(command, args, { cwd: FIXTURE, env: { SIGNALINT_DAEMON: "0" } });
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

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
  await server.request(2, "tools/call", { name: "check_project", arguments: {} });
  const status = readFileSync(`/proc/${server.child.pid}/status`, "utf8");
  const peak = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
  const now = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
  server.stop();
  rows.push([label, median(times).toFixed(0), peak.toFixed(1), now.toFixed(1)]);
}

console.log(`startup: spawn → initialize answered, median of ${RUNS}; RSS of the server process after one check_project (systemic-ts)\n`);
console.log("| way | startup (ms) | peak RSS (MB) | RSS after check (MB) |");
console.log("|---|---:|---:|---:|");
for (const row of rows) console.log(`| ${row.join(" | ")} |`);
