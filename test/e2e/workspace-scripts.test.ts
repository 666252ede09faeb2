import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { after, describe, it } from "node:test";
import type { CheckResponse } from "../../src/core/contracts.ts";
import { CLEAN_PATH, linkBin, linkPackage, rawTscKeys, removeDir, REPO, runCli, tempDir } from "../helpers.ts";

/**
 * Issue 33 item 4: programs and linters follow the scripts, package by package. A pnpm-shaped workspace: package a
 * type-checks and lints itself (`tsc --noEmit`, `biome check src`), package b is type-checked by a root script
 * (`pnpm --filter b exec tsc --noEmit`) and lints nothing, and a docs package has a tsconfig but no script.
 */

const BIOME = join(REPO, "node_modules", "@biomejs", "biome");
const TSC = join(REPO, "node_modules", "typescript", "bin", "tsc");

const PACKAGE_CONFIG = JSON.stringify({
  compilerOptions: { strict: true, noEmit: true, target: "es2022", module: "esnext", moduleResolution: "bundler", skipLibCheck: true },
  include: ["src"],
});

function workspace(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    "package.json": JSON.stringify({
      name: "root",
      private: true,
      scripts: { typecheck: "pnpm -r typecheck", "typecheck:b": "pnpm --filter b exec tsc --noEmit", lint: "pnpm -r lint" },
    }),
    "pnpm-workspace.yaml": "packages:\n  - 'packages/*'\n",
    "biome.json": JSON.stringify({ linter: { enabled: true, rules: { recommended: true } }, files: { includes: ["**", "!**/dist"] } }),
    "packages/a/package.json": JSON.stringify({ name: "a", scripts: { typecheck: "tsc --noEmit", lint: "biome check src" } }),
    // A nested config that includes everything again: a root run lints the package's build output through it.
    "packages/a/biome.json": JSON.stringify({ root: false, extends: "//", files: { includes: ["**/*"] } }),
    "packages/a/tsconfig.json": PACKAGE_CONFIG,
    "packages/a/src/a.ts": "export const a: number = 'a';\nexport function f() {\n  debugger;\n}\n",
    "packages/a/dist/a.d.ts": "export declare const a: any;\n",
    "packages/b/package.json": JSON.stringify({ name: "b" }),
    "packages/b/tsconfig.json": PACKAGE_CONFIG,
    "packages/b/src/b.ts": "export const b: string = 2;\n",
    "packages/docs/package.json": JSON.stringify({ name: "docs", scripts: { dev: "vitepress dev" } }),
    // No src/: `tsc -p packages/docs` says TS18003 "No inputs were found", a program nobody runs.
    "packages/docs/tsconfig.json": PACKAGE_CONFIG,
    "packages/docs/examples/example.ts": "export function g() {\n  debugger;\n}\n",
    ...overrides,
  };
}

function project(files: Record<string, string>): { dir: string; cache: string } {
  const dir = tempDir("signalint-wsscripts-");
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  linkBin(dir, "tsc", TSC);
  linkPackage(dir, "@biomejs/biome", BIOME);
  return { dir, cache: tempDir("signalint-cache-") };
}

function check(dir: string, cache: string, args: string[] = []): CheckResponse {
  return JSON.parse(runCli(["check", "--format", "response", ...args], { cwd: dir, env: { SIGNALINT_CACHE_DIR: cache } }).stdout) as CheckResponse;
}

/** The check's issues of one engine as "file:line rule". */
function engineKeys(dir: string, cache: string, engine: string, args: string[] = []): string[] {
  const result = runCli(["check", "--format", "json", ...args], { cwd: dir, env: { SIGNALINT_CACHE_DIR: cache } });
  const report = JSON.parse(result.stdout) as { issues: { file: string; line: number; col: number; rule: string; engine: string }[] };
  return report.issues
    .filter((issue) => issue.engine === engine)
    .map((issue) => (engine === "tsc" ? `${issue.file}:${issue.line}:${issue.col} ${issue.rule}` : `${issue.file}:${issue.line} ${issue.rule}`))
    .sort();
}

/** What `biome lint <paths>` run in `cwd` reports, as "file:line rule" relative to the project root. */
function rawBiomeKeys(dir: string, cwd: string, paths: string[]): string[] {
  const run = spawnSync(process.execPath, [join(BIOME, "bin", "biome"), "lint", "--reporter=json", "--max-diagnostics=none", ...paths], {
    cwd: join(dir, cwd),
    encoding: "utf8",
    env: { PATH: CLEAN_PATH, NO_COLOR: "1" },
  });
  const report = JSON.parse(run.stdout) as { diagnostics: { category: string; location: { path: string; start: { line: number } } }[] };
  return report.diagnostics.map((d) => `${relative(dir, join(dir, cwd, d.location.path))}:${d.location.start.line} ${d.category}`).sort();
}

describe("programs and linters follow the scripts, package by package (issue 33 item 4)", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  it("tsc checks the configs scripts run (a root `pnpm --filter b exec tsc` included), never the docs package's", () => {
    const { dir, cache } = project(workspace());
    dirs.push(dir, cache);
    const own = rawTscKeys(dir, ["packages/a/tsconfig.json", "packages/b/tsconfig.json"]);
    assert.deepEqual(own, ["packages/a/src/a.ts:1:14 TS2322", "packages/b/src/b.ts:1:14 TS2322"]);
    // The config no script runs: what checking every package's tsconfig gave.
    assert.ok(rawTscKeys(dir, ["packages/docs/tsconfig.json"]).length === 0);
    const docs = spawnSync(process.execPath, [TSC, "--noEmit", "-p", "packages/docs/tsconfig.json"], { cwd: dir, encoding: "utf8" });
    assert.match(docs.stdout, /TS18003/);
    assert.deepEqual(engineKeys(dir, cache, "tsc"), own);
    const response = check(dir, cache);
    assert.equal(response.engines.tsc.status, "ok");
    assert.doesNotMatch(JSON.stringify(response), /TS18003/);
    const doctor = runCli(["doctor"], { cwd: dir, env: { SIGNALINT_CACHE_DIR: cache } }).stdout;
    assert.match(doctor, /^ {2}packages\/a\/tsconfig\.json \(script "typecheck" of packages\/a\)$/m);
    assert.match(doctor, /^ {2}packages\/b\/tsconfig\.json \(script "typecheck:b" in packages\/b\)$/m);
    assert.match(doctor, /^ {2}packages\/docs\/tsconfig\.json not checked \(no script runs a type-checker over it/m);
  });

  it("a root `pnpm -r exec tsc` runs in every package; no script anywhere keeps each package's tsconfig", () => {
    const recursive = project(
      workspace({
        "package.json": JSON.stringify({ name: "root", private: true, scripts: { typecheck: "pnpm -r exec tsc --noEmit" } }),
        "packages/a/package.json": JSON.stringify({ name: "a" }),
        "packages/docs/src/index.ts": "export const d: number = 'd';\n",
      }),
    );
    dirs.push(recursive.dir, recursive.cache);
    const all = ["a", "b", "docs"].map((name) => `packages/${name}/tsconfig.json`);
    assert.deepEqual(engineKeys(recursive.dir, recursive.cache, "tsc"), rawTscKeys(recursive.dir, all));
    const none = project(
      workspace({
        "package.json": JSON.stringify({ name: "root", private: true }),
        "packages/a/package.json": JSON.stringify({ name: "a" }),
        "packages/docs/src/index.ts": "export const d: number = 'd';\n",
      }),
    );
    dirs.push(none.dir, none.cache);
    assert.match(runCli(["doctor"], { cwd: none.dir, env: { SIGNALINT_CACHE_DIR: none.cache } }).stdout, /packages\/docs\/tsconfig\.json \(workspace package/);
    assert.deepEqual(engineKeys(none.dir, none.cache, "tsc"), rawTscKeys(none.dir, all));
  });

  it("Biome runs from each package whose lint script runs it, with that package's config: never build output nor a package without one", () => {
    const { dir, cache } = project(workspace());
    dirs.push(dir, cache);
    const own = rawBiomeKeys(dir, "packages/a", ["src"]);
    assert.ok(own.includes("packages/a/src/a.ts:3 lint/suspicious/noDebugger"), own.join("\n"));
    // One run from the root lints what no script lints (the docs package) and the build output the nested config includes.
    const fromRoot = rawBiomeKeys(dir, ".", ["."]);
    assert.ok(
      fromRoot.some((key) => key.startsWith("packages/docs/")),
      fromRoot.join("\n"),
    );
    assert.ok(
      fromRoot.some((key) => key.startsWith("packages/a/dist/")),
      fromRoot.join("\n"),
    );
    assert.deepEqual(engineKeys(dir, cache, "biome"), own);
    const response = check(dir, cache);
    assert.equal(response.engines.biome.status, "ok");
    // Files no lint script gives biome: one informational note; the check has issues, not an error.
    assert.equal(response.status, "issues_found");
    const note = response.notChecked?.find((entry) => entry.reason.startsWith("not linted by Biome"));
    assert.deepEqual(note?.sample, ["packages/b/src/b.ts", "packages/docs/examples/example.ts"]);
    // A named file is linted from its package as well; one of a package without a lint script is not linted.
    assert.deepEqual(engineKeys(dir, cache, "biome", ["packages/a/src/a.ts"]), own);
    assert.deepEqual(engineKeys(dir, cache, "biome", ["packages/docs/examples/example.ts"]), []);
  });

  it("`vue-tsc --build` on a solution (Vue's template: files [] and references) checks the projects it references", () => {
    const { dir, cache } = project({
      "package.json": JSON.stringify({ name: "vue-app", private: true, scripts: { "type-check": "vue-tsc --build --force" } }),
      "tsconfig.json": JSON.stringify({ files: [], references: [{ path: "./tsconfig.app.json" }] }),
      "tsconfig.app.json": JSON.stringify({
        compilerOptions: { composite: true, strict: true, noEmit: true, target: "es2022", lib: ["es2022", "dom"], jsx: "preserve", skipLibCheck: true },
        include: ["src/**/*.ts", "src/**/*.vue"],
      }),
      "src/Probe.vue": '<script setup lang="ts">\nconst count: number = "not a number";\n</script>\n\n<template>\n  <div>{{ count }}</div>\n</template>\n',
      "src/main.ts": "export const n: number = 'n';\n",
    });
    dirs.push(dir, cache);
    linkPackage(dir, "vue-tsc", join(REPO, "node_modules", "vue-tsc"));
    const raw = rawTscKeys(dir, ["tsconfig.app.json"], join(REPO, "node_modules", "vue-tsc", "bin", "vue-tsc.js"));
    assert.deepEqual(raw, ["src/Probe.vue:2:7 TS2322", "src/main.ts:1:14 TS2322"]);
    assert.deepEqual(engineKeys(dir, cache, "tsc"), raw);
  });

  it("without any Biome script, Biome runs once from the root as before", () => {
    const { dir, cache } = project(workspace({ "packages/a/package.json": JSON.stringify({ name: "a", scripts: { typecheck: "tsc --noEmit" } }) }));
    dirs.push(dir, cache);
    assert.deepEqual(engineKeys(dir, cache, "biome"), rawBiomeKeys(dir, ".", ["."]));
  });

  it("Biome's fixes come from where its check runs: a package's lint script, that package's config (Biome 1 reads no nested config)", () => {
    const dir = tempDir("signalint-wsscripts-fix-");
    const copy = tempDir("signalint-wsscripts-own-fix-");
    const cache = tempDir("signalint-cache-");
    dirs.push(dir, copy, cache);
    const files: Record<string, string> = {
      "package.json": JSON.stringify({ name: "root", private: true, workspaces: ["packages/*"] }),
      "biome.json": JSON.stringify({ linter: { enabled: true, rules: { recommended: false } } }),
      "packages/a/package.json": JSON.stringify({ name: "a", scripts: { lint: "biome check src" } }),
      "packages/a/biome.json": JSON.stringify({ linter: { enabled: true, rules: { recommended: false, style: { useConst: "error" } } } }),
      "packages/a/src/a.js": "let a = 1;\nexport { a };\n",
    };
    for (const root of [dir, copy]) {
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(join(root, path, ".."), { recursive: true });
        writeFileSync(join(root, path), text);
      }
      linkPackage(root, "@biomejs/biome", join(REPO, "node_modules", "biome1"));
    }
    // The package's own lint, with --write, on a copy.
    spawnSync(process.execPath, [join(REPO, "node_modules", "biome1", "bin", "biome"), "lint", "--write", "src"], { cwd: join(copy, "packages/a") });
    const expected = readFileSync(join(copy, "packages/a/src/a.js"), "utf8");
    assert.match(expected, /^const a = 1;/, "the package's config fixes useConst");
    const result = runCli(["fix", "packages/a/src/a.js"], { cwd: dir, env: { SIGNALINT_CACHE_DIR: cache } });
    assert.equal(readFileSync(join(dir, "packages/a/src/a.js"), "utf8"), expected, result.stdout + result.stderr);
  });
});
