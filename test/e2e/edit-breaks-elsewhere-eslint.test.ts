// An edit that creates a typed-lint error in a file that imports the edited one (issue 36 item 1, ESLint's part): an
// exported function made async leaves its caller's call a floating promise. ESLint lints only the named files, so
// check_files and after_edit_check lint the files that import them too (the warm program knows them) and compare
// with what was known of those files.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { CheckIssue, Delta, NotChecked } from "../../src/core/contracts.ts";
import { call, connect, linkBin, linkPackage, rawEslintKeys, removeDir, REPO, structured } from "../helpers.ts";
import { projectFrom } from "../helpers/project.ts";

type Elsewhere = { introduced: number; unattributed?: number; issues: CheckIssue[]; nextStep: string };
type Check = {
  checkId: string;
  status: string;
  remainingIssues?: CheckIssue[];
  elsewhere?: Elsewhere;
  notChecked?: NotChecked[];
  nextStep?: string;
  delta?: Delta | { status: string } | null;
};

const TYPED = `import tseslint from "typescript-eslint";
export default tseslint.config({
  files: ["**/*.ts"],
  extends: [tseslint.configs.base],
  languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
  rules: { "@typescript-eslint/no-floating-promises": "error" },
});
`;
const VOID = "export function ping(): void {}\n";
const ASYNC = "export async function ping(): Promise<void> {}\n";
const FLOATING = "src/use.ts:3 @typescript-eslint/no-floating-promises";

function project(importers = 1, config: Record<string, unknown> = {}): string {
  const files: Record<string, string> = {
    "package.json": '{ "name": "typed-elsewhere", "private": true, "type": "module", "scripts": { "lint": "eslint ." } }\n',
    "eslint.config.mjs": TYPED,
    "tsconfig.json": JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, target: "es2022", module: "esnext", moduleResolution: "bundler" },
      include: ["src"],
    }),
    "signalint.config.json": JSON.stringify({ engines: { oxlint: false }, ...config }),
    "src/dep.ts": VOID,
    // use.ts imports dep.ts through a re-export: the type reaches it transitively.
    "src/hub.ts": 'export { ping } from "./dep";\n',
    "src/use.ts": 'import { ping } from "./hub";\nexport function run(): void {\n  ping();\n}\n',
  };
  for (let index = 1; index < importers; index++) files[`src/use${index}.ts`] = files["src/use.ts"] as string;
  const dir = projectFrom(files, "signalint-typed-elsewhere-");
  for (const pkg of ["eslint", "typescript-eslint"]) linkPackage(dir, pkg, join(REPO, "node_modules", pkg));
  linkBin(dir, "tsc", join(REPO, "node_modules", "typescript", "bin", "tsc"));
  return dir;
}

const keys = (issues: readonly CheckIssue[]) => issues.map((issue) => `${issue.file}:${issue.line} ${issue.rule}`).sort();

describe("an edit that creates a typed-lint error in a file that imports it", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  it("check_files and after_edit_check name the importer's no-floating-promises elsewhere, equal to a cold eslint; undoing it resolves it", async () => {
    const dir = project();
    dirs.push(dir);
    const session = await connect(dir);
    try {
      const first = structured<Check>(await call(session.client, "check_project"));
      assert.equal(first.status, "clean", JSON.stringify(first));
      writeFileSync(join(dir, "src", "dep.ts"), ASYNC);
      const files = structured<Check>(await call(session.client, "check_files", { files: ["src/dep.ts"] }));
      assert.equal(files.status, "issues_found", JSON.stringify(files));
      assert.equal(files.elsewhere?.introduced, 1, JSON.stringify(files));
      assert.deepEqual(keys(files.elsewhere?.issues ?? []), [FLOATING]);
      // The complete answer (the named file's issues and those elsewhere) equals a cold eslint over those files.
      assert.deepEqual(
        keys([...(files.remainingIssues ?? []), ...(files.elsewhere?.issues ?? [])]),
        rawEslintKeys(dir, ["src/dep.ts", "src/hub.ts", "src/use.ts"]),
      );
      const edited = structured<Check>(await call(session.client, "after_edit_check", { files: ["src/dep.ts"], baselineCheckId: first.checkId }));
      assert.equal(edited.status, "issues_found", JSON.stringify(edited));
      assert.deepEqual(keys((edited.delta as Delta).introduced as CheckIssue[]), [FLOATING], JSON.stringify(edited.delta));
      writeFileSync(join(dir, "src", "dep.ts"), VOID);
      assert.deepEqual(rawEslintKeys(dir), []);
      // The default baseline is the check before, whose elsewhere showed use.ts's error: this edit fixed it.
      const restored = structured<Check>(await call(session.client, "after_edit_check", { files: ["src/dep.ts"] }));
      assert.equal(restored.status, "clean", JSON.stringify(restored));
      const delta = restored.delta as Delta;
      assert.deepEqual(keys(delta.resolved as CheckIssue[]), [FLOATING], JSON.stringify(delta));
      assert.deepEqual(delta.introduced, []);
      assert.equal(delta.netErrorDelta, -1);
    } finally {
      await session.close();
    }
  });

  it("more importers than the budget: the nearest are linted, the rest named as possibly affected", async () => {
    const dir = project(4, { typedLintDependents: 2 });
    dirs.push(dir);
    const session = await connect(dir);
    try {
      structured<Check>(await call(session.client, "check_project"));
      writeFileSync(join(dir, "src", "dep.ts"), ASYNC);
      const files = structured<Check>(await call(session.client, "check_files", { files: ["src/dep.ts"] }));
      assert.equal(files.status, "issues_found", JSON.stringify(files));
      // hub.ts and one importer of it are linted (nearest first); three more files may be affected.
      assert.equal(files.elsewhere?.introduced, 1, JSON.stringify(files));
      const note = files.notChecked?.find((entry) => /may be affected/.test(entry.reason));
      assert.ok(note, JSON.stringify(files.notChecked));
      assert.equal(note.count, 3);
      assert.match(note.reason, /run check_project/);
    } finally {
      await session.close();
    }
  });

  it("without a warm program (command line) the importers are not known: said, never guessed", async () => {
    const dir = project();
    dirs.push(dir);
    const session = await connect(dir, { SIGNALINT_WARM_TYPESCRIPT: "0" });
    try {
      structured<Check>(await call(session.client, "check_project"));
      writeFileSync(join(dir, "src", "dep.ts"), ASYNC);
      const files = structured<Check>(await call(session.client, "check_files", { files: ["src/dep.ts"] }));
      assert.equal(files.elsewhere, undefined, JSON.stringify(files));
      const note = files.notChecked?.find((entry) => /import/.test(entry.reason) && /ESLint/.test(entry.reason));
      assert.ok(note, JSON.stringify(files));
      assert.deepEqual(note.sample, ["src/dep.ts"]);
      // A clean answer says it too, where an agent reads first: its next step.
      assert.equal(files.status, "clean", JSON.stringify(files));
      assert.match(
        files.nextStep ?? "",
        /^No issues in these files, but .*ESLint's typed rules.*run check_project.* before calling the edit safe\.$/,
        JSON.stringify(files),
      );
    } finally {
      await session.close();
    }
  });
});
