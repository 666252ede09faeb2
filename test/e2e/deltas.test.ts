import assert from "node:assert/strict";
import { cpSync, mkdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { AfterEditDelta, Compare, Delta } from "../../src/core/contracts.ts";
import { call, connect, removeDir, REPO, scratchCopy, STATE_HOME, structured } from "../helpers.ts";

const THREE_ERRORS = ['export const a: number = "one";', "export const b: string = 2;", "export const c: boolean = 3;", ""].join("\n");

type Check = {
  checkId: string;
  status: string;
  totalIssues: number;
  engines: Record<string, { status: string; code?: string }>;
  delta?: AfterEditDelta | null;
};

/** Only what both checks checked is compared: failures are never fixes, and a missing baseline is said. */
describe("deltas compare only what both checks checked", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  it("an interrupted TypeScript install after the baseline: the 3 errors are not resolved, tsc is named in notCompared", async () => {
    const project = scratchCopy("clean", "deltas-broken-ts");
    dirs.push(project);
    writeFileSync(join(project, "src", "work.ts"), THREE_ERRORS);
    // A real copy of the package (not the shared link), so it can be broken like an install cut off half-way.
    const typescript = join(project, "node_modules", "typescript");
    rmSync(typescript, { recursive: true, force: true });
    cpSync(join(REPO, "node_modules", "typescript"), typescript, { recursive: true, dereference: true });
    // The premise, not a wait for an event: the copied package settled more than a second before the first check, as
    // an installed one has, so that check's answer is kept (found under load: a quiet check then repeated it over the
    // broken compiler, whose version had not changed).
    mkdirSync(join(STATE_HOME, "signalint", "projects"), { recursive: true });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const session = await connect(project);
    try {
      const baseline = structured<Check>(await call(session.client, "check_project"));
      assert.equal(baseline.engines.tsc?.status, "ok");
      assert.equal(baseline.totalIssues, 3);
      for (const file of ["_tsc.js", "typescript.js"]) {
        const path = join(typescript, "lib", file);
        truncateSync(path, Math.floor(readFileSync(path).length / 2));
      }
      const broken = structured<Check>(await call(session.client, "check_project"));
      assert.equal(broken.engines.tsc?.status, "error", JSON.stringify(broken.engines));
      const compared = structured<Compare>(
        await call(session.client, "compare_diagnostics", { baselineCheckId: baseline.checkId, currentCheckId: broken.checkId }),
      );
      assert.deepEqual([compared.resolved.length, compared.introduced.length, compared.netErrorDelta], [0, 0, 0], "a failed tsc fixes nothing");
      assert.deepEqual(
        compared.notCompared?.map(({ reason, engine }) => [reason, engine]),
        [["engine_not_ok", "tsc"]],
      );
      const edited = structured<Check>(await call(session.client, "after_edit_check", { files: ["src/work.ts"], baselineCheckId: baseline.checkId }));
      const delta = edited.delta as Delta;
      assert.deepEqual([delta.resolved.length, delta.netErrorDelta], [0, 0]);
      assert.equal(delta.notCompared?.[0]?.engine, "tsc");
    } finally {
      await session.close();
    }
  });

  it("no earlier check covering the files: the delta says no_baseline (never an empty delta next to a new error); partly covered: the rest is named", async () => {
    const project = scratchCopy("clean", "deltas-no-baseline");
    dirs.push(project);
    // Whole answers on a loaded machine too (a pending one's delta names what tsc still re-checks): see named-first.test.ts.
    writeFileSync(join(project, "signalint.config.json"), JSON.stringify({ pendingAfterMs: 3_600_000 }));
    writeFileSync(join(project, "src", "other.ts"), "export const ok = 1;\n");
    const session = await connect(project);
    try {
      const first = structured<Check>(await call(session.client, "after_edit_check", { files: ["src/index.ts"] }));
      assert.equal((first.delta as { status: string }).status, "no_baseline", "the very first check has nothing to compare with");
      writeFileSync(join(project, "src", "other.ts"), 'export const ok: number = "not a number";\n');
      const other = structured<Check>(await call(session.client, "after_edit_check", { files: ["src/other.ts"] }));
      assert.equal(other.totalIssues, 1);
      const none = other.delta as { status: string; message: string };
      assert.equal(none.status, "no_baseline", JSON.stringify(other.delta));
      assert.match(none.message, /src\/other\.ts/);
      writeFileSync(join(project, "src", "third.ts"), "export const third: string = 3;\n");
      const both = structured<Check>(await call(session.client, "after_edit_check", { files: ["src/other.ts", "src/third.ts"] }));
      const delta = both.delta as Delta;
      assert.deepEqual([delta.introduced.length, delta.unchangedCount], [0, 1], "third.ts had no baseline: not introduced");
      assert.deepEqual(
        delta.notCompared?.map(({ reason, paths }) => [reason, paths]),
        [["outside_baseline", ["src/third.ts"]]],
      );
    } finally {
      await session.close();
    }
  });

  it("a file tsc no longer type-checks (excluded from the tsconfig): its errors are not resolved, the file is named in notCompared", async () => {
    const project = scratchCopy("clean", "deltas-not-checked");
    dirs.push(project);
    writeFileSync(join(project, "src", "work.ts"), THREE_ERRORS);
    const session = await connect(project);
    try {
      const baseline = structured<Check>(await call(session.client, "check_files", { files: ["src/work.ts"] }));
      assert.equal(baseline.totalIssues, 3);
      const tsconfig = join(project, "tsconfig.json");
      writeFileSync(tsconfig, readFileSync(tsconfig, "utf8").replace('"include": ["src"]', '"include": ["src"], "exclude": ["src/work.ts"]'));
      const edited = structured<Check>(await call(session.client, "after_edit_check", { files: ["src/work.ts"] }));
      assert.equal(edited.status, "error", "nothing type-checked work.ts");
      assert.equal(edited.engines.tsc?.status, "ok");
      const delta = edited.delta as Delta;
      assert.deepEqual([delta.resolved.length, delta.netErrorDelta], [0, 0], "a file left unchecked fixes nothing");
      assert.deepEqual(
        delta.notCompared?.map(({ reason, engine, paths }) => [reason, engine, paths]),
        [["not_checked", "tsc", ["src/work.ts"]]],
      );
    } finally {
      await session.close();
    }
  });

  it("an LSP ingest is never the default baseline of after_edit_check", async () => {
    const project = scratchCopy("clean", "deltas-ingest");
    dirs.push(project);
    writeFileSync(join(project, "src", "work.ts"), THREE_ERRORS);
    const session = await connect(project);
    try {
      const baseline = structured<Check>(await call(session.client, "check_project"));
      assert.equal(baseline.totalIssues, 3);
      const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 5 } };
      structured(
        await call(session.client, "ingest_diagnostics", { serverName: "editor", diagnostics: [{ file: "src/work.ts", range, severity: 1, message: "x" }] }),
      );
      const edited = structured<Check>(await call(session.client, "after_edit_check", { files: ["src/work.ts"] }));
      const delta = edited.delta as Delta;
      assert.deepEqual([delta.introduced.length, delta.resolved.length, delta.unchangedCount, delta.notCompared], [0, 0, 3, undefined], JSON.stringify(delta));
    } finally {
      await session.close();
    }
  });
});
