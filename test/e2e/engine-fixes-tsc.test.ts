import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { CheckResponse, NormalizedIssue } from "../../src/core/contracts.ts";
import type { PreviewResult } from "../../src/core/fix-contracts.ts";
import { call, connect, errorOf, everyIssue, linkPackage, rawTscKeys, removeDir, REPO, structured, tempDir } from "../helpers.ts";
import { writeFiles } from "../helpers/project.ts";
import { assertTreeUnchanged, snapshotTree } from "../helpers/tree.ts";

const COMPILER = { strict: true, noEmit: true, noUnusedLocals: true, target: "es2022", module: "esnext", moduleResolution: "bundler" };

/** A TypeScript project whose errors TypeScript's own code fixes address, and one they do not (src/other.ts). */
const FILES = {
  "src/math.ts":
    "export function add(a: number, b: number): number {\n  return a + b;\n}\nexport function sub(a: number, b: number): number {\n  return a - b;\n}\n",
  // TS2304 twice: one module exports `add` and `sub`: their imports are the fixes, joined in one declaration.
  "src/uses-import.ts": "export const three = add(1, 2);\nexport const one = sub(2, 1);\n",
  // TS2552: one name is near `mesage`.
  "src/spelling.ts": 'const message = "hi";\nexport const shout = mesage.toUpperCase();\n',
  // TS2339 with "Did you forget to use 'await'?".
  "src/await.ts":
    "async function load(): Promise<{ id: number }> {\n  return { id: 1 };\n}\nexport async function run(): Promise<number> {\n  const data = load();\n  return data.id;\n}\n",
  // TS6192 (every binding of an import unused) and TS6133 (an unused local).
  "src/unused.ts": 'import { add, sub } from "./math";\nexport function double(value: number): number {\n  const unused = value * 3;\n  return value * 2;\n}\n',
  // TS2322: no fix of TypeScript's; it stays.
  "src/other.ts": 'export const count: number = "one";\n',
};

function project(typescript: string, files: Record<string, string> = FILES, warm = true): string {
  const dir = tempDir("signalint-tsfix-");
  writeFiles(dir, {
    "package.json": JSON.stringify({ name: "tsfix", private: true, type: "module" }),
    "tsconfig.json": JSON.stringify({ compilerOptions: COMPILER, include: ["src"] }),
    "signalint.config.json": JSON.stringify({ engines: { oxlint: false, tsc: true }, warmTypeScript: warm }),
    ...files,
  });
  linkPackage(dir, "typescript", join(REPO, "node_modules", typescript));
  return dir;
}

const tscIssues = (issues: readonly NormalizedIssue[]) => issues.filter((issue) => issue.engine === "tsc");
const key = (issue: Pick<NormalizedIssue, "file" | "line" | "col" | "rule">) => `${issue.file}:${issue.line}:${issue.col} ${issue.rule}`;

describe("TypeScript's code fixes (TypeScript 5.9)", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  it("missing import, spelling, missing await, unused declarations: fixed, applied with verify; a cold tsc then has those gone and no new one", async () => {
    const dir = project("typescript");
    dirs.push(dir);
    const before = rawTscKeys(dir, ["tsconfig.json"]);
    const session = await connect(dir);
    try {
      const check = structured<CheckResponse>(await call(session.client, "check_project"));
      const issues = tscIssues(await everyIssue(session, check));
      assert.deepEqual(issues.map(key).sort(), before, "the check's tsc issues are a cold tsc's");
      const rules = Object.fromEntries(issues.map((issue) => [issue.rule, issue]));
      // Marked only where TypeScript always gives a safe fix: the import of unused bindings.
      assert.equal(rules.TS6192?.fixKind, "safe", JSON.stringify(issues));
      assert.ok(rules.TS2304 && !rules.TS2304.fixable);
      const asked = issues.filter((issue) => issue.file !== "src/other.ts");
      const tree = snapshotTree(dir);
      const preview = structured<PreviewResult>(await call(session.client, "preview_diagnostic_fix", { issueIds: asked.map((issue) => issue.issueId) }));
      assertTreeUnchanged(dir, tree);
      const diff = preview.files.map((file) => file.diff).join("");
      assert.match(diff, /^\+import \{ add, sub \} from "\.\/math";$/m);
      assert.match(diff, /^\+export const shout = message\.toUpperCase\(\);$/m);
      assert.match(diff, /await load\(\)/);
      assert.match(diff, /^-import \{ add, sub \} from "\.\/math";$/m);
      assert.match(diff, /^- {2}const unused = value \* 3;$/m);
      const addressed = preview.files.flatMap((file) => file.fixes?.flatMap((fix) => fix.issueIds) ?? []);
      assert.deepEqual(addressed.sort(), asked.map((issue) => issue.issueId).sort(), JSON.stringify(preview.notFixed));
      assert.ok(preview.files.every((file) => file.fixes?.every((fix) => fix.engine === "tsc" && fix.kind === "safe")));
      const applied = structured<{ rolledBack?: boolean; delta: { resolved: { issueId: string }[]; introduced: unknown[] } }>(
        await call(session.client, "apply_diagnostic_fix", { transactionId: preview.transactionId, confirm: true }),
      );
      assert.equal(applied.rolledBack, undefined);
      assert.deepEqual(applied.delta.introduced, []);
    } finally {
      await session.close();
    }
    assert.deepEqual(rawTscKeys(dir, ["tsconfig.json"]), ["src/other.ts:1:14 TS2322"], "only the error no fix addresses is left");
  });

  it("the same marks from the command line as from a warm program; a suggestion only when asked", async () => {
    const effects = "function compute(): number {\n  return 1;\n}\nexport function run(): void {\n  const unused = compute();\n}\n";
    const dir = project("typescript", { ...FILES, "src/effects.ts": effects }, false);
    dirs.push(dir);
    const session = await connect(dir);
    try {
      const check = structured<CheckResponse>(await call(session.client, "check_project"));
      const issues = tscIssues(await everyIssue(session, check));
      assert.deepEqual(
        issues.filter((issue) => issue.fixable).map((issue) => `${key(issue)} ${issue.fixKind}`),
        ["src/unused.ts:1:1 TS6192 safe"],
      );
      // TS2322 has TypeScript fixes of kind suggestion at most: not applied by default.
      const other = issues.find((issue) => issue.file === "src/other.ts");
      assert.ok(other);
      const refused = errorOf(await call(session.client, "preview_diagnostic_fix", { issueIds: [other.issueId] }));
      assert.equal(refused.code, "nothing_to_fix");
      // Removing a declaration whose initializer runs code (a call) is a suggestion: applied only when asked.
      const effect = issues.find((issue) => issue.file === "src/effects.ts");
      assert.ok(effect, JSON.stringify(issues));
      const kept = errorOf(await call(session.client, "preview_diagnostic_fix", { issueIds: [effect.issueId] }));
      assert.match(kept.message, /its fix \(Remove unused declaration for: 'unused'\) is a suggestion one, not among kinds safe/);
      const asked = structured<PreviewResult>(await call(session.client, "preview_diagnostic_fix", { issueIds: [effect.issueId], kinds: ["suggestion"] }));
      assert.match(asked.files[0]?.diff ?? "", /^- {2}const unused = compute\(\);$/m);
      assert.deepEqual(asked.files[0]?.fixes, [{ engine: "tsc", kind: "suggestion", issueIds: [effect.issueId] }]);
    } finally {
      await session.close();
    }
  });

  it("a fix that breaks the build is rolled back (verify): the file restored, the new error named", async () => {
    const dir = project("typescript", { "src/label.ts": "const count = 1;\nexport const label: string = cuont;\n" });
    dirs.push(dir);
    const original = readFileSync(join(dir, "src", "label.ts"), "utf8");
    const session = await connect(dir);
    try {
      const check = structured<CheckResponse>(await call(session.client, "check_project"));
      const spelling = tscIssues(await everyIssue(session, check)).find((issue) => issue.rule === "TS2552");
      assert.ok(spelling, JSON.stringify(check));
      const preview = structured<PreviewResult>(await call(session.client, "preview_diagnostic_fix", { issueIds: [spelling.issueId] }));
      assert.match(preview.files[0]?.diff ?? "", /^\+export const label: string = count;$/m);
      const applied = structured<{ rolledBack?: boolean; rollback?: { introduced: { rule: string }[] } }>(
        await call(session.client, "apply_diagnostic_fix", { transactionId: preview.transactionId, confirm: true }),
      );
      assert.equal(applied.rolledBack, true);
      assert.ok(
        applied.rollback?.introduced.some((issue) => issue.rule === "TS2322"),
        JSON.stringify(applied.rollback),
      );
    } finally {
      await session.close();
    }
    assert.equal(readFileSync(join(dir, "src", "label.ts"), "utf8"), original);
  });

  it("after ESLint's fixes: TypeScript's issues are found where the linter moved them, and a file both fix keeps both edits", async () => {
    const dir = project("typescript", {
      "src/math.ts": FILES["src/math.ts"],
      // ESLint's fix removes the three leading blank lines of both files: every line below moves up by three.
      "src/box.ts": "\n\n\nexport class Box {\n  size = 1;\n}\n",
      // TS2339 (`grow` is not on Box: TypeScript's fix declares it in box.ts, a suggestion) and TS2304 (`add`: an import).
      // …and TS2322, which TypeScript has no fix for: in a files request, not news in notFixed.
      "src/use.ts":
        '\n\n\nimport { Box } from "./box";\nexport const grown: number = new Box().grow();\nexport const three = add(1, 2);\nexport const count: number = "one";\n',
      "eslint.config.js": `export default [{ files: ["**/*.ts"], languageOptions: { parser: (await import("typescript-eslint")).parser }, rules: { "no-multiple-empty-lines": ["error", { max: 1, maxBOF: 0 }] } }];\n`,
    });
    dirs.push(dir);
    for (const pkg of ["eslint", "typescript-eslint"]) linkPackage(dir, pkg, join(REPO, "node_modules", pkg));
    const session = await connect(dir);
    try {
      const check = structured<CheckResponse>(await call(session.client, "check_project"));
      const issues = await everyIssue(session, check);
      const ids = (rule: string) => issues.filter((issue) => issue.rule === rule).map((issue) => issue.issueId);
      assert.equal(ids("no-multiple-empty-lines").length, 2, JSON.stringify(issues));
      assert.deepEqual([ids("TS2339").length, ids("TS2304").length, ids("TS2322").length], [1, 1, 1], JSON.stringify(issues));
      const preview = structured<PreviewResult>(
        await call(session.client, "preview_diagnostic_fix", { files: ["src/use.ts", "src/box.ts"], kinds: ["safe", "suggestion"] }),
      );
      assert.ok(!(preview.notFixed ?? []).some((entry) => ids("TS2322").includes(entry.issue)), JSON.stringify(preview.notFixed));
      await call(session.client, "apply_diagnostic_fix", { transactionId: preview.transactionId, confirm: true, verify: false });
      const use = readFileSync(join(dir, "src", "use.ts"), "utf8");
      const box = readFileSync(join(dir, "src", "box.ts"), "utf8");
      assert.ok(!use.startsWith("\n") && !box.startsWith("\n"), `ESLint's fix kept in both files: ${JSON.stringify([use, box])}`);
      assert.match(use, /import \{ add \} from "\.\/math"/, "the import asked on line 6 of the check's text, now line 3");
      assert.match(box, /grow\(/, "TypeScript's declaration of grow in box.ts, on top of ESLint's fix of box.ts");
      const addressed = new Set(preview.files.flatMap((file) => (file.fixes ?? []).flatMap((fix) => fix.issueIds)));
      for (const id of [...ids("TS2339"), ...ids("TS2304")])
        assert.ok(addressed.has(id), `${id} addressed: ${JSON.stringify(preview.files.map((file) => file.fixes))}`);
    } finally {
      await session.close();
    }
  });

  it("TypeScript 7: no fix, and notFixed says why", async () => {
    const dir = project("typescript7", { "src/uses-import.ts": FILES["src/uses-import.ts"], "src/math.ts": FILES["src/math.ts"] });
    dirs.push(dir);
    const session = await connect(dir);
    try {
      const check = structured<CheckResponse>(await call(session.client, "check_project"));
      const issues = tscIssues(await everyIssue(session, check));
      assert.ok(issues.length > 0 && issues.every((issue) => !issue.fixable), JSON.stringify(issues));
      const refused = errorOf(await call(session.client, "preview_diagnostic_fix", { issueIds: issues.map((issue) => issue.issueId) }));
      assert.equal(refused.code, "nothing_to_fix");
      assert.match(refused.message, /TypeScript 7 \(tsgo\) offers code fixes only through its language server/);
    } finally {
      await session.close();
    }
  });
});
