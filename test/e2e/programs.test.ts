import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { after, describe, it } from "node:test";
import type { CheckResponse } from "../../src/core/contracts.ts";
import { CLEAN_PATH, linkBin, linkPackage, rawTscKeys, removeDir, REPO, runCli, tempDir } from "../helpers.ts";

/** Issue 21, items 1, 5 and 7: Signalint checks the programs the project checks, once, and says what it did not check. */

/** A generated project: files by path, engines linked like a project's own installs; generated files go to `cache`. */
function project(files: Record<string, string>, engines: string[] = ["tsc"]): { dir: string; cache: string } {
  const dir = tempDir("signalint-programs-");
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const entries: Record<string, string> = { tsc: "typescript/bin/tsc", oxlint: "oxlint/bin/oxlint" };
  for (const engine of engines) linkBin(dir, engine, join(REPO, "node_modules", entries[engine] as string));
  return { dir, cache: tempDir("signalint-cache-") };
}

/** Local type packages shaped like @types/node and vitest's globals (`compilerOptions.types`), no install needed. */
const TYPE_PACKAGES: Record<string, string> = {
  "node_modules/@types/node/package.json": '{ "name": "@types/node", "version": "20.0.0", "types": "index.d.ts" }\n',
  "node_modules/@types/node/index.d.ts": "declare var process: { env: Record<string, string | undefined> };\n",
  "node_modules/vitest/package.json": '{ "name": "vitest", "version": "3.0.0", "types": "index.d.ts" }\n',
  "node_modules/vitest/index.d.ts": "export declare function expect(value: unknown): { toBe(other: unknown): void };\n",
  "node_modules/vitest/globals.d.ts":
    "declare global {\n  function describe(name: string, body: () => void): void;\n  function it(name: string, body: () => void): void;\n}\nexport {};\n",
};

function check(dir: string, cache: string, args: string[] = [], env: Record<string, string> = {}): { status: number | null; response: CheckResponse } {
  const result = runCli(["check", "--format", "response", ...args], { cwd: dir, env: { SIGNALINT_CACHE_DIR: cache, ...env } });
  return { status: result.status, response: JSON.parse(result.stdout) as CheckResponse };
}

/** A CLI check's json report: the response's status, engines and notChecked as they are, and every issue. */
type JsonReport = Pick<CheckResponse, "status" | "engines" | "notChecked"> & {
  issues: { id: string; file: string; line: number; col: number; rule: string; engine: string }[];
};

/**
 * One CLI check in json: its exit status, its report and every issue as "file:line:col rule" (ids too). A case that
 * asserts both the issues and what the response says of the same unchanged tree reads both from this one check.
 */
function checkJson(
  dir: string,
  cache: string,
  args: string[] = [],
  env: Record<string, string> = {},
): { status: number | null; report: JsonReport; issues: { key: string; id: string }[] } {
  const result = runCli(["check", "--format", "json", ...args], { cwd: dir, env: { SIGNALINT_CACHE_DIR: cache, ...env } });
  const report = JSON.parse(result.stdout) as JsonReport;
  const issues = report.issues
    .map((issue) => ({ key: `${issue.file}:${issue.line}:${issue.col} ${issue.rule}`, id: issue.id }))
    .sort((a, b) => (a.key < b.key ? -1 : 1));
  return { status: result.status, report, issues };
}

/** Every issue of a check as "file:line:col rule", from the CLI's json report (ids too). */
function issuesOf(dir: string, cache: string, args: string[] = [], env: Record<string, string> = {}): { key: string; id: string }[] {
  return checkJson(dir, cache, args, env).issues;
}

const keys = (issues: { key: string }[]) => issues.map((issue) => issue.key);

/** A Hono-shaped library: a root config, a test config its `test` script runs, side configs nothing runs. */
const LIBRARY: Record<string, string> = {
  ...TYPE_PACKAGES,
  "package.json": JSON.stringify({
    name: "lib",
    private: true,
    type: "module",
    scripts: { build: "tsc -p tsconfig.build.json", test: "tsc -p tsconfig.spec.json --noEmit && vitest", typecheck: "tsc --noEmit" },
  }),
  "tsconfig.json": JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, types: ["node"], target: "es2022", module: "esnext", moduleResolution: "bundler" },
    include: ["src"],
    exclude: ["src/**/*.test.ts"],
  }),
  "tsconfig.build.json": JSON.stringify({ extends: "./tsconfig.json", compilerOptions: { noEmit: true } }),
  "tsconfig.spec.json": JSON.stringify({
    extends: "./tsconfig.json",
    compilerOptions: { types: ["node", "vitest/globals"] },
    include: ["src", "test"],
    exclude: [],
  }),
  // Side configs no script runs: a Deno-only test config and a benchmark config.
  "tsconfig.deno.json": JSON.stringify({ compilerOptions: { strict: true, noEmit: true }, include: ["deno"] }),
  "benchmarks/tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, noEmit: true } }),
  "src/index.ts": 'export const port: number = Number(process.env.PORT ?? "3000");\nexport const label: string = 42;\n',
  "src/index.test.ts": 'describe("port", () => {\n  it("is a number", () => {\n    const n: string = 1;\n  });\n});\n',
  "test/integration.test.ts": 'import { port } from "../src/index";\ndescribe("int", () => {\n  const p: string = port;\n});\n',
  "deno/mod.ts": "export const home = Deno.env.get('HOME');\n",
  "benchmarks/run.ts": "const rounds: number = '10';\nexport { rounds };\n",
  "scripts/release.ts": "const tag: number = 'v1';\nexport { tag };\n",
};

describe("the programs the project checks (issue 21, item 1)", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  it("a library with side configs: the root config and the configs its scripts run, nothing else; the rest is a coverage note", () => {
    const { dir, cache } = project(LIBRARY);
    dirs.push(dir, cache);
    const raw = rawTscKeys(dir, ["tsconfig.json", "tsconfig.build.json", "tsconfig.spec.json"]);
    // The raw runs: src/index.ts once (three programs), both test files through tsconfig.spec.json.
    assert.deepEqual(raw, ["src/index.test.ts:3:11 TS2322", "src/index.ts:2:14 TS2322", "test/integration.test.ts:3:9 TS2322"]);
    const { issues, report: response, status } = checkJson(dir, cache);
    assert.deepEqual(keys(issues), raw, "Signalint's first check equals the project's own tsc runs");
    assert.equal(status, 1);
    assert.equal(response.engines.tsc.status, "ok");
    assert.match(response.engines.tsc.message ?? "", /tsconfig\.spec\.json \(script "test"\)/);
    assert.doesNotMatch(response.engines.tsc.message ?? "", /deno|benchmarks|inferred/);
    assert.deepEqual(response.notChecked, [
      {
        reason: "not type-checked: no tsconfig the project checks includes them",
        count: 3,
        sample: ["benchmarks/run.ts", "deno/mod.ts", "scripts/release.ts"],
      },
    ]);
    // The text output says so too.
    const text = runCli(["check"], { cwd: dir, env: { SIGNALINT_CACHE_DIR: cache } });
    assert.match(text.stdout, /^Not checked: 3 files not type-checked: no tsconfig the project checks includes them \(benchmarks\/run\.ts, /m);
  });

  it("vitest's type-check (reduxjs/reselect: `vitest --run --typecheck.only`, typecheck.tsconfig in its config) is a program the project checks", () => {
    const strict = { strict: true, noEmit: true, skipLibCheck: true, types: [] };
    const { dir, cache } = project({
      "package.json": JSON.stringify({ name: "lib", private: true, scripts: { "type-check": "vitest --run --typecheck.only", test: "vitest run" } }),
      "tsconfig.json": JSON.stringify({ compilerOptions: strict, include: ["src"] }),
      "vitest.config.mts":
        "import { defineConfig } from 'vitest/config'\n\nexport default defineConfig({\n  test: {\n    typecheck: { tsconfig: 'type-tests/tsconfig.json' },\n    globals: true,\n  },\n})\n",
      "type-tests/tsconfig.json": JSON.stringify({ compilerOptions: strict, include: ["**/*.ts"] }),
      "src/index.ts": "export const answer: number = 42;\n",
      "type-tests/answer.test-d.ts": 'import { answer } from "../src/index";\nexport const wrong: string = answer;\n',
    });
    dirs.push(dir, cache);
    const raw = rawTscKeys(dir, ["tsconfig.json", "type-tests/tsconfig.json"]);
    assert.deepEqual(raw, ["type-tests/answer.test-d.ts:2:14 TS2322"]);
    const { issues, report: response } = checkJson(dir, cache);
    assert.deepEqual(keys(issues), raw);
    assert.match(response.engines.tsc.message ?? "", /type-tests\/tsconfig\.json \(script "type-check" \(vitest's type-check\)\)/);
    // The test file is type-checked; only the vitest config itself is in no program.
    assert.deepEqual(response.notChecked, [
      { reason: "not type-checked: no tsconfig the project checks includes them", count: 1, sample: ["vitest.config.mts"] },
    ]);
  });

  it("typescript.projects adds a side config; doctor names every program and why", () => {
    const { dir, cache } = project({ ...LIBRARY, "signalint.config.json": '{ "typescript": { "projects": ["tsconfig.deno.json", "benchmarks"] } }\n' });
    dirs.push(dir, cache);
    const raw = rawTscKeys(dir, ["tsconfig.json", "tsconfig.build.json", "tsconfig.spec.json", "tsconfig.deno.json", "benchmarks/tsconfig.json"]);
    const { issues, report: response } = checkJson(dir, cache);
    assert.deepEqual(keys(issues), raw);
    assert.ok(raw.includes("deno/mod.ts:1:21 TS2304") && raw.includes("benchmarks/run.ts:1:7 TS2322"));
    assert.equal(response.notChecked?.[0]?.count, 1, "only scripts/release.ts is left");
    const doctor = runCli(["doctor"], { cwd: dir, env: { SIGNALINT_CACHE_DIR: cache } });
    assert.match(doctor.stdout, /^typescript programs:$/m);
    assert.match(doctor.stdout, /^ {2}tsconfig\.json \(root tsconfig\.json; script "typecheck"\)$/m);
    assert.match(doctor.stdout, /^ {2}tsconfig\.build\.json \(script "build"\)$/m);
    assert.match(doctor.stdout, /^ {2}tsconfig\.spec\.json \(script "test"\)$/m);
    assert.match(doctor.stdout, /^ {2}tsconfig\.deno\.json \(typescript\.projects\)$/m);
    assert.match(doctor.stdout, /^ {2}benchmarks\/tsconfig\.json \(typescript\.projects\)$/m);
  });

  it("check_files of a file only a script's config includes checks it under that config's options", () => {
    const { dir, cache } = project(LIBRARY);
    dirs.push(dir, cache);
    assert.deepEqual(keys(issuesOf(dir, cache, ["test/integration.test.ts"])), ["test/integration.test.ts:3:9 TS2322"]);
    // A file only a side config includes is not type-checked with invented options, and never clean.
    const side = check(dir, cache, ["deno/mod.ts"]);
    assert.equal(side.response.totalIssues, 0);
    assert.equal(side.response.status, "error");
    assert.match(side.response.nextStep ?? "", /nothing type-checked these files/);
  });

  it("a pnpm workspace without a root config: each package's tsconfig (extending a base outside it) and its scripts' configs", () => {
    const { dir, cache } = project({
      ...TYPE_PACKAGES,
      "package.json": JSON.stringify({ name: "root", private: true, scripts: { typecheck: "pnpm -r typecheck" } }),
      "pnpm-workspace.yaml": "packages:\n  - 'packages/*'\n  - '!packages/ignored'\n",
      "tsconfig.base.json": JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, target: "es2022", module: "esnext", moduleResolution: "bundler" },
      }),
      "packages/a/package.json": JSON.stringify({ name: "a", scripts: { typecheck: "tsc --noEmit" } }),
      "packages/a/tsconfig.json": JSON.stringify({ extends: "../../tsconfig.base.json", include: ["src"] }),
      "packages/a/src/a.ts": "export const a: string = 1;\n",
      "packages/b/package.json": JSON.stringify({ name: "b", scripts: { test: "tsc -p tsconfig.test.json && vitest run" } }),
      "packages/b/tsconfig.json": JSON.stringify({ extends: "../../tsconfig.base.json", include: ["src"] }),
      "packages/b/tsconfig.test.json": JSON.stringify({ extends: "./tsconfig.json", compilerOptions: { types: ["vitest/globals"] }, include: ["src", "test"] }),
      "packages/b/src/b.ts": "export const b: number = 'b';\n",
      "packages/b/test/b.test.ts": 'describe("b", () => {\n  const x: number = "x";\n});\n',
      "packages/b/tsconfig.bench.json": JSON.stringify({ extends: "./tsconfig.json", include: ["bench"] }),
      "packages/b/bench/b.bench.ts": "const runs: number = 'many';\nexport { runs };\n",
      "packages/ignored/package.json": JSON.stringify({ name: "ignored" }),
      "packages/ignored/tsconfig.json": JSON.stringify({ extends: "../../tsconfig.base.json" }),
      "packages/ignored/x.ts": "export const x: number = 'x';\n",
    });
    dirs.push(dir, cache);
    const raw = rawTscKeys(dir, ["packages/a/tsconfig.json", "packages/b/tsconfig.json", "packages/b/tsconfig.test.json"]);
    assert.equal(raw.length, 3);
    const { issues, report: response } = checkJson(dir, cache);
    assert.deepEqual(keys(issues), raw);
    assert.deepEqual(
      response.notChecked?.map((note) => note.sample),
      [["packages/b/bench/b.bench.ts", "packages/ignored/x.ts"]],
    );
    // Item 5: packages/b/src/b.ts is in two programs (tsconfig.json, tsconfig.test.json): one issue, the same id
    // from check_files as from the whole project.
    const alone = issuesOf(dir, cache, ["packages/b/src/b.ts"]);
    assert.deepEqual(
      alone,
      issues.filter((issue) => issue.key.startsWith("packages/b/src/b.ts:")),
    );
    assert.equal(alone.length, 1);
  });
  it("a package with its own TypeScript is checked with it, as its own script runs it; the others with the root's", () => {
    const options = { strict: true, noEmit: true, target: "es2022", module: "commonjs", moduleResolution: "node" };
    const { dir, cache } = project({
      "package.json": JSON.stringify({ name: "root", private: true, workspaces: ["packages/*"] }),
      "packages/a/package.json": JSON.stringify({ name: "a", scripts: { typecheck: "tsc --noEmit" } }),
      "packages/a/tsconfig.json": JSON.stringify({ compilerOptions: options, include: ["src"] }),
      "packages/a/src/a.ts": "export const a: string = 1;\n",
      "packages/b/package.json": JSON.stringify({ name: "b", scripts: { typecheck: "tsc --noEmit" } }),
      "packages/b/tsconfig.json": JSON.stringify({ compilerOptions: options, include: ["src"] }),
      "packages/b/src/b.ts": "export const b: string = 1;\n",
    });
    dirs.push(dir, cache);
    // TypeScript 6.0 in package a: its `moduleResolution: "node"` is a deprecation error there (TS5107), and only that.
    linkBin(join(dir, "packages", "a"), "tsc", join(REPO, "node_modules", "typescript6", "bin", "tsc"));
    const raw = [
      ...rawTscKeys(join(dir, "packages", "a"), ["tsconfig.json"], join(REPO, "node_modules", "typescript6", "bin", "tsc")).map((key) => `packages/a/${key}`),
      ...rawTscKeys(dir, ["packages/b/tsconfig.json"]),
    ].sort();
    assert.deepEqual(
      raw.map((key) => key.split(" ")[1]),
      ["TS5107", "TS2322"],
    );
    assert.deepEqual(keys(issuesOf(dir, cache)), raw);
  });
});

describe("one issue per diagnostic across overlapping programs (issue 21, item 5)", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  it("a root config over everything and a package config its script runs: each diagnostic once, same id as check_files", () => {
    const { dir, cache } = project({
      "package.json": JSON.stringify({ name: "root", private: true, workspaces: ["packages/*"] }),
      "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, noEmit: true } }),
      "packages/app/package.json": JSON.stringify({ name: "app", scripts: { typecheck: "tsc --noEmit" } }),
      "packages/app/tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, noEmit: true } }),
      "packages/app/src/main.ts": "export const main: number = 'main';\nexport const other: string = 2;\n",
    });
    dirs.push(dir, cache);
    const whole = issuesOf(dir, cache);
    assert.deepEqual(keys(whole), ["packages/app/src/main.ts:1:14 TS2322", "packages/app/src/main.ts:2:14 TS2322"]);
    assert.deepEqual(issuesOf(dir, cache, ["packages/app/src/main.ts"]), whole);
    assert.deepEqual(issuesOf(dir, cache, ["packages/app"]), whole);
  });
});

describe("files no engine checks (issue 21, item 7)", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  const VUE = '<script setup lang="ts">\nconst count: number = "not a number";\n</script>\n\n<template>\n  <div>{{ count }}</div>\n</template>\n';
  const files = (scripts: Record<string, string>) => ({
    "package.json": JSON.stringify({ name: "vue-app", private: true, scripts }),
    "tsconfig.json": JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, target: "es2022", lib: ["es2022", "dom"], jsx: "preserve" },
      include: ["src/**/*.ts", "src/**/*.vue"],
    }),
    "src/Probe.vue": VUE,
    "src/Widget.svelte": '<script lang="ts">\n  let n: number = "x";\n</script>\n',
    "src/main.ts": "export const ok = 1;\n",
  });

  it("a .vue file without vue-tsc in the scripts: counted, and a check of only it is never clean", () => {
    const { dir, cache } = project(files({ build: "vite build" }));
    dirs.push(dir, cache);
    const only = check(dir, cache, ["src/Probe.vue"]);
    assert.notEqual(only.response.status, "clean");
    assert.equal(only.status, 1);
    assert.deepEqual(only.response.notChecked, [
      { reason: "not type-checked: .vue files (no vue-tsc run in the project's scripts type-checks them)", count: 1, sample: ["src/Probe.vue"] },
    ]);
    const text = runCli(["check", "src/Probe.vue"], { cwd: dir, env: { SIGNALINT_CACHE_DIR: cache } });
    assert.match(text.stdout, /^Not checked: 1 file not type-checked: \.vue files/m);
    assert.doesNotMatch(text.stdout, /No issues found/);
    const whole = check(dir, cache).response;
    assert.deepEqual(
      whole.notChecked?.map((note) => `${note.count} ${note.sample.join(",")}`),
      ["1 src/Widget.svelte", "1 src/Probe.vue"],
    );
  });

  it("a project whose scripts run vue-tsc: its program runs through vue-tsc, exactly as the raw vue-tsc", () => {
    const { dir, cache } = project(files({ typecheck: "vue-tsc --noEmit" }));
    dirs.push(dir, cache);
    linkPackage(dir, "vue-tsc", join(REPO, "node_modules", "vue-tsc"));
    const raw = rawTscKeys(dir, ["tsconfig.json"], join(REPO, "node_modules", "vue-tsc", "bin", "vue-tsc.js"));
    assert.ok(raw.includes("src/Probe.vue:2:7 TS2322"), raw.join("\n"));
    assert.deepEqual(
      keys(issuesOf(dir, cache, ["src/Probe.vue"])),
      raw.filter((issue) => issue.startsWith("src/Probe.vue:")),
    );
    const { response } = check(dir, cache);
    assert.match(response.engines.tsc.message ?? "", /tsconfig\.json with vue-tsc/);
    assert.deepEqual(
      response.notChecked?.map((note) => note.sample),
      [["src/Widget.svelte"]],
      "only the .svelte file is left",
    );
  });

  it("a vue-tsc program of an incremental config writes its build info outside the project tree", () => {
    const layout = files({ typecheck: "vue-tsc --noEmit" });
    const config = JSON.parse(layout["tsconfig.json"]) as { compilerOptions: Record<string, unknown> };
    config.compilerOptions.incremental = true;
    const { dir, cache } = project({ ...layout, "tsconfig.json": JSON.stringify(config) });
    dirs.push(dir, cache);
    linkPackage(dir, "vue-tsc", join(REPO, "node_modules", "vue-tsc"));
    assert.ok(keys(issuesOf(dir, cache)).includes("src/Probe.vue:2:7 TS2322"));
    assert.deepEqual(
      readdirSync(dir, { recursive: true }).filter((name) => String(name).endsWith(".tsbuildinfo")),
      [],
      "nothing written in the project tree",
    );
  });

  it("a vue-tsc program of an incremental config answers an edited component as a cold vue-tsc (never from its last build info)", () => {
    const layout = files({ typecheck: "vue-tsc --noEmit" });
    const config = JSON.parse(layout["tsconfig.json"]) as { compilerOptions: Record<string, unknown> };
    Object.assign(config.compilerOptions, { incremental: true, noUnusedLocals: true });
    // The component's first statement an unused import: vue-tsc on its own build info loses that error after an edit.
    const probe = (value: string) =>
      `<script setup lang="ts">\nimport { ok } from "./main";\nconst count: number = ${value};\n</script>\n\n<template>\n  <div>{{ count }}</div>\n</template>\n`;
    const { dir, cache } = project({ ...layout, "tsconfig.json": JSON.stringify(config), "src/Probe.vue": probe('"one"') });
    dirs.push(dir, cache);
    linkPackage(dir, "vue-tsc", join(REPO, "node_modules", "vue-tsc"));
    const vueTsc = join(REPO, "node_modules", "vue-tsc", "bin", "vue-tsc.js");
    assert.ok(keys(issuesOf(dir, cache)).includes("src/Probe.vue:2:1 TS6133"));
    writeFileSync(join(dir, "src/Probe.vue"), probe('"two"'));
    const raw = rawTscKeys(dir, ["tsconfig.json"], vueTsc);
    assert.ok(raw.includes("src/Probe.vue:2:1 TS6133"), raw.join("\n"));
    assert.deepEqual(
      keys(issuesOf(dir, cache)).filter((key) => key.startsWith("src/Probe.vue:")),
      raw.filter((key) => key.startsWith("src/Probe.vue:")),
    );
  });
});

describe("linters as the project runs them (issue 21, item 1)", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  it("a legacy .eslintrc project runs ESLint 8 the way its own `eslint .` does", () => {
    const { dir, cache } = project(
      {
        "package.json": JSON.stringify({ name: "legacy", private: true, scripts: { lint: "eslint ." } }),
        ".eslintrc.json": JSON.stringify({
          root: true,
          parserOptions: { ecmaVersion: 2022, sourceType: "module" },
          rules: { "no-var": "error", "no-debugger": "warn" },
        }),
        ".eslintignore": "vendor/\n",
        "src/a.js": "var a = 1;\ndebugger;\nexport default a;\n",
        "vendor/lib.js": "var ignored = 1;\n",
      },
      [],
    );
    dirs.push(dir, cache);
    linkPackage(dir, "eslint", join(REPO, "node_modules", "eslint8"));
    const raw = spawnSync(process.execPath, [join(REPO, "node_modules", "eslint8", "bin", "eslint.js"), "--format", "json", "."], {
      cwd: dir,
      encoding: "utf8",
      env: { PATH: CLEAN_PATH },
    });
    const expected = (JSON.parse(raw.stdout) as { filePath: string; messages: { line: number; column: number; ruleId: string }[] }[])
      .flatMap((file) => file.messages.map((message) => `${relative(dir, file.filePath)}:${message.line}:${message.column} ${message.ruleId}`))
      .sort();
    assert.deepEqual(expected, ["src/a.js:1:1 no-var", "src/a.js:2:1 no-debugger"]);
    const { issues, report: response } = checkJson(dir, cache);
    assert.equal(response.engines.eslint.status, "ok");
    assert.deepEqual(keys(issues), expected);
    // A named file the project ignores is not a finding (eslintrc mode warns "File ignored").
    assert.deepEqual(keys(issuesOf(dir, cache, ["vendor/lib.js"])), []);
  });

  it("a project linted by xo: the response says the code it would lint was not linted by it", () => {
    const { dir, cache } = project(
      {
        "package.json": JSON.stringify({ name: "xo-app", private: true, type: "module", scripts: { test: "xo && ava" }, devDependencies: { xo: "^0.60.0" } }),
        "node_modules/xo/package.json": JSON.stringify({ name: "xo", version: "0.60.0" }),
        "src/a.js": "export const a = 1;\n",
        // xo lints what git does not ignore: a build output the repository ignores is not in the note (found on ky).
        ".gitignore": "distribution\n",
        "distribution/index.js": "export const a = 1;\n",
      },
      ["oxlint"],
    );
    dirs.push(dir, cache);
    const { response } = check(dir, cache);
    assert.deepEqual(response.notChecked, [{ reason: "not linted by xo: the project's linter, which Signalint cannot run", count: 1, sample: ["src/a.js"] }]);
    // The project's linter did not run: never "clean" (xo could find what oxlint does not).
    assert.equal(response.status, "error");
    assert.match(response.nextStep ?? "", /lints with xo/);
  });

  it("a linter Signalint cannot run counts where it is installed and for the packages that use it (found on Zod)", () => {
    const { dir, cache } = project(
      {
        "package.json": JSON.stringify({ name: "root", private: true, workspaces: ["packages/*"] }),
        // A script naming tslint that is not installed lints nothing when the project runs it.
        "packages/old/package.json": JSON.stringify({ name: "old", scripts: { lint: "tslint -p ." } }),
        "packages/old/src/o.js": "export const o = 1;\n",
        "packages/std/package.json": JSON.stringify({ name: "std", scripts: { lint: "standard" }, devDependencies: { standard: "^17.0.0" } }),
        "packages/std/node_modules/standard/package.json": JSON.stringify({ name: "standard", version: "17.1.0" }),
        "packages/std/src/s.js": "export const s = 1;\n",
      },
      ["oxlint"],
    );
    dirs.push(dir, cache);
    const { response } = check(dir, cache);
    assert.deepEqual(response.notChecked, [
      { reason: "not linted by standard: the project's linter, which Signalint cannot run", count: 1, sample: ["packages/std/src/s.js"] },
    ]);
    assert.equal(response.status, "error");
    // A check of the other package only is not held back by it.
    assert.equal(check(dir, cache, ["packages/old/src/o.js"]).response.status, "clean");
  });

  it("ESLint configured only in a workspace package (none at the root): its files are not linted, never clean", () => {
    const { dir, cache } = project(
      {
        "package.json": JSON.stringify({ name: "ws", private: true, workspaces: ["packages/*"] }),
        "packages/p/package.json": JSON.stringify({ name: "p", private: true, type: "module", scripts: { lint: "eslint ." } }),
        "packages/p/eslint.config.js": 'export default [{ rules: { "no-var": "error" } }];\n',
        "packages/p/src/a.js": "var x = 1;\nexport { x };\n",
        "packages/q/package.json": JSON.stringify({ name: "q", private: true, type: "module" }),
        "packages/q/src/b.js": "export const b = 1;\n",
      },
      ["oxlint"],
    );
    dirs.push(dir, cache);
    linkPackage(dir, "eslint", join(REPO, "node_modules", "eslint"));
    // The package's own lint finds the `var`: Signalint, which runs ESLint only with a config at the root, must say so.
    const own = spawnSync(process.execPath, [join(REPO, "node_modules", "eslint", "bin", "eslint.js"), "."], {
      cwd: join(dir, "packages", "p"),
      encoding: "utf8",
    });
    assert.match(own.stdout, /no-var/);
    const { response } = check(dir, cache);
    assert.equal(response.engines.eslint.status, "disabled");
    assert.equal(response.status, "error");
    assert.deepEqual(response.notChecked, [
      {
        reason: "not linted by ESLint: configured in workspace packages (packages/p), and Signalint runs ESLint only with a config at the project root",
        count: 2,
        sample: ["packages/p/eslint.config.js", "packages/p/src/a.js"],
      },
    ]);
    assert.match(response.nextStep ?? "", /lints with eslint/);
    // A check of the other package only is what it was.
    assert.equal(check(dir, cache, ["packages/q"]).response.status, "clean");
  });
});
