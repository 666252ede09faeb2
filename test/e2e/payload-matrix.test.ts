import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsImport from "ajv-formats";
import { listEntry, TOOLS } from "../../src/mcp/server.ts";
import { call, connect, errorOf, fixture, linkBin, removeDir, scratchCopy, type Connected } from "../helpers.ts";

// The same validator configuration the SDK client uses (Ajv's draft-07 class, as MCP Inspector's client too), and
// the same options under draft 2020-12 (MCP's default dialect): every result must validate under both.
const addFormats = addFormatsImport as unknown as (ajv: Ajv | Ajv2020) => void;
const options = { strict: false, validateFormats: true, validateSchema: false, allErrors: true };
const ajv = new Ajv(options);
const ajv2020 = new Ajv2020(options);
addFormats(ajv);
addFormats(ajv2020);

const LIMIT = 16_384;
const MODES = ["both", "text", "structured"] as const;

/** A project whose one cluster is too big for the smallest bound: 90 files with the same type error. */
function bigProject(): string {
  const project = scratchCopy("clean", "big");
  mkdirSync(join(project, "src", "many"), { recursive: true });
  for (let i = 0; i < 90; i++) writeFileSync(join(project, "src", "many", `module${i}.ts`), `export const value${i}: number = "not a number ${i}";\n`);
  return project;
}

/** A project where every engine misbehaves: oxlint hangs, tsc floods, eslint prints garbage, biome crashes. */
function faultyProject(): string {
  const project = scratchCopy("eslint-flat", "all-faults");
  writeFileSync(join(project, "tsconfig.json"), '{ "include": ["src"] }');
  writeFileSync(join(project, "biome.json"), "{}");
  writeFileSync(join(project, "signalint.config.json"), JSON.stringify({ timeoutsMs: { oxlint: 1000 } }));
  linkBin(project, "oxlint", fixture("fault-engines/hang.cjs"));
  linkBin(project, "tsc", fixture("fault-engines/flood.cjs"));
  linkBin(project, "eslint", fixture("fault-engines/garbage.cjs"));
  linkBin(project, "biome", fixture("fault-engines/crash.cjs"));
  return project;
}

function text(result: CallToolResult, index = 0): string {
  const block = result.content[index];
  return block?.type === "text" ? block.text : "";
}

/** Check one successful result against the payload contract of its mode and the schema the server advertised. */
function assertConforms(
  result: CallToolResult,
  tool: string,
  mode: (typeof MODES)[number],
  schemas: Map<string, Tool["outputSchema"]>,
  reference: Map<string, Tool["outputSchema"]>,
): void {
  assert.ok(!result.isError, `${tool}: ${text(result)}`);
  if (mode === "text") {
    assert.equal(result.structuredContent, undefined, `${tool}: no structuredContent in text mode`);
    assert.equal(result.content.length, 1);
    if (tool === "ping") return assert.equal(text(result), "pong");
    const parsed = JSON.parse(text(result)) as unknown;
    const value = Array.isArray(parsed) ? { issues: parsed } : parsed;
    for (const validator of [ajv, ajv2020]) {
      const validate = validator.compile(reference.get(tool) as object);
      assert.ok(validate(value), `${tool} text payload: ${validator.errorsText(validate.errors)}`);
    }
    return;
  }
  for (const validator of [ajv, ajv2020]) {
    const validate = validator.compile(schemas.get(tool) as object);
    assert.ok(
      validate(result.structuredContent),
      `${tool} (${mode}, ${validator === ajv ? "draft-07" : "2020-12"}): ${validator.errorsText(validate.errors)} in ${JSON.stringify(result.structuredContent).slice(0, 300)}`,
    );
  }
  assert.equal(text(result), tool === "ping" ? "pong" : JSON.stringify(result.structuredContent));
  if (mode === "structured") {
    assert.equal(result.content.length, 2);
    assert.deepEqual(result.content[1]?.annotations?.audience, ["user"]);
    assert.ok(text(result, 1).length > 0);
  } else {
    assert.equal(result.content.length, 1);
  }
}

describe("payload matrix: every tool × mode × compact validates against the advertised schema", () => {
  let big: string;
  let faulty: string;
  before(() => {
    big = bigProject();
    faulty = faultyProject();
  });
  after(() => {
    removeDir(big);
    removeDir(faulty);
  });

  for (const mode of MODES) {
    for (const compact of [false, true]) {
      it(`${mode}${compact ? " + compact" : ""}`, async () => {
        const env = { SIGNALINT_MCP_PAYLOAD: mode, SIGNALINT_COMPACT: compact ? "1" : "0", SIGNALINT_STRUCTURED_MAX_BYTES: String(LIMIT) };
        const reference = new Map(TOOLS.map((tool) => [tool.name, listEntry(tool, { mode: "both", compact }).outputSchema]));
        const session: Connected = await connect(big, env);
        try {
          const { tools } = await session.client.listTools();
          const schemas = new Map(tools.map((tool) => [tool.name, tool.outputSchema]));
          if (mode === "text") assert.ok(tools.every((tool) => tool.outputSchema === undefined));
          else assert.ok(tools.every((tool) => tool.outputSchema?.type === "object"));
          const results: [string, CallToolResult][] = [];
          const run = async (tool: string, args: Record<string, unknown> = {}) => {
            const result = await call(session.client, tool, args);
            results.push([tool, result]);
            return result;
          };
          await run("ping");
          await run("get_issue_detail", { clusterId: "c0000000" }); // stale: no check yet
          const check = await run("check_project");
          const value = (mode === "text" ? JSON.parse(text(check)) : check.structuredContent) as Record<string, unknown>;
          assert.equal(value[compact ? "total" : "totalIssues"], 90);
          assert.equal("projectRoot" in value, !compact);
          await run("check_files", { files: ["src/many/module1.ts"] });
          const check2 = await run("check_project");
          const clusters = ((mode === "text" ? JSON.parse(text(check2)) : check2.structuredContent) as { clusters: { clusterId: string }[] }).clusters;
          const clusterId = clusters[0]?.clusterId as string;
          const detail = await run("get_issue_detail", { clusterId });
          await run("get_issue_detail", { clusterId: "c0000000" }); // stale: not found
          await run("get_issue_detail", { clusterId, checkId: "chk-unknown" }); // stale: unknown check
          await run("get_loop_status");
          // Agent-workflow tools: snapshot (oversized: 90 issues), compare, after_edit_check, and their stale answers.
          const firstId = value.checkId as string;
          const secondId = ((mode === "text" ? JSON.parse(text(check2)) : check2.structuredContent) as { checkId: string }).checkId;
          await run("get_diagnostic_snapshot", { checkId: firstId });
          await run("get_diagnostic_snapshot", { checkId: "chk-000000000000" });
          const compared = await run("compare_diagnostics", { baselineCheckId: firstId, currentCheckId: secondId });
          const comparedValue = (mode === "text" ? JSON.parse(text(compared)) : compared.structuredContent) as { unchangedCount: number };
          assert.equal(comparedValue.unchangedCount, 90);
          await run("compare_diagnostics", { baselineCheckId: firstId, currentCheckId: "chk-000000000000" });
          const edited = await run("after_edit_check", { files: ["src/many/module2.ts"], baselineCheckId: firstId });
          // The post-check is lean (issue 18): what the snapshot holds is not repeated; status and engines stay.
          const full = ["clusters", "remainingIssues", "remaining", "truncated", "omitted", "filteredOut", "filteredOutIssueCount", "cache", "projectRoot"];
          const assertLean = (check: Record<string, unknown>) => {
            assert.deepEqual(
              full.filter((key) => key in check),
              [],
              JSON.stringify(check),
            );
            assert.equal(check.status, "issues_found");
            assert.equal(check[compact ? "total" : "totalIssues"], 1);
            assert.match(
              String(check.nextStep),
              new RegExp(`^1 issue remains in these files \\(get_diagnostic_snapshot \\{"checkId":"${String(check.checkId)}"\\}`),
            );
          };
          assertLean((mode === "text" ? JSON.parse(text(edited)) : edited.structuredContent) as Record<string, unknown>);
          await run("after_edit_check", { files: ["src/many/module2.ts"] });
          const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 5 } };
          await run("ingest_diagnostics", {
            serverName: "tsserver",
            diagnostics: [
              { file: "src/many/module3.ts", range, severity: 1, code: 2322, source: "ts", message: "Type 'string' is not assignable to type 'number'." },
              { file: "../x.ts", range, message: "refused" },
            ],
          });
          await run("get_live_diagnostics", { files: ["src/many/module3.ts"], severity: "error" });
          await run("get_live_diagnostics"); // 90 engine issues + 1 ingested: oversized in the bounded modes
          const original = 'export const value1: number = "not a number 1";\n';
          const fix = { file: "src/many/module1.ts", originalContent: original, patchedContent: "export const value1: number = 1;\n" };
          const previewed = await run("preview_diagnostic_fix", { patches: [fix] });
          const transactionId = ((mode === "text" ? JSON.parse(text(previewed)) : previewed.structuredContent) as { transactionId: string }).transactionId;
          assert.equal(errorOf(await call(session.client, "apply_diagnostic_fix", { transactionId })).code, "confirmation_required");
          const appliedFix = await run("apply_diagnostic_fix", { transactionId, confirm: true, baselineCheckId: secondId });
          const appliedValue = (mode === "text" ? JSON.parse(text(appliedFix)) : appliedFix.structuredContent) as {
            check: Record<string, unknown>;
            delta: { resolved: unknown[] };
          };
          assert.equal(appliedValue.delta.resolved.length, 1);
          assert.equal((appliedValue.check.engines as { tsc: { status: string } }).tsc.status, "ok");
          assert.equal(appliedValue.check.status, "clean");
          assert.deepEqual(
            full.filter((key) => key in appliedValue.check),
            [],
          );
          await run("apply_diagnostic_fix", { transactionId, confirm: true }); // stale: applied once
          const undo = await run("preview_diagnostic_fix", { patches: [{ ...fix, originalContent: fix.patchedContent, patchedContent: original }] });
          const undoId = ((mode === "text" ? JSON.parse(text(undo)) : undo.structuredContent) as { transactionId: string }).transactionId;
          await run("apply_diagnostic_fix", { transactionId: undoId, confirm: true });
          const spare = await run("preview_diagnostic_fix", { patches: [{ ...fix, patchedContent: original }] });
          await run("discard_diagnostic_fix", {
            transactionId: ((mode === "text" ? JSON.parse(text(spare)) : spare.structuredContent) as { transactionId: string }).transactionId,
          });
          await run("discard_diagnostic_fix", { transactionId: "tx-0000000000000000" }); // stale
          if (mode === "text") {
            assert.equal((JSON.parse(text(detail)) as unknown[]).length, 90, "text mode is never bounded");
          } else {
            const marked = detail.structuredContent as { issues: null; incomplete: { reason: string; bytes: number; limitBytes: number; artifactId: string } };
            assert.equal(marked.issues, null, "an oversized value is never clipped: its data becomes null");
            assert.equal(marked.incomplete.reason, "size");
            assert.equal(marked.incomplete.limitBytes, LIMIT);
            assert.ok(marked.incomplete.bytes > LIMIT);
            let offset: number | null = 0;
            const parts: Buffer[] = [];
            while (offset !== null) {
              const chunk = await run("artifact_read", { artifactId: marked.incomplete.artifactId, offset });
              const data = chunk.structuredContent as { data: string; nextOffset: number | null; eof: boolean; totalBytes: number };
              parts.push(Buffer.from(data.data, "base64"));
              assert.equal(data.eof, data.nextOffset === null);
              offset = data.nextOffset;
            }
            const full = Buffer.concat(parts);
            assert.equal(full.length, marked.incomplete.bytes);
            const restored = JSON.parse(full.toString("utf8")) as { issues: unknown[] };
            assert.equal(restored.issues.length, 90);
            assert.ok(ajv.compile(schemas.get("get_issue_detail") as object)(restored), "the saved value conforms too");
            assert.equal(errorOf(await call(session.client, "artifact_read", { artifactId: "a000000000000000000000000" })).code, "artifact_not_found");
          }
          for (const [tool, result] of results) assertConforms(result, tool, mode, schemas, reference);
        } finally {
          await session.close();
        }

        const failing = await connect(faulty, env);
        try {
          const result = await call(failing.client, "check_project");
          const schemas = new Map((await failing.client.listTools()).tools.map((tool) => [tool.name, tool.outputSchema]));
          assertConforms(result, "check_project", mode, schemas, reference);
          const value = (mode === "text" ? JSON.parse(text(result)) : result.structuredContent) as {
            status: string;
            engines: Record<string, { status: string; code?: string }>;
          };
          assert.equal(value.status, "error");
          assert.deepEqual(Object.fromEntries(Object.entries(value.engines).map(([name, status]) => [name, status.code])), {
            oxlint: "timeout",
            tsc: "engine_output_exceeded",
            eslint: "engine_output_invalid",
            biome: "engine_failed",
            deno: undefined,
          });
          const failure = await call(failing.client, "check_files", { files: ["../escape.ts"] });
          assert.equal(errorOf(failure).code, "invalid_path");
        } finally {
          await failing.close();
        }
      });
    }
  }
});
