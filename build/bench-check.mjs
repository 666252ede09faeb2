// npm run bench: check_project through a real MCP client vs. running the same engines directly, per fixture.
// Prints one table measured in one run (medians), so ratios are comparable even on a noisy shared machine.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const ROOT = resolve(import.meta.dirname, "..");
const BIN = join(ROOT, "node_modules", ".bin");
const FIXTURES = ["sparse", "systemic-ts", "mixed-app", "scale-app"];
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function run(command, args, cwd) {
  return new Promise((done) => {
    const child = spawn(join(BIN, command), args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let bytes = 0;
    child.stdout.on("data", (chunk) => (bytes += chunk.length));
    child.on("close", () => done(bytes));
  });
}

/** The engines Signalint runs on these fixtures, run directly and in parallel, as the server does. */
async function rawEngines(cwd) {
  const started = performance.now();
  const [tsc, oxlint] = await Promise.all([
    run("tsc", ["--noEmit", "--pretty", "false", "-p", "tsconfig.json"], cwd),
    run("oxlint", ["--format", "json", "--ignore-pattern", "**/node_modules/**", "."], cwd),
  ]);
  return { ms: performance.now() - started, bytes: tsc + oxlint };
}

/**
 * The first check_project of a fresh server with an empty state directory and an empty cache directory: nothing
 * cached, nothing warm (with the default cache base, every run after the first restored the previous run's persisted
 * TypeScript state: cache mode warm-restored, not a cold check).
 */
async function coldCheck(cwd) {
  const stateDir = mkdtempSync(join(tmpdir(), "signalint-bench-"));
  const cacheDir = mkdtempSync(join(tmpdir(), "signalint-bench-cache-"));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(ROOT, "dist", "signalint-mcp.mjs")],
    cwd,
    env: { ...process.env, SIGNALINT_STATE_DIR: stateDir, SIGNALINT_CACHE_DIR: cacheDir },
    stderr: "ignore",
  });
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(transport);
  await client.listTools();
  const started = performance.now();
  const result = await client.callTool({ name: "check_project", arguments: {} });
  const ms = performance.now() - started;
  // An agent edits between checks; give the background warm-up (started after the first answer) time to finish.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const again = performance.now();
  await client.callTool({ name: "check_project", arguments: {} });
  const repeatMs = performance.now() - again;
  await client.close();
  rmSync(stateDir, { recursive: true, force: true });
  rmSync(cacheDir, { recursive: true, force: true });
  return { ms, repeatMs, bytes: Buffer.byteLength(JSON.stringify(result)), total: result.structuredContent.totalIssues };
}

async function serverChecks(cwd) {
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await coldCheck(cwd));
  return { ms: median(runs.map((run) => run.ms)), repeatMs: median(runs.map((run) => run.repeatMs)), bytes: runs[0].bytes, total: runs[0].total };
}

const rows = [];
for (const name of FIXTURES) {
  const cwd = join(ROOT, "fixtures", name);
  const raw = [];
  let rawBytes = 0;
  for (let i = 0; i < RUNS; i++) {
    const sample = await rawEngines(cwd);
    raw.push(sample.ms);
    rawBytes = sample.bytes;
  }
  const server = await serverChecks(cwd);
  const rawMs = median(raw);
  rows.push({ name, issues: server.total, rawMs, serverMs: server.ms, repeatMs: server.repeatMs, rawBytes, resultBytes: server.bytes });
}

const header =
  "| fixture | issues | engines direct (ms) | check_project, fresh server (ms) | overhead | check_project 3 s later (ms) | raw output (B) | CallToolResult both (B) |";
console.log(`check_project on a fresh server (empty state dir) vs. the same engines run directly, median of ${RUNS}, Node ${process.version}\n`);
console.log(header);
console.log("|---|---:|---:|---:|---:|---:|---:|---:|");
for (const row of rows) {
  const overhead = `${(((row.serverMs - row.rawMs) / row.rawMs) * 100).toFixed(1)}%`;
  console.log(
    `| ${row.name} | ${row.issues} | ${row.rawMs.toFixed(0)} | ${row.serverMs.toFixed(0)} | ${overhead} | ${row.repeatMs.toFixed(0)} | ${row.rawBytes} | ${row.resultBytes} |`,
  );
}
