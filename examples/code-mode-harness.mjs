#!/usr/bin/env node
// A code-mode harness program: instead of the model reading every tool result, this program calls Signalint's tools,
// works only on structuredContent, and hands the model one small fix plan.
//
//   node examples/code-mode-harness.mjs [projectDir] [baselineCheckId]      (run `npm run build` first)
//
// The fix loop: run it, fix things, run it again with the checkId it printed; the plan then carries `progress`
// (compare_diagnostics: resolved / introduced / unchanged, robust to moved lines). Every issue comes from one
// get_diagnostic_snapshot call. It prints the plan, then a measurement: bytes and model round trips of this program
// versus reading the same information directly (check_project text + get_issue_detail text for every cluster).
import { resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const project = resolve(process.argv[2] ?? "fixtures/mixed-app");
const baselineCheckId = process.argv[3];
const server = resolve(import.meta.dirname, "..", "dist", "signalint-mcp.mjs");
const client = new Client({ name: "code-mode-harness", version: "1.0.0" });
// The server gets this process's environment (SIGNALINT_* settings pass through).
await client.connect(new StdioClientTransport({ command: process.execPath, args: [server], cwd: project, env: { ...process.env }, stderr: "ignore" }));
await client.listTools(); // the SDK validates every structuredContent against the advertised schema from here on

const textBytes = (result) => result.content.filter((block) => block.type === "text").reduce((sum, block) => sum + Buffer.byteLength(block.text), 0);
let directBytes = 0;
let directCalls = 0;

/** Read an oversized value in full through artifact_read (structuredContent only). */
async function readArtifact(artifactId) {
  const parts = [];
  for (let offset = 0; offset !== null; ) {
    const chunk = (await client.callTool({ name: "artifact_read", arguments: { artifactId, offset } })).structuredContent;
    parts.push(Buffer.from(chunk.data, "base64"));
    offset = chunk.nextOffset;
  }
  return JSON.parse(Buffer.concat(parts).toString("utf8"));
}

async function issuesOf(clusterId) {
  const result = await client.callTool({ name: "get_issue_detail", arguments: { clusterId } });
  directBytes += textBytes(result);
  directCalls += 1;
  const value = result.structuredContent;
  if (value.status === "stale") return [];
  return value.issues ?? (await readArtifact(value.incomplete.artifactId)).issues;
}

const checkResult = await client.callTool({ name: "check_project", arguments: {} });
directBytes += textBytes(checkResult);
directCalls += 1;
const check = checkResult.structuredContent;
// What a model reading results directly would also read: every cluster's detail (measured, not used by the plan).
for (const cluster of check.clusters) await issuesOf(cluster.clusterId);

// One call returns every issue of the check (read through artifact_read when it is over the size bound).
const snapshotValue = (await client.callTool({ name: "get_diagnostic_snapshot", arguments: { checkId: check.checkId } })).structuredContent;
const snapshot = snapshotValue.issues ? snapshotValue : { ...snapshotValue, ...(await readArtifact(snapshotValue.incomplete.artifactId)) };
const byCluster = new Map();
for (const issue of snapshot.issues) if (issue.clusterId) byCluster.set(issue.clusterId, [...(byCluster.get(issue.clusterId) ?? []), issue]);

// The plan: every cluster, in priority order, as a set of edits per file; then the unclustered issues per file.
const steps = [];
for (const cluster of snapshot.clusters) {
  const files = {};
  for (const issue of byCluster.get(cluster.clusterId) ?? []) (files[issue.file] ??= []).push(issue.line);
  steps.push({ cluster: cluster.clusterId, priority: cluster.priority, why: cluster.rootCauseSummary, do: cluster.suggestedAction, files });
}
const rest = {};
for (const issue of snapshot.issues.filter((entry) => !entry.clusterId)) (rest[issue.file] ??= []).push(`${issue.line}: ${issue.rule} ${issue.message}`);
const plan = {
  status: check.status,
  checkId: check.checkId,
  total: check.totalIssues,
  steps,
  otherIssues: rest,
  engineFailures: Object.entries(check.engines)
    .filter(([, e]) => e.status === "error")
    .map(([name, e]) => `${name}: ${e.message}`),
};
if (baselineCheckId) {
  const delta = (await client.callTool({ name: "compare_diagnostics", arguments: { baselineCheckId, currentCheckId: check.checkId } })).structuredContent;
  plan.progress =
    delta.status === "stale"
      ? { stale: delta.code }
      : {
          resolved: delta.resolved?.length ?? null,
          introduced: (delta.introduced ?? []).map((issue) => `${issue.file}:${issue.line} ${issue.rule} ${issue.message}`),
          unchanged: delta.unchangedCount,
          netErrorDelta: delta.netErrorDelta,
        };
}
await client.close();

const planText = JSON.stringify(plan);
console.log(JSON.stringify(plan, null, 2));
console.log("\nmeasurement (bytes the model reads, and model round trips):");
console.log(`  direct tool calls: ${directBytes} B in ${directCalls} round trips (check_project + get_issue_detail per cluster)`);
console.log(`  code-mode harness: ${Buffer.byteLength(planText)} B in 1 round trip (this program's output)`);
