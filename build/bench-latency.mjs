// npm run bench:latency: a generated 1,000-file TypeScript project, checked by a real MCP client; every figure is a
// ratio to a cold `tsc --noEmit` of the project's own TypeScript measured in the same run. The correctness column
// compares the server's tsc diagnostics with a cold run on the same tree.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { coldTsc as coldRun, generateFlat, generateRefs, mcpIssues, median, processTreeMemory, ROOT, tscKeysOf, TYPESCRIPTS } from "./bench-projects.mjs";

// BENCH_PROJECT=refs: the project-references monorepo of bench-refs-project.mjs; ratios are to a cold `tsc -b`.
const REFS = process.env.BENCH_PROJECT === "refs";
const FILES = Number(process.env.BENCH_FILES ?? (REFS ? 2000 : 1000));
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const VERSIONS = (process.env.BENCH_TS ?? "5,7").split(",").map((v) => TYPESCRIPTS[v === "5" ? 5 : 7]);
// BENCH_TSC_ONLY=1 measures tsc alone (no linter in the project).
const TSC_ONLY = Boolean(process.env.BENCH_TSC_ONLY);

const coldTsc = (dir, tsc) => coldRun(dir, tsc, { refs: REFS, skip: [".state"] });

async function serverTscKeys(client, response) {
  return tscKeysOf(await mcpIssues(client, response));
}

function serverTransport(dir, state) {
  return new StdioClientTransport({
    command: process.execPath,
    args: [join(ROOT, "dist", "signalint-mcp.mjs")],
    cwd: dir,
    // Every issue inline: a big project's cluster detail would otherwise go to an artifact. One server per session,
    // in its own process (sessions sharing the project's daemon are bench-sessions.mjs's): no daemon is left behind.
    env: { ...process.env, SIGNALINT_DAEMON: "0", SIGNALINT_STATE_DIR: join(dir, state), SIGNALINT_STRUCTURED_MAX_BYTES: "16777216" },
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

async function measure(label, tsc) {
  const dir = mkdtempSync(join(tmpdir(), "signalint-latency-"));
  const layout = (REFS ? generateRefs : generateFlat)(dir, { tsc, files: FILES, tscOnly: TSC_ONLY });
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
    const serverMs = name.includes("nothing changed")
      ? (await client.callTool({ name: "get_diagnostic_snapshot", arguments: { checkId: result.structuredContent.checkId } })).structuredContent.durationMs
      : undefined;
    rows.push({
      serverMs,
      name,
      ms,
      ratio: ms / coldMs,
      correct: JSON.stringify(server) === JSON.stringify(expected),
      mode: result.structuredContent.cache?.tsc?.mode ?? "",
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

const results = [];
for (const [label, tsc] of VERSIONS) results.push(await measure(label, tsc));
console.log(
  `latency on a generated ${FILES}-file ${REFS ? "project-references monorepo (ratios to a cold `tsc -b`)" : "project"} (median of ${RUNS} cold tsc runs; each check measured once from the MCP client, including the round trip and oxlint)\n`,
);
console.log("| TypeScript | step | time (ms) | ratio to cold tsc | tsc mode | diagnostics equal a cold run |");
console.log("|---|---|---:|---:|---|---|");
for (const { label, coldMs, rows } of results) {
  console.log(`| ${label} | cold \`${REFS ? "tsc -b" : "tsc --noEmit"}\` | ${coldMs.toFixed(0)} | 1.00 |  |  |`);
  for (const row of rows)
    console.log(`| ${label} | ${row.name} | ${row.ms.toFixed(0)} | ${row.ratio.toFixed(3)} | ${row.mode} | ${row.correct ? `yes (${row.issues})` : "NO"} |`);
}
console.log("\n| TypeScript | `ping` while a warm program builds, slowest (ms) | server RSS (MB) | warm hosts' RSS (MB) |");
console.log("|---|---:|---:|---:|");
for (const { label, pingMs, memory } of results)
  console.log(`| ${label} | ${pingMs.toFixed(0)} | ${memory?.server.toFixed(0) ?? "?"} | ${memory?.hosts.toFixed(0) ?? "?"} |`);
console.log("\nServer time of the no-change steps (the check's own duration, from get_diagnostic_snapshot):\n");
for (const { label, rows } of results)
  for (const row of rows.filter((row) => row.serverMs !== undefined)) console.log(`- ${label}, ${row.name}: ${row.serverMs} ms`);
