// npm run bench:payload: bytes an agent receives from check_project per fixture, payload mode and compact setting,
// next to the raw engine output (tsc --pretty false + oxlint --format json) and the original 1.2.1 figures, and the
// bytes a model reads to see every issue (the check plus one get_issue_detail per cluster and per cut message), and
// what the answer would be without its inline remaining issues.
// Talks raw JSON-RPC over stdio so the response line is measured exactly as it crosses the pipe. On the harness
// (bench-harness.mjs): every server starts from nothing in private state and cache homes, the fixtures are
// snapshotted and must be untouched, and each fixture's issues (mode both) must equal tsc and oxlint run directly (exit 1).
import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";
import { answerKeys, compareKeys, directTscOxlint, fail, freshEnv, guardTree, runBench } from "./bench-harness.mjs";
import { INITIALIZE, startServer, toolsListLine } from "./jsonrpc-stdio.mjs";

const ROOT = resolve(import.meta.dirname, "..");
const BIN = join(ROOT, "node_modules", ".bin");
const FIXTURES = (process.env.BENCH_FIXTURES ?? "sparse,systemic-ts,mixed-app,scale-app").split(",");
// JSON.stringify(CallToolResult) bytes of the original 1.2.1 release (DESIGN.md §11).
const ORIGINAL = {
  both: { sparse: 894, "systemic-ts": 1064, "mixed-app": 2594, "scale-app": 6718 },
  text: { sparse: 487, "systemic-ts": 573, "mixed-app": 1392, "scale-app": 3611 },
  structured: { sparse: 970, "systemic-ts": 1142, "mixed-app": 2672, "scale-app": 6796 },
};

function rawBytes(cwd) {
  const run = (bin, args) => spawnSync(join(BIN, bin), args, { cwd, encoding: "utf8" }).stdout;
  const tsc = run("tsc", ["--noEmit", "--pretty", "false", "-p", "tsconfig.json"]);
  const oxlint = run("oxlint", ["--format", "json", "--ignore-pattern", "**/node_modules/**", "."]);
  return Buffer.byteLength(tsc) + Buffer.byteLength(oxlint);
}

/**
 * Start a server, call check_project once, return the exact response line and the parsed result; then read what a
 * model needs to see every issue: get_issue_detail for each returned cluster and for each listed issue whose message
 * was cut (its whole text is one detail call away). `everyIssue` is the check plus those detail results, in bytes.
 */
async function measure(cwd, env) {
  const server = startServer(process.execPath, [join(ROOT, "dist", "signalint-mcp.mjs")], { cwd, env: freshEnv(env) });
  await server.request(1, "initialize", INITIALIZE);
  server.notify("notifications/initialized");
  const line = await server.request(2, "tools/call", { name: "check_project", arguments: {} });
  const result = JSON.parse(line).result;
  const value = result.structuredContent ?? JSON.parse(result.content[0].text);
  const detailArgs = [
    ...value.clusters.map((cluster) => ({ clusterId: cluster.clusterId })),
    ...(value.remainingIssues ?? value.remaining ?? []).filter((issue) => issue.message.endsWith("…")).map((issue) => ({ issueId: issue.issueId })),
  ];
  let everyIssue = Buffer.byteLength(JSON.stringify(result));
  // Every issue (the remaining ones and each cluster's), for the comparison with the engines run directly.
  const issues = [...(value.remainingIssues ?? [])];
  for (const [index, args] of detailArgs.entries()) {
    const detail = JSON.parse(await server.request(3 + index, "tools/call", { name: "get_issue_detail", arguments: args })).result;
    everyIssue += Buffer.byteLength(JSON.stringify(detail));
    if (args.clusterId) issues.push(...(detail.structuredContent?.issues ?? []));
  }
  server.stop();
  const omitted = value.omittedIssueCount ?? value.omitted ?? 0;
  return { issues, line, result, value, everyIssue, detailCalls: detailArgs.length, omitted, withoutRemaining: withoutRemainingBytes(result, value) };
}

/**
 * The same CallToolResult without the inline remaining issues (the lead kept them inline: an agent sees every issue in
 * one call; 1.2.1 did not list them): both copies of the value lose the field, the human summary stays as it was.
 */
function withoutRemainingBytes(result, value) {
  const { remainingIssues: _full, remaining: _compact, ...lean } = value;
  const [first, ...rest] = result.content;
  const reduced = { ...result, content: [{ ...first, text: JSON.stringify(lean) }, ...rest], ...(result.structuredContent ? { structuredContent: lean } : {}) };
  return Buffer.byteLength(JSON.stringify(reduced));
}

await runBench(async () => {
  const rows = [];
  guardTree(join(ROOT, "fixtures", "clean"));
  for (const fixture of FIXTURES) {
    const cwd = guardTree(join(ROOT, "fixtures", fixture));
    const raw = rawBytes(cwd);
    const direct = (await directTscOxlint(cwd)).keys;
    for (const mode of ["both", "text", "structured"]) {
      for (const compact of [false, true]) {
        const { issues, line, result, value, everyIssue, detailCalls, omitted, withoutRemaining } = await measure(cwd, {
          SIGNALINT_MCP_PAYLOAD: mode,
          SIGNALINT_COMPACT: compact ? "1" : "0",
          // In-process: the bytes are the same, and a daemon per measured server would outlive its state directory.
          SIGNALINT_DAEMON: "0",
        });
        const total = value.totalIssues ?? value.total;
        // The one mode whose issues are whole and uncompacted: every issue equals the engines' direct run.
        const diff = compareKeys(direct, answerKeys(issues));
        if (mode === "both" && !compact && !omitted && (diff.missing.length || diff.extra.length))
          fail(
            `${fixture}: issues differ from tsc and oxlint run directly: missing ${JSON.stringify(diff.missing)}, not in the direct run ${JSON.stringify(diff.extra)}`,
          );
        if (result.isError) fail(`${fixture}, ${mode}: isError`);
        for (const [engine, status] of Object.entries(value.engines ?? {}))
          if (status.status === "error") fail(`${fixture}, ${mode}: engine ${engine} failed: ${status.message ?? status.code ?? ""}`);
        rows.push({
          fixture,
          mode: `${mode}${compact ? "+compact" : ""}`,
          total,
          value: Buffer.byteLength(JSON.stringify(value)),
          result: Buffer.byteLength(JSON.stringify(result)),
          line: Buffer.byteLength(line) + 1,
          original: compact ? "" : ORIGINAL[mode][fixture],
          ratio: compact ? "" : (Buffer.byteLength(JSON.stringify(result)) / ORIGINAL[mode][fixture]).toFixed(2),
          every: `${everyIssue} (${detailCalls} detail)${omitted ? `, ${omitted} omitted` : ""}`,
          withoutRemaining: `${withoutRemaining}${compact ? "" : ` (${(withoutRemaining / ORIGINAL[mode][fixture]).toFixed(2)})`}`,
          raw,
        });
      }
    }
  }

  console.log(`check_project payload bytes (Node ${process.version}); "value" is the standalone structured value (text mode: the JSON text)\n`);
  console.log(
    "| fixture | issues | mode | value (B) | CallToolResult (B) | JSON-RPC line (B) | original 1.2.1 result (B) | × 1.2.1 | without inline remaining issues (B, × 1.2.1) | every issue: check + detail calls (B) | raw engine output (B) |",
  );
  console.log("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const row of rows) {
    console.log(
      `| ${row.fixture} | ${row.total} | ${row.mode} | ${row.value} | ${row.result} | ${row.line} | ${row.original} | ${row.ratio} | ${row.withoutRemaining} | ${row.every} | ${row.raw} |`,
    );
  }

  /** The tools/list result (what a client loads once per session): JSON.stringify(result) and the response line. */
  async function toolsListBytes(mode, compact) {
    const line = await toolsListLine(ROOT, mode, compact);
    return { result: Buffer.byteLength(JSON.stringify(JSON.parse(line).result)), line: Buffer.byteLength(line) + 1 };
  }
  console.log("\ntools/list bytes (DESIGN §11: <= 24 KB in both, <= 9 KB in text)\n");
  console.log("| mode | compact | result (B) | JSON-RPC line (B) |\n|---|---|---:|---:|");
  for (const mode of ["both", "text", "structured"]) {
    for (const compact of [false, true]) {
      const bytes = await toolsListBytes(mode, compact);
      console.log(`| ${mode} | ${compact ? "on" : "off"} | ${bytes.result} | ${bytes.line} |`);
    }
  }
});
