import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CheckResponseSchema, CompactCheckResponseSchema } from "../../src/core/contracts.ts";
import { elsewhereField, errorsElsewhere } from "../../src/core/elsewhere.ts";
import { normalizeIssues, type RawIssue } from "../../src/core/issues.ts";
import { compactPostCheck, CompactPostCheckSchema, postCheck, PostCheckSchema } from "../../src/core/post-check.ts";
import { compactCheckResponse } from "../../src/core/response.ts";
import { checkResponse, hash } from "../helpers/check-response.ts";

const raw = (file: string, line: number, rule = "TS2305", severity: RawIssue["severity"] = "error"): RawIssue => ({
  file,
  line,
  col: 10,
  engine: "tsc",
  rule,
  severity,
  message: `Module '"./a.js"' has no exported member 'mergePath'.`,
  fixable: false,
});

const issues = (list: RawIssue[]) => normalizeIssues(list, hash);

describe("tsc errors outside the checked files", () => {
  it("only errors the known set lacks are introduced; a known one moved by inserted lines is not", () => {
    const known = issues([raw("src/b.ts", 1), raw("src/c.ts", 4)]);
    const now = issues([raw("src/b.ts", 1), raw("src/c.ts", 9), raw("src/d.ts", 2), raw("src/e.ts", 3, "TS6133", "warning")]);
    const facts = errorsElsewhere(known, now);
    assert.deepEqual(
      facts.introduced.map((issue) => issue.file),
      ["src/d.ts"],
    );
    assert.deepEqual(facts.unattributed, []);
  });

  it("names the engines of every error counted, not only of the first listed", () => {
    const tscErrors = [1, 2, 3, 4, 5, 6].map((line) => raw(`src/n${line}.ts`, 1));
    const floating = { ...raw("src/use.ts", 3, "@typescript-eslint/no-floating-promises"), engine: "eslint" as const };
    const elsewhere = elsewhereField(errorsElsewhere([], issues([...tscErrors, floating])));
    assert.ok(elsewhere);
    assert.equal(elsewhere.introduced, 7);
    assert.ok(
      elsewhere.issues.every((issue) => issue.engine === "tsc"),
      "the five listed are tsc's",
    );
    assert.deepEqual(elsewhere.engines, ["tsc", "eslint"]);
    assert.match(elsewhere.nextStep, /7 tsc and eslint errors/);
    CheckResponseSchema.parse(checkResponse([], { elsewhere }).response);
  });

  it("with nothing known, every error is unattributed, never introduced", () => {
    const facts = errorsElsewhere(null, issues([raw("src/b.ts", 1)]));
    assert.deepEqual([facts.introduced.length, facts.unattributed.length], [0, 1]);
    assert.equal(elsewhereField(facts)?.unattributed, 1);
  });

  it("makes the check issues_found, with a next step, and validates in both key styles and the post-check", () => {
    const elsewhere = elsewhereField(errorsElsewhere([], issues([raw("src/b.ts", 1)])));
    assert.ok(elsewhere);
    assert.deepEqual([elsewhere.introduced, elsewhere.issues.length], [1, 1]);
    assert.match(elsewhere.nextStep, /src\/b\.ts.*check_project/);
    const { response } = checkResponse([], { elsewhere });
    assert.equal(response.status, "issues_found");
    assert.equal(response.nextStep, elsewhere.nextStep);
    CheckResponseSchema.parse(response);
    CompactCheckResponseSchema.parse(compactCheckResponse(response));
    const lean = postCheck(response, null);
    assert.deepEqual(lean.elsewhere, elsewhere);
    PostCheckSchema.parse(lean);
    CompactPostCheckSchema.parse(compactPostCheck(lean));
    assert.equal(elsewhereField(errorsElsewhere([], [])), undefined, "nothing elsewhere: no field, the check may be clean");
    assert.equal(checkResponse([]).response.status, "clean");
  });
});
