// ESLint with type information (typescript-eslint's typed rules): a file's findings depend on the types of the files
// it imports, so no result is reused from the cache — an edit of a dependency changes the findings of a file that
// did not change. An untyped config keeps its per-file cache.
import assert from "node:assert/strict";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, it } from "node:test";
import { parseTypedAnswers } from "../../src/engines/eslint-types.ts";
import { linkPackage, rawEslintKeys, removeDir, REPO, runCli, tempDir } from "../helpers.ts";

const dirs: string[] = [];
after(() => dirs.forEach(removeDir));

const TYPED = `import tseslint from "typescript-eslint";
export default tseslint.config({
  files: ["**/*.ts"],
  extends: [tseslint.configs.base],
  languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
  rules: { "@typescript-eslint/no-floating-promises": "error" },
});
`;
const UNTYPED = `import tseslint from "typescript-eslint";
export default tseslint.config({ files: ["**/*.ts"], extends: [tseslint.configs.base], rules: { "no-debugger": "error" } });
`;
const VOID = "export function ping(): void {}\n";
const PROMISE = "export function ping(): Promise<void> {\n  return Promise.resolve();\n}\n";

function project(config: string, extra: Record<string, string> = {}): { dir: string; env: Record<string, string> } {
  const dir = tempDir("signalint-typed-");
  const files: Record<string, string> = {
    "package.json": '{ "name": "typed", "private": true, "type": "module", "scripts": { "lint": "eslint ." } }\n',
    "eslint.config.mjs": config,
    "tsconfig.json": JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, target: "es2022", module: "esnext", moduleResolution: "bundler" },
      include: ["src"],
    }),
    "signalint.config.json": JSON.stringify({ engines: { tsc: false, oxlint: false } }),
    "src/dep.ts": VOID,
    "src/use.ts": 'import { ping } from "./dep";\nexport function run(): void {\n  ping();\n}\n',
    ...extra,
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  for (const pkg of ["eslint", "typescript-eslint", "typescript"]) linkPackage(dir, pkg, join(REPO, "node_modules", pkg));
  const state = tempDir("signalint-state-");
  const cache = tempDir("signalint-cache-");
  dirs.push(dir, state, cache);
  return { dir, env: { SIGNALINT_STATE_DIR: state, SIGNALINT_CACHE_DIR: cache, SIGNALINT_DEBUG_TIMING: "1" } };
}

/** ESLint's findings of a check and its cache figures (from the timing line). */
function check(dir: string, env: Record<string, string>, paths: string[] = []): { keys: string[]; hits: number } {
  const result = runCli(["check", "--format", "json", ...paths], { cwd: dir, env });
  const report = JSON.parse(result.stdout) as { engines: Record<string, { status: string }>; issues: { file: string; line: number; rule: string }[] };
  assert.equal(report.engines.eslint?.status, "ok", result.stdout + result.stderr);
  const timing = JSON.parse(/signalint timing: (.*)/.exec(result.stderr)?.[1] ?? "{}") as { cache?: { eslint?: { hits: number } } };
  return { keys: report.issues.map((issue) => `${issue.file}:${issue.line} ${issue.rule}`).sort(), hits: timing.cache?.eslint?.hits ?? -1 };
}

it("a typed config: a file whose dependency changed is linted again, named on its own and in the whole project", () => {
  const { dir, env } = project(TYPED);
  assert.deepEqual(check(dir, env, ["src/use.ts"]).keys, []);
  assert.deepEqual(check(dir, env).keys, []);
  writeFileSync(join(dir, "src", "dep.ts"), PROMISE);
  const expected = ["src/use.ts:3 @typescript-eslint/no-floating-promises"];
  assert.deepEqual(rawEslintKeys(dir), expected);
  const one = check(dir, env, ["src/use.ts"]);
  assert.deepEqual(one.keys, expected, "use.ts did not change; its findings did");
  assert.equal(one.hits, 0);
  assert.deepEqual(check(dir, env).keys, expected);
  writeFileSync(join(dir, "src", "dep.ts"), VOID);
  assert.deepEqual(rawEslintKeys(dir), []);
  assert.deepEqual(check(dir, env, ["src/use.ts"]).keys, []);
});

it("an untyped config keeps its per-file cache", () => {
  const { dir, env } = project(UNTYPED);
  assert.deepEqual(check(dir, env, ["src/use.ts"]).keys, []);
  const again = check(dir, env, ["src/use.ts"]);
  assert.deepEqual(again.keys, []);
  assert.equal(again.hits, 1);
});

it("a config typed for src only: a file there is not answered from an untyped file's answer", () => {
  // bench/ first in every listing: one answer per set of config inputs once stood for src/ too.
  const scoped = TYPED.replace('files: ["**/*.ts"]', 'files: ["src/**/*.ts"]');
  const { dir, env } = project(scoped, { "bench/x.ts": "export const x = 1;\n" });
  assert.deepEqual(check(dir, env, ["bench/x.ts", "src/use.ts"]).keys, []);
  assert.deepEqual(check(dir, env).keys, []);
  writeFileSync(join(dir, "src", "dep.ts"), PROMISE);
  const expected = ["src/use.ts:3 @typescript-eslint/no-floating-promises"];
  assert.deepEqual(rawEslintKeys(dir), expected);
  assert.deepEqual(check(dir, env, ["bench/x.ts", "src/use.ts"]).keys, expected);
  assert.deepEqual(check(dir, env, ["src/use.ts"]).keys, expected);
  assert.deepEqual(check(dir, env).keys, expected);
});

it("a typed config over JavaScript (allowJs): a file whose dependency changed is linted again", () => {
  const js = TYPED.replace('files: ["**/*.ts"]', 'files: ["**/*.js"]');
  const { dir, env } = project(js, {
    "tsconfig.json": JSON.stringify({
      compilerOptions: { allowJs: true, checkJs: false, noEmit: true, target: "es2022", module: "esnext", moduleResolution: "bundler" },
      include: ["src"],
    }),
    "src/dep.js": "export function ping() {}\n",
    "src/use.js": 'import { ping } from "./dep.js";\nexport function run() {\n  ping();\n}\n',
  });
  for (const file of ["dep.ts", "use.ts"]) rmSync(join(dir, "src", file));
  assert.deepEqual(rawEslintKeys(dir), []);
  assert.deepEqual(check(dir, env, ["src/use.js"]).keys, []);
  writeFileSync(join(dir, "src", "dep.js"), "export async function ping() {}\n");
  const expected = ["src/use.js:3 @typescript-eslint/no-floating-promises"];
  assert.deepEqual(
    rawEslintKeys(dir).filter((key) => key.startsWith("src/use.js")),
    expected,
  );
  assert.deepEqual(check(dir, env, ["src/use.js"]).keys, expected);
});

it("a directory of docs is no directory ESLint failed to lint; one of sources its config leaves out is", () => {
  const { dir, env } = project(UNTYPED.replace('files: ["**/*.ts"]', 'files: ["**/*.js"]'), {
    "docs/README.md": "# docs\n",
    "lib/only.ts": "export const only = 1;\n",
  });
  assert.deepEqual(check(dir, env, ["docs"]).keys, []);
  const result = runCli(["check", "--format", "json", "lib"], { cwd: dir, env });
  const report = JSON.parse(result.stdout) as { engines: Record<string, { status: string; message?: string }> };
  assert.equal(report.engines.eslint?.status, "error");
  assert.match(report.engines.eslint?.message ?? "", /linted none of the 1 files under lib/);
});

it("reads the launcher's answers: one boolean per file, else nothing", () => {
  assert.deepEqual(parseTypedAnswers("[true,false]", 2), [true, false]);
  assert.equal(parseTypedAnswers("[true]", 2), null);
  assert.equal(parseTypedAnswers('["x",false]', 2), null);
  assert.equal(parseTypedAnswers("Error: config failed", 1), null);
});
