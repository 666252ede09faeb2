import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { summaryLine } from "../../src/cli/format.ts";
import { buildCliReport, exitCode } from "../../src/cli/report.ts";
import { pendingNote } from "../../src/core/completeness.ts";
import { CheckResponseSchema, CompactCheckResponseSchema } from "../../src/core/contracts.ts";
import type { RawIssue } from "../../src/core/issues.ts";
import { compactPostCheck, CompactPostCheckSchema, postCheck, PostCheckSchema } from "../../src/core/post-check.ts";
import { compactCheckResponse } from "../../src/core/response.ts";
import { summarizeCheck } from "../../src/mcp/results.ts";
import { checkResponse, OK_ENGINES } from "../helpers/check-response.ts";

const pending = { programs: 2, files: 120 };
const hubError: RawIssue = { file: "src/hub.ts", line: 4, col: 14, engine: "tsc", rule: "TS2322", severity: "error", message: "no", fixable: false };
const hubWarning: RawIssue = { ...hubError, engine: "eslint", rule: "no-console", severity: "warning", message: "Unexpected console statement." };

/** Issue 36 item 2: a check that answered the named files while tsc re-checks the rest is never clean. */
describe("a pending check", () => {
  it("with nothing in the named files is pending, says how to get the rest, and validates in both key styles and the post-check", () => {
    const { response } = checkResponse([], { pending });
    assert.equal(response.status, "pending");
    assert.deepEqual(response.pending, pending);
    assert.equal(response.nextStep, pendingNote(2, 120));
    assert.match(response.nextStep ?? "", /2 tsc programs \(120 more files this change may affect\) are still being re-checked/);
    assert.match(response.nextStep ?? "", /same tool again with the same files/);
    CheckResponseSchema.parse(response);
    CompactCheckResponseSchema.parse(compactCheckResponse(response));
    const lean = postCheck(response, null);
    assert.deepEqual(lean.pending, pending);
    PostCheckSchema.parse(lean);
    CompactPostCheckSchema.parse(compactPostCheck(lean));
  });

  it("is issues_found when the named files have issues, error when an engine failed, and clean only without pending", () => {
    const found = checkResponse([hubError], { pending }).response;
    assert.equal(found.status, "issues_found");
    assert.match(found.nextStep ?? "", /^Fix src\/hub\.ts:4 \(TS2322\) first.* Call the same tool again/, "what to fix, then how to get the rest");
    const failed = { ...OK_ENGINES, oxlint: { status: "error" as const, message: "boom" } };
    assert.equal(checkResponse([], { pending, engines: failed }).response.status, "error");
    assert.equal(checkResponse([]).response.status, "clean");
  });
  it("is incomplete to the CLI: exit 1 and a summary that says what is still being re-checked, never a pass", () => {
    const { response } = checkResponse([], { pending });
    const report = buildCliReport(response, [], { version: "0.0.0", projectRoot: "/p", shard: null });
    assert.equal(report.status, "pending");
    assert.deepEqual(report.pending, pending);
    assert.equal(exitCode(report, -1), 1);
    assert.match(summaryLine(report), /^No issues in the checked paths yet: 2 tsc programs \(120 more files .*\) are still being re-checked/);
    assert.equal(exitCode(buildCliReport(checkResponse([]).response, [], { version: "0.0.0", projectRoot: "/p", shard: null }), -1), 0);
  });
  it("with issues in the named files is still incomplete: exit 1 with warnings only, and every summary says what is still re-checked", () => {
    const { response, issues } = checkResponse([hubWarning], { pending });
    assert.equal(response.status, "issues_found");
    const report = buildCliReport(response, issues, { version: "0.0.0", projectRoot: "/p", shard: null });
    assert.equal(report.warningCount, 1);
    assert.equal(exitCode(report, -1), 1, "never a pass while tsc re-checks the rest");
    assert.match(summaryLine(report), /^1 problem \(0 errors, 1 warning\) in the checked paths so far: 2 tsc programs .* still being re-checked/);
    assert.match(
      summarizeCheck(response).split("\n")[0] ?? "",
      /^1 issue found.*; tsc is still re-checking the other files this change may affect \(pending\)\.$/,
    );
    const whole = checkResponse([hubWarning]);
    assert.equal(exitCode(buildCliReport(whole.response, whole.issues, { version: "0.0.0", projectRoot: "/p", shard: null }), -1), 0);
    assert.doesNotMatch(summarizeCheck(whole.response), /pending/);
  });
});
