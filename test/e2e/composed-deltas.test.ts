import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { AfterEditDelta, Delta } from "../../src/core/contracts.ts";
import { call, connect, removeDir, scratchCopy, structured } from "../helpers.ts";

/** Issue 33, item 5: after_edit_check over files earlier checks covered separately compares each with its own. */

type Check = { status: string; totalIssues: number; delta?: AfterEditDelta | null };

describe("composed deltas (issue 33, item 5)", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  it("two files checked apart, then edited together: one is resolved, one introduced, nothing left uncompared", async () => {
    const project = scratchCopy("clean", "composed-deltas");
    dirs.push(project);
    // Whole answers on a loaded machine too (a pending one's delta names what tsc still re-checks): see named-first.test.ts.
    writeFileSync(join(project, "signalint.config.json"), JSON.stringify({ pendingAfterMs: 3_600_000 }));
    writeFileSync(join(project, "src", "a.ts"), 'export const a: number = "a";\n');
    writeFileSync(join(project, "src", "b.ts"), 'export const b: number = "b";\n');
    const session = await connect(project);
    try {
      await call(session.client, "check_files", { files: ["src/a.ts"] });
      await call(session.client, "check_files", { files: ["src/b.ts"] });
      writeFileSync(join(project, "src", "a.ts"), "export const a: number = 1;\n");
      writeFileSync(join(project, "src", "b.ts"), 'export const b: number = "b";\nexport const c: string = 3;\n');
      const both = structured<Check>(await call(session.client, "after_edit_check", { files: ["src/a.ts", "src/b.ts"] }));
      const delta = both.delta as Delta;
      assert.equal("status" in delta, false, "not no_baseline: each file has an earlier check");
      assert.deepEqual(
        delta.resolved.map((issue) => `${issue.file}:${issue.line} ${issue.rule}`),
        ["src/a.ts:1 TS2322"],
      );
      assert.deepEqual(
        delta.introduced.map((issue) => `${issue.file}:${issue.line} ${issue.rule}`),
        ["src/b.ts:2 TS2322"],
      );
      assert.equal(delta.unchangedCount, 1);
      assert.equal(delta.netErrorDelta, 0);
      assert.equal(delta.notCompared, undefined);
      // A file no earlier check covered is named; the others are still compared.
      writeFileSync(join(project, "src", "c.ts"), "export const d: boolean = 1;\n");
      const three = structured<Check>(await call(session.client, "after_edit_check", { files: ["src/a.ts", "src/c.ts"] }));
      const partial = three.delta as Delta;
      assert.deepEqual(
        partial.notCompared?.map(({ reason, paths }) => [reason, paths]),
        [["outside_baseline", ["src/c.ts"]]],
      );
      assert.deepEqual(partial.introduced, [], "c.ts had no baseline: its error is not introduced");
    } finally {
      await session.close();
    }
  });
});
