// A delta never calls a failure a fix (issue 36 item 1): an error elsewhere is told gone only when the programs it came
// from ran again. The shape of Zod's integration fixtures: the root program holds fixtures/ loosely (no errors there),
// while the fixtures' own stricter program — run by a script of its own — reports errors in them. An edit of a file
// only the root program holds re-checks the root program, which reads the fixtures without errors; that silence says
// nothing of the fixtures' program, so their errors stay where they were, never "resolved".
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { after, describe, it } from "node:test";
import type { Delta } from "../../src/core/contracts.ts";
import { call, connect, linkPackage, removeDir, REPO, structured, tempDir } from "../helpers.ts";
import { projectFrom } from "../helpers/project.ts";
import { rawTsc } from "../raw-engines.ts";

type Check = { checkId: string; status: string; totalIssues: number; pending?: unknown; delta?: Delta | { status: string } | null };

const UTIL = "export function floatSafeRemainder(a: number, b: number): number {\n  return a % b;\n}\n";
const USE = 'import { floatSafeRemainder } from "./util";\n\nexport const rest: number = floatSafeRemainder(7, 2);\n';
/** An implicit any: an error in the fixtures' strict program, none in the root's loose one. */
const FIXTURE = "export function echo(value) {\n  return value;\n}\n";

function project(warm: boolean, config: Record<string, unknown> = {}, files: Record<string, string> = {}): string {
  const loose = { strict: false, noEmit: true, target: "es2022", module: "esnext", moduleResolution: "bundler" };
  const dir = projectFrom({
    "package.json": JSON.stringify({
      name: "two-programs",
      private: true,
      type: "module",
      scripts: { typecheck: "tsc -p tsconfig.json", "test:fixtures": "tsc -p fixtures/tsconfig.json" },
    }),
    "signalint.config.json": JSON.stringify({ engines: { oxlint: false, biome: false, eslint: false, tsc: true }, warmTypeScript: warm, ...config }),
    "tsconfig.json": JSON.stringify({ compilerOptions: loose, include: ["src", "fixtures"] }),
    "fixtures/tsconfig.json": JSON.stringify({ compilerOptions: { ...loose, strict: true }, include: ["."] }),
    "fixtures/echo.ts": FIXTURE,
    "fixtures/other.ts": FIXTURE.replace("echo", "other"),
    "src/util.ts": UTIL,
    "src/use.ts": USE,
    ...files,
  });
  linkPackage(dir, "typescript", join(REPO, "node_modules", "typescript"));
  return dir;
}

const keys = (issues: readonly { file: string; line: number; rule: string }[]) => issues.map((issue) => `${issue.file}:${issue.line} ${issue.rule}`).sort();

describe("errors of a program the edit's check did not run (issue 36 item 1)", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  it("a baseline the server no longer remembers (a restart) tells none of the fixtures' errors fixed", async () => {
    const dir = project(true);
    const state = tempDir("signalint-state-");
    dirs.push(dir, state);
    const before = await connect(dir, { SIGNALINT_STATE_DIR: state });
    let first: Check;
    try {
      first = structured<Check>(await call(before.client, "check_project"));
      assert.equal(first.totalIssues, 2, JSON.stringify(first));
    } finally {
      await before.close();
    }
    // The snapshot is on disk; which programs answered it died with the server that ran it.
    writeFileSync(join(dir, "src/util.ts"), UTIL.replace("floatSafeRemainder", "remainder"));
    const after = await connect(dir, { SIGNALINT_STATE_DIR: state });
    try {
      let edited = structured<Check>(await call(after.client, "after_edit_check", { files: ["src/util.ts"], baselineCheckId: first.checkId }));
      while (edited.pending)
        edited = structured<Check>(await call(after.client, "after_edit_check", { files: ["src/util.ts"], baselineCheckId: first.checkId }));
      const delta = edited.delta as Delta;
      assert.deepEqual(keys(delta.resolved), [], `nothing was fixed: ${JSON.stringify(delta)}`);
    } finally {
      await after.close();
    }
  });

  it("a pending answer that names the tsconfig never calls its errors in a file outside the root resolved", async () => {
    // lib/ lies above the root; its error is reported on tsconfig.json (engines/tsc.ts outsideRootIssue). A named-first
    // answer (pendingAfterMs 0) holds the named files' diagnostics only: never that one, so it answers whole.
    const dir = project(true, { pendingAfterMs: 0 });
    const lib = tempDir("signalint-outer-lib-");
    dirs.push(lib);
    writeFileSync(join(lib, "outer.ts"), 'export const outer: number = "one";\n');
    writeFileSync(join(dir, "src/shared.ts"), `export { outer } from "${relative(join(dir, "src"), join(lib, "outer"))}";\n`);
    const session = await connect(dir);
    try {
      const first = structured<Check>(await call(session.client, "check_project"));
      assert.equal(first.totalIssues, 3, JSON.stringify(first));
      writeFileSync(join(dir, "src/util.ts"), `${UTIL}export const extra = 1;\n`);
      const named = ["src/util.ts", "tsconfig.json"];
      const edited = structured<Check>(await call(session.client, "after_edit_check", { files: named, baselineCheckId: first.checkId }));
      const delta = edited.delta as Delta;
      assert.deepEqual(keys(delta.resolved), [], `nothing was fixed: ${JSON.stringify(edited)}`);
      assert.deepEqual(keys(delta.introduced), [], JSON.stringify(edited));
    } finally {
      await session.close();
    }
  });

  for (const warm of [true, false]) {
    it(`${warm ? "warm" : "command-line"} TypeScript: an export rename's delta keeps the fixtures' errors, introduces the importer's`, async () => {
      const dir = project(warm);
      dirs.push(dir);
      const tscBin = join(dir, "node_modules", "typescript", "bin", "tsc");
      const fixtures = keys(rawTsc(join(dir, "fixtures"), { tscBin }).map((issue) => ({ ...issue, file: `fixtures/${issue.file}` })));
      assert.deepEqual(fixtures, ["fixtures/echo.ts:1 TS7006", "fixtures/other.ts:1 TS7006"], "the fixtures' own program reports them");
      const session = await connect(dir);
      try {
        const first = structured<Check>(await call(session.client, "check_project"));
        assert.equal(first.totalIssues, fixtures.length, JSON.stringify(first));
        writeFileSync(join(dir, "src/util.ts"), UTIL.replace("floatSafeRemainder", "remainder"));
        const root = keys(rawTsc(dir, { tscBin }));
        assert.ok(root.length > 0 && root.every((key) => key.startsWith("src/use.ts:")), `the root program breaks use.ts only: ${root.join(", ")}`);
        let edited = structured<Check>(await call(session.client, "after_edit_check", { files: ["src/util.ts"], baselineCheckId: first.checkId }));
        // A pending answer (the named file first) is followed by the complete one.
        while (edited.pending)
          edited = structured<Check>(await call(session.client, "after_edit_check", { files: ["src/util.ts"], baselineCheckId: first.checkId }));
        const delta = edited.delta as Delta;
        assert.deepEqual(keys(delta.resolved), [], `nothing was fixed: ${JSON.stringify(delta)}`);
        assert.deepEqual(keys(delta.introduced), root, JSON.stringify(delta));
        assert.ok(delta.netErrorDelta > 0, JSON.stringify(delta));
        // Undone: compared with the rename's check (the newest covering util.ts), whose error in use.ts came from the
        // root program alone — which ran again — so a warm check tells it fixed; a command-line run names no files.
        writeFileSync(join(dir, "src/util.ts"), UTIL);
        let undone = structured<Check>(await call(session.client, "after_edit_check", { files: ["src/util.ts"] }));
        while (undone.pending) undone = structured<Check>(await call(session.client, "after_edit_check", { files: ["src/util.ts"] }));
        const back = undone.delta as Delta;
        assert.deepEqual(keys(back.resolved), warm ? root : [], JSON.stringify(back));
        assert.deepEqual(back.introduced, [], JSON.stringify(back));
      } finally {
        await session.close();
      }
    });
  }
});
