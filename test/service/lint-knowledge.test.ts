import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { RawIssue } from "../../src/core/issues.ts";
import { LintKnowledge, MAX_ENVIRONMENTS } from "../../src/service/check/elsewhere.ts";
import type { EngineReport } from "../../src/service/job/engine-job.ts";
import { hash } from "../helpers/check-response.ts";

const error = (file: string, line: number): RawIssue => ({
  file,
  line,
  col: 1,
  engine: "eslint",
  rule: "@typescript-eslint/no-unsafe-call",
  severity: "error",
  message: "Unsafe call of an `any` typed value.",
  fixable: false,
});
const report = (issues: RawIssue[], dependents?: EngineReport["dependents"]): EngineReport => ({
  status: { status: "ok" } as EngineReport["status"],
  issues,
  durationMs: 1,
  ...(dependents ? { dependents } : {}),
});
const whole = { paths: ["."], ignored: () => false, incremental: false };
const edit = { paths: ["src/a.ts"], ignored: () => false, incremental: true };
// An edit's check of src/a.ts that linted its importer src/b.ts, where one error stands that a whole check also saw.
const editReport = () => report([error("src/b.ts", 3)], { named: ["src/a.ts"], files: ["src/b.ts"], more: [] });

describe("LintKnowledge: ESLint's errors known per client environment", () => {
  it(`keeps the ${MAX_ENVIRONMENTS} environments last used; an older one's importers' errors are unattributed, not known`, () => {
    const knowledge = new LintKnowledge();
    assert.equal(knowledge.update(report([error("src/b.ts", 3)]), whole, hash, "env-0"), null);
    const known = knowledge.update(editReport(), edit, hash, "env-0");
    assert.deepEqual([known?.introduced.length, known?.unattributed.length], [0, 0], "the whole check's error is known, not introduced");
    // As many other environments as are kept, each with its whole check: env-0 was used before all of them.
    for (let index = 1; index <= MAX_ENVIRONMENTS; index++) knowledge.update(report([]), whole, hash, `env-${index}`);
    const forgotten = knowledge.update(editReport(), edit, hash, "env-0");
    assert.deepEqual([forgotten?.introduced.length, forgotten?.unattributed.length], [0, 1], "nothing known of env-0 any more");
    // Used last, env-0 is kept now while another shell's checks come and go; the oldest other one is forgotten.
    for (let index = 1; index < MAX_ENVIRONMENTS; index++) knowledge.update(report([]), whole, hash, `env-new-${index}`);
    const kept = knowledge.update(editReport(), edit, hash, "env-0");
    assert.deepEqual([kept?.introduced.length, kept?.unattributed.length], [0, 0], "known from its own last check");
  });
});
