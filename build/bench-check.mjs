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

async function serverChecks(cwd) {
  const stateDir = mkdtempSync(join(tmpdir(), "signalint-bench-"));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(ROOT, "dist", "signalint-mcp.mjs")],
    cwd,
    env: { ...process.env, SIGNALINT_STATE_DIR: stateDir },
    stderr: "ignore",
  });
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(transport);
  await client.listTools();
  const times = [];
  let result;
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    result = await client.callTool({ name: "check_project", arguments: {} });
    times.push(performance.now() - started);
  }
  await client.close();
  rmSync(stateDir, { recursive: true, force: true });
  return { ms: median(times), bytes: Buffer.byteLength(JSON.stringify(result)), total: result.structuredContent.totalIssues };
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
  rows.push({ name, issues: server.total, rawMs, serverMs: server.ms, rawBytes, resultBytes: server.bytes });
}

const header = "| fixture | issues | engines direct (ms) | check_project (ms) | overhead | raw output (B) | CallToolResult both (B) |";
console.log(`check_project vs. the same engines run directly, median of ${RUNS}, Node ${process.version}\n`);
console.log(header);
console.log("|---|---:|---:|---:|---:|---:|---:|");
for (const row of rows) {
  const overhead = `${(((row.serverMs - row.rawMs) / row.rawMs) * 100).toFixed(1)}%`;
  console.log(`| ${row.name} | ${row.issues} | ${row.rawMs.toFixed(0)} | ${row.serverMs.toFixed(0)} | ${overhead} | ${row.rawBytes} | ${row.resultBytes} |`);
}
