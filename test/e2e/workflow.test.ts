import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Compare, Delta, WorkflowIssue } from "../../src/core/contracts.ts";
import { call, connect, removeDir, scratchCopy, structured, tempDir } from "../helpers.ts";

const BEFORE = ['export const a: number = "one";', "export function keep(): void {}", "export const b: string = 2;", ""].join("\n");
// Fixes a, introduces c, and shifts b down by five inserted lines.
const AFTER = [
  "export const a: number = 1;",
  "export function keep(): void {}",
  "// one",
  "// two",
  "// three",
  "// four",
  "// five",
  "export const b: string = 2;",
  'export const c: boolean = "x";',
  "",
].join("\n");

type Check = { checkId: string; totalIssues: number; delta: Delta | null };
const rules = (list: WorkflowIssue[]) => list.map((issue) => `${issue.line}:${issue.message}`);

describe("snapshots, compare and after_edit_check on real edits", () => {
  let project: string;
  let state: string;
  before(() => {
    project = scratchCopy("clean", "workflow");
    state = tempDir("signalint-state-");
    writeFileSync(join(project, "src", "work.ts"), BEFORE);
  });
  after(() => {
    removeDir(project);
    removeDir(state);
  });

  it("fix one, introduce one, shift one: the delta says exactly that, and it survives a restart", async () => {
    const first = await connect(project, { SIGNALINT_STATE_DIR: state });
    let baseline: Check;
    let edited: Check;
    let project2: Check;
    try {
      baseline = structured<Check>(await call(first.client, "check_project"));
      assert.equal(baseline.totalIssues, 2);
      const snap = structured<{ tool: string; scope: string[]; totalIssues: number; issues: WorkflowIssue[]; checkId: string; createdAt: string }>(
        await call(first.client, "get_diagnostic_snapshot", { checkId: baseline.checkId }),
      );
      assert.equal(snap.tool, "check_project");
      assert.deepEqual(snap.scope, ["."]);
      assert.equal(snap.totalIssues, 2);
      assert.deepEqual(
        snap.issues.map((issue) => issue.line),
        [1, 3],
      );
      assert.ok(!Number.isNaN(Date.parse(snap.createdAt)));

      writeFileSync(join(project, "src", "work.ts"), AFTER);
      edited = structured<Check>(await call(first.client, "after_edit_check", { files: ["src/work.ts"] }));
      const delta = edited.delta as Delta;
      assert.deepEqual(rules(delta.resolved), ["1:Type 'string' is not assignable to type 'number'."]);
      assert.deepEqual(rules(delta.introduced), ["9:Type 'string' is not assignable to type 'boolean'."]);
      assert.equal(delta.unchangedCount, 1, "the shifted issue is unchanged, not resolved + introduced");
      assert.equal(delta.netErrorDelta, 0);
      const editedSnap = structured<{ tool: string; scope: string[] }>(await call(first.client, "get_diagnostic_snapshot", { checkId: edited.checkId }));
      assert.equal(editedSnap.tool, "after_edit_check");
      assert.deepEqual(editedSnap.scope, ["src/work.ts"]);

      project2 = structured<Check>(await call(first.client, "check_project"));
      const compared = structured<Compare>(
        await call(first.client, "compare_diagnostics", { baselineCheckId: baseline.checkId, currentCheckId: project2.checkId }),
      );
      assert.deepEqual(
        { ...compared, introduced: rules(compared.introduced), resolved: rules(compared.resolved) },
        {
          baselineCheckId: baseline.checkId,
          currentCheckId: project2.checkId,
          introduced: rules(delta.introduced),
          resolved: rules(delta.resolved),
          unchangedCount: 1,
          netErrorDelta: 0,
          netWarningDelta: 0,
        },
      );
      const unknown = structured<{ status: string; code: string }>(
        await call(first.client, "compare_diagnostics", { baselineCheckId: "chk-000000000000", currentCheckId: project2.checkId }),
      );
      assert.deepEqual([unknown.status, unknown.code], ["stale", "check_unknown"]);
      const staleBaseline = structured<{ code: string }>(
        await call(first.client, "after_edit_check", { files: ["src/work.ts"], baselineCheckId: "chk-000000000000" }),
      );
      assert.equal(staleBaseline.code, "check_unknown");
    } finally {
      await first.close();
    }

    const second = await connect(project, { SIGNALINT_STATE_DIR: state });
    try {
      const again = structured<Compare>(
        await call(second.client, "compare_diagnostics", { baselineCheckId: baseline.checkId, currentCheckId: edited.checkId }),
      );
      assert.equal(again.unchangedCount, 1);
      assert.equal(again.resolved.length, 1);
      assert.equal(again.introduced.length, 1);
      const snap = structured<{ checkId: string }>(await call(second.client, "get_diagnostic_snapshot", { checkId: baseline.checkId }));
      assert.equal(snap.checkId, baseline.checkId);
      // A new connection is a new session: its default baseline is its own previous check covering the file, never
      // another session's; a check of another file has nothing to compare with, and the delta says so.
      await call(second.client, "check_files", { files: ["src/index.ts"] });
      const next = structured<Check>(await call(second.client, "after_edit_check", { files: ["src/work.ts"] }));
      assert.equal((next.delta as { status?: string }).status, "no_baseline", JSON.stringify(next.delta));
      const named = structured<Check>(await call(second.client, "after_edit_check", { files: ["src/work.ts"], baselineCheckId: edited.checkId }));
      assert.deepEqual(
        named.delta,
        { introduced: [], resolved: [], unchangedCount: 2, netErrorDelta: 0, netWarningDelta: 0 },
        "a named baseline of the earlier server",
      );
    } finally {
      await second.close();
    }
  });
  it("after_edit_check feeds file-rule churn like check_files", async () => {
    const session = await connect(project, { SIGNALINT_STATE_DIR: state });
    try {
      for (let round = 0; round < 3; round++) {
        writeFileSync(join(project, "src", "churn.ts"), `${"// moved\n".repeat(round)}export const n: number = "${round}";\n`);
        await call(session.client, "after_edit_check", { files: ["src/churn.ts"] });
      }
      const status = structured<{ fileRuleChurns: { file: string; rule: string; checkCount: number }[] }>(await call(session.client, "get_loop_status"));
      assert.deepEqual(
        status.fileRuleChurns.map(({ file, rule, checkCount }) => ({ file, rule, checkCount })),
        [{ file: "src/churn.ts", rule: "TS2322", checkCount: 3 }],
      );
    } finally {
      await session.close();
    }
  });
});
