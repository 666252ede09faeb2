// Issue 36 item 1 on every TypeScript path: an export renamed, deleted or retyped in a.ts breaks b.ts, which imports
// it; check_files and after_edit_check of a.ts name b.ts's errors — the same ones a cold run of the project's own tsc
// reports — and are never clean. Warm TypeScript 5.9 and 6, the command line, TypeScript 7, a solution (project
// references, warm and `tsc -b`), and a project whose ESLint has typed rules.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { CheckIssue, Delta } from "../../src/core/contracts.ts";
import { BUNDLE, call, CLEAN_PATH, connect, linkPackage, removeDir, REPO, runCli, STATE_HOME, structured, tempDir } from "../helpers.ts";
import { projectFrom } from "../helpers/project.ts";
import { rawTsc } from "../raw-engines.ts";

type Check = { checkId: string; status: string; elsewhere?: { introduced: number; issues: CheckIssue[] }; delta?: Delta | { status: string } | null };

const A = 'export const SEP = "/";\n\nexport function mergePath(a: string, b: string): string {\n  return `${a}${SEP}${b}`;\n}\n';
const B = 'import { mergePath } from "./a";\n\nexport const where: string = mergePath("x", "y");\n';

/** The edits of an export that break its importer, as a.ts's new text. */
const EDITS: Record<string, string> = {
  rename: A.replace("mergePath", "joinPath"),
  delete: 'export const SEP = "/";\n',
  retype: A.replace("): string {\n  return `${a}${SEP}${b}`;", "): number {\n  return a.length + SEP.length + b.length;"),
};

interface Shape {
  label: string;
  /** The TypeScript package the project installs (this repository's node_modules/<name>). */
  typescript: "typescript" | "typescript6" | "typescript7";
  warm: boolean;
  solution?: boolean;
  typedEslint?: boolean;
}

const SHAPES: Shape[] = [
  { label: "TypeScript 5.9, warm", typescript: "typescript", warm: true },
  { label: "TypeScript 6, warm", typescript: "typescript6", warm: true },
  { label: "TypeScript 5.9, command line", typescript: "typescript", warm: false },
  { label: "TypeScript 7, warm", typescript: "typescript7", warm: true },
  { label: "TypeScript 7, command line", typescript: "typescript7", warm: false },
  { label: "a solution, TypeScript 5.9, warm", typescript: "typescript", warm: true, solution: true },
  { label: "a solution, TypeScript 6, warm", typescript: "typescript6", warm: true, solution: true },
  { label: "a solution, tsc -b on the command line", typescript: "typescript", warm: false, solution: true },
  { label: "ESLint with typed rules, TypeScript 5.9, warm", typescript: "typescript", warm: true, typedEslint: true },
];

const COMPILER = { strict: true, target: "es2022", module: "esnext", moduleResolution: "bundler" };

const TYPED_ESLINT = `import tseslint from "typescript-eslint";
export default tseslint.config({
  files: ["**/*.ts"],
  extends: [tseslint.configs.base],
  languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
  rules: { "@typescript-eslint/no-floating-promises": "error" },
});
`;

/** The project of a shape and the path of a.ts and b.ts in it. */
function project(shape: Shape): { dir: string; a: string; b: string } {
  const engines = { oxlint: false, biome: false, eslint: Boolean(shape.typedEslint), tsc: true };
  const common = {
    "package.json": JSON.stringify({
      name: "breaks-elsewhere",
      private: true,
      type: "module",
      ...(shape.typedEslint ? { scripts: { lint: "eslint ." } } : {}),
    }),
    "signalint.config.json": JSON.stringify({ engines, warmTypeScript: shape.warm }),
    ...(shape.typedEslint ? { "eslint.config.mjs": TYPED_ESLINT } : {}),
  };
  const files: Record<string, string> = shape.solution
    ? {
        ...common,
        "tsconfig.json": JSON.stringify({ files: [], references: [{ path: "packages/core" }, { path: "packages/app" }] }),
        "packages/core/tsconfig.json": JSON.stringify({ compilerOptions: { ...COMPILER, composite: true, rootDir: "src", outDir: "dist" }, include: ["src"] }),
        "packages/core/src/a.ts": A,
        "packages/app/tsconfig.json": JSON.stringify({
          compilerOptions: { ...COMPILER, composite: true, rootDir: "src", outDir: "dist" },
          include: ["src"],
          references: [{ path: "../core" }],
        }),
        "packages/app/src/b.ts": B.replace('"./a"', '"../../core/src/a"'),
      }
    : { ...common, "tsconfig.json": JSON.stringify({ compilerOptions: { ...COMPILER, noEmit: true }, include: ["src"] }), "src/a.ts": A, "src/b.ts": B };
  const dir = projectFrom(files);
  linkPackage(dir, "typescript", join(REPO, "node_modules", shape.typescript));
  if (shape.typedEslint) for (const pkg of ["eslint", "typescript-eslint"]) linkPackage(dir, pkg, join(REPO, "node_modules", pkg));
  return shape.solution ? { dir, a: "packages/core/src/a.ts", b: "packages/app/src/b.ts" } : { dir, a: "src/a.ts", b: "src/b.ts" };
}

/** Cold answers by TypeScript package, layout and a.ts's text: shapes that differ only in what tsc never reads share one. */
const coldRuns = new Map<string, string[]>();

/**
 * What a cold run of the project's own tsc reports outside a.ts: "file:line rule", sorted. The warm, command-line and
 * typed-ESLint shapes of one TypeScript and layout differ only in signalint.config.json and eslint.config.mjs, which
 * tsc never reads (neither is in a program), so their tree is the same to tsc and one cold run answers for all.
 */
function coldElsewhere(dir: string, shape: Shape, a: string): string[] {
  const key = JSON.stringify([shape.typescript, Boolean(shape.solution), readFileSync(join(dir, a), "utf8")]);
  const known = coldRuns.get(key);
  if (known) return known;
  const tscBin = join(dir, "node_modules", "typescript", "bin", "tsc");
  const answer = rawTsc(dir, { build: Boolean(shape.solution), tscBin })
    .filter((diagnostic) => diagnostic.file !== a)
    .map((diagnostic) => `${diagnostic.file}:${diagnostic.line} ${diagnostic.rule}`)
    .sort();
  coldRuns.set(key, answer);
  return answer;
}

const keys = (issues: readonly { file: string; line: number; rule: string }[]) => issues.map((issue) => `${issue.file}:${issue.line} ${issue.rule}`).sort();

describe("an edit that breaks a file it was not asked about, on every TypeScript path (issue 36 item 1)", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  for (const shape of SHAPES) {
    it(`${shape.label}: a renamed, deleted or retyped export names the importer's errors, as a cold tsc reports them`, async () => {
      const { dir, a, b } = project(shape);
      dirs.push(dir);
      const session = await connect(dir);
      try {
        const first = structured<Check>(await call(session.client, "check_project"));
        assert.equal(first.status, "clean", JSON.stringify(first));
        for (const [edit, text] of Object.entries(EDITS)) {
          writeFileSync(join(dir, a), text);
          const cold = coldElsewhere(dir, shape, a);
          assert.ok(cold.length > 0 && cold.every((key) => key.startsWith(`${b}:`)), `${edit}: the cold run breaks ${b}: ${cold.join(", ")}`);
          const files = structured<Check>(await call(session.client, "check_files", { files: [a] }));
          assert.equal(files.status, "issues_found", `${edit}: ${JSON.stringify(files)}`);
          assert.equal(files.elsewhere?.introduced, cold.length, `${edit}: ${JSON.stringify(files.elsewhere)}`);
          assert.deepEqual(keys(files.elsewhere?.issues ?? []), cold, edit);
          const edited = structured<Check>(await call(session.client, "after_edit_check", { files: [a], baselineCheckId: first.checkId }));
          assert.notEqual(edited.status, "clean", `${edit}: ${JSON.stringify(edited)}`);
          const delta = edited.delta as Delta;
          assert.deepEqual(keys(delta.introduced.filter((issue) => issue.file !== a)), cold, `${edit}: ${JSON.stringify(delta)}`);
          writeFileSync(join(dir, a), A);
          const restored = structured<Check>(await call(session.client, "after_edit_check", { files: [a], baselineCheckId: first.checkId }));
          assert.equal(restored.status, "clean", `${edit}, restored: ${JSON.stringify(restored)}`);
          assert.deepEqual((restored.delta as Delta).introduced, [], `${edit}, restored`);
        }
      } finally {
        await session.close();
      }
    });
  }
});

describe("the command line's check of a file, through the project's daemon", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  it("names the errors a rename made in another file and exits 1; a later hook still reports them (exit 2)", () => {
    const { dir, a, b } = project(SHAPES[0] as Shape);
    const state = tempDir("signalint-state-");
    dirs.push(dir, state);
    const env = { PATH: CLEAN_PATH, HOME: process.env.HOME ?? "", XDG_STATE_HOME: STATE_HOME, SIGNALINT_DAEMON: "1", SIGNALINT_STATE_DIR: state };
    try {
      const whole = runCli(["check"], { cwd: dir, env });
      assert.equal(whole.status, 0, whole.stdout + whole.stderr);
      writeFileSync(join(dir, a), EDITS.rename as string);
      const cold = coldElsewhere(dir, SHAPES[0] as Shape, a);
      const text = runCli(["check", a], { cwd: dir, env });
      assert.equal(text.status, 1, text.stdout + text.stderr);
      assert.match(text.stdout, /^Elsewhere: 1 tsc error in other files/m);
      assert.match(text.stdout, new RegExp(`^  ${b}:\\d+:\\d+  error  TS(2305|2724) `, "m"));
      assert.match(text.stdout, /No issues in the checked paths, but other files of their programs have tsc errors/);
      // The one error outside a.ts is listed above: nothing is counted as "not listed".
      assert.doesNotMatch(text.stdout, /not listed/);
      const json = runCli(["check", "--format", "json", a], { cwd: dir, env });
      const report = JSON.parse(json.stdout) as { status: string; errorCount: number; elsewhere?: { introduced: number; issues: CheckIssue[] } };
      assert.equal(report.status, "issues_found");
      assert.equal(report.errorCount, 0, "a.ts itself is fine");
      assert.deepEqual(keys(report.elsewhere?.issues ?? []), cold);
      // The command line's check of a.ts showed only a.ts: the hook after it still names b.ts's errors.
      const hook = spawnSync(process.execPath, [BUNDLE, "hook"], {
        cwd: dir,
        env: { ...env, SIGNALINT_PREWARM_DELAY_MS: "off" },
        input: JSON.stringify({ cwd: dir, tool_input: { file_path: join(dir, a) } }),
        encoding: "utf8",
      });
      assert.equal(hook.status, 2, hook.stderr);
      assert.match(hook.stderr, new RegExp(`${b}:1:\\d+ error TS(2305|2724)`));
      writeFileSync(join(dir, a), A);
      const restored = runCli(["check", a], { cwd: dir, env });
      assert.equal(restored.status, 0, restored.stdout + restored.stderr);
      assert.doesNotMatch(restored.stdout, /Elsewhere/);
    } finally {
      const stop = runCli(["daemon", "stop"], { cwd: dir, env });
      assert.equal(stop.status, 0, stop.stderr);
    }
  });
});
