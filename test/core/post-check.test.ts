import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { AfterEditDelta } from "../../src/core/contracts.ts";
import type { RawIssue } from "../../src/core/issues.ts";
import { CompactPostCheckSchema, compactPostCheck, postCheck, PostCheckSchema } from "../../src/core/post-check.ts";
import { checkIssue } from "../../src/core/response.ts";
import { checkResponse, OK_ENGINES } from "../helpers/check-response.ts";

const raw = (line: number, file = "src/a.ts"): RawIssue => ({
  file,
  line,
  col: 1,
  engine: "tsc",
  rule: "TS2322",
  severity: "error",
  message: "Type 'string' is not assignable to type 'number'.",
  fixable: false,
});

const check = (rawIssues: RawIssue[], overrides: Parameters<typeof checkResponse>[1] = {}) =>
  checkResponse(rawIssues, { filteredOutIssueCount: 3, cache: { tsc: { hits: 1, misses: 0 } }, ...overrides });

describe("the lean post-check of after_edit_check and apply_diagnostic_fix", () => {
  it("keeps status, engines, counts and the next step, drops what the snapshot holds, and says where the issues are", () => {
    const { response, issues } = check([raw(1), raw(2), raw(3, "src/b.ts"), raw(4, "src/c.ts")]);
    assert.ok(response.clusters.length > 0 && response.nextStep, "the full check clusters them");
    const delta: AfterEditDelta = { introduced: [checkIssue(issues[0]!)], resolved: [], unchangedCount: 3, netErrorDelta: 1, netWarningDelta: 0 };
    const lean = postCheck(response, delta);
    assert.deepEqual(Object.keys(lean), ["schemaVersion", "status", "checkId", "engines", "totalIssues", "loopWarning", "nextStep"]);
    assert.equal(lean.status, "issues_found");
    assert.equal(lean.totalIssues, 4);
    assert.equal(
      lean.nextStep,
      `4 issues remain in these files (get_diagnostic_snapshot {"checkId":"chk-1"} lists them; delta.introduced has the 1 this edit added). ${response.nextStep}`,
    );
    assert.ok(PostCheckSchema.safeParse(lean).success);
    const compact = compactPostCheck(lean);
    assert.equal(compact.total, 4);
    assert.ok(!("totalIssues" in compact) && !("schemaVersion" in compact));
    assert.ok(CompactPostCheckSchema.safeParse(compact).success);
    assert.ok(!PostCheckSchema.safeParse({ ...lean, clusters: response.clusters }).success, "the lean shape admits no clusters");
  });

  it("one remaining issue without a baseline reads in the singular and names no introduced count", () => {
    const { response } = check([raw(1)]);
    const lean = postCheck(response, { status: "no_baseline", message: "nothing compared" });
    assert.match(lean.nextStep ?? "", /^1 issue remains in these files \(get_diagnostic_snapshot \{"checkId":"chk-1"\} lists it\)\. /);
  });

  it("never loses why a check is not clean: engine failures, notChecked and their next step stay", () => {
    const notChecked = [{ reason: "not in any tsconfig", count: 2, sample: ["x.ts"] }];
    const failed = check([], { engines: { ...OK_ENGINES, tsc: { status: "error", message: "boom" } }, notChecked });
    const lean = postCheck(failed.response, null);
    assert.equal(lean.status, "error");
    assert.deepEqual(lean.engines.tsc, { status: "error", message: "boom" });
    assert.deepEqual(lean.notChecked, notChecked);
    assert.equal(lean.nextStep, failed.response.nextStep, "with no issues the check's own next step stands");
    const clean = postCheck(check([]).response, null);
    assert.equal(clean.status, "clean");
    assert.equal(clean.nextStep, undefined);
  });
});
