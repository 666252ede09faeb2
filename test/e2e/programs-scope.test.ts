import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { CheckResponse } from "../../src/core/contracts.ts";
import { linkBin, rawTscKeys, removeDir, REPO, runCli, tempDir } from "../helpers.ts";

/** Issue 21, item 1 ("check what the project checks", on workspaces): a root tsconfig.json nothing runs. */

const TSC = join(REPO, "node_modules", "typescript", "bin", "tsc");

function project(files: Record<string, string>): { dir: string; cache: string } {
  const dir = tempDir("signalint-scope-");
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  linkBin(dir, "tsc", TSC);
  return { dir, cache: tempDir("signalint-cache-") };
}

/** One check in json: every issue as "file:line:col rule", and what the response says (status, engines, notChecked). */
function checked(dir: string, cache: string): { keys: string[]; response: Pick<CheckResponse, "status" | "engines" | "notChecked"> } {
  const result = runCli(["check", "--format", "json"], { cwd: dir, env: { SIGNALINT_CACHE_DIR: cache } });
  const report = JSON.parse(result.stdout) as Pick<CheckResponse, "status" | "engines" | "notChecked"> & {
    issues: { file: string; line: number; col: number; rule: string }[];
  };
  return { keys: report.issues.map((issue) => `${issue.file}:${issue.line}:${issue.col} ${issue.rule}`).sort(), response: report };
}

function issueKeys(dir: string, cache: string): string[] {
  return checked(dir, cache).keys;
}

function doctor(dir: string, cache: string): string {
  return runCli(["doctor"], { cwd: dir, env: { SIGNALINT_CACHE_DIR: cache } }).stdout;
}

const PACKAGE_CONFIG = JSON.stringify({
  compilerOptions: { strict: true, noEmit: true, target: "es2022", module: "esnext", moduleResolution: "bundler" },
  include: ["src"],
});

/**
 * trpc/trpc's shape: a pnpm workspace whose packages type-check themselves (`typecheck: tsc --noEmit`, run by turbo),
 * and a root tsconfig.json over everything, without references, that no script runs (an editor config). Its
 * `noUnusedLocals` gives errors the packages' own checks never report; scripts/ only it includes.
 */
function trpcShape(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    "package.json": JSON.stringify({ name: "root", private: true, scripts: { typecheck: "turbo typecheck", lint: "eslint ." } }),
    "pnpm-workspace.yaml": "packages:\n  - 'packages/*'\n",
    "tsconfig.json": JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, noUnusedLocals: true, target: "es2022", module: "esnext", moduleResolution: "bundler" },
    }),
    "packages/a/package.json": JSON.stringify({ name: "a", scripts: { typecheck: "tsc --noEmit" } }),
    "packages/a/tsconfig.json": PACKAGE_CONFIG,
    "packages/a/src/a.ts": "const unused = 1;\nexport const a = 2;\n",
    "packages/b/package.json": JSON.stringify({ name: "b", scripts: { typecheck: "tsc --noEmit" } }),
    "packages/b/tsconfig.json": PACKAGE_CONFIG,
    "packages/b/src/b.ts": "export const b: number = 'b';\n",
    "scripts/release.ts": "const version = 1;\nexport {};\n",
    ...overrides,
  };
}

const ROOT_KEPT = /^ {2}tsconfig\.json \(root tsconfig\.json/m;
const ROOT_LEFT =
  /^ {2}tsconfig\.json not checked \(root tsconfig\.json: no script runs it; the packages' scripts check themselves — add it with typescript\.projects\)$/m;

describe("a workspace's root tsconfig.json that nothing runs (issue 21, item 1)", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  it("trpc's shape: Signalint equals the packages' own tsc runs; the root config is left out and says why", () => {
    const { dir, cache } = project(trpcShape());
    dirs.push(dir, cache);
    const own = rawTscKeys(dir, ["packages/a/tsconfig.json", "packages/b/tsconfig.json"]);
    assert.deepEqual(own, ["packages/b/src/b.ts:1:14 TS2322"]);
    // The root config alone gives more: the failure this guards against.
    assert.ok(rawTscKeys(dir, ["tsconfig.json"]).includes("packages/a/src/a.ts:1:7 TS6133"));
    const { keys, response } = checked(dir, cache);
    assert.deepEqual(keys, own);
    assert.match(response.engines.tsc.message ?? "", /tsconfig\.json not checked \(root tsconfig\.json: no script runs it/);
    assert.deepEqual(response.notChecked, [
      { reason: "not type-checked: no tsconfig the project checks includes them", count: 1, sample: ["scripts/release.ts"] },
    ]);
    const text = doctor(dir, cache);
    assert.match(text, ROOT_LEFT);
    assert.match(text, /^ {2}packages\/a\/tsconfig\.json \(script "typecheck" of packages\/a\)$/m);
    assert.doesNotMatch(text, ROOT_KEPT);
  });

  it("typescript.projects naming the root config brings it back", () => {
    const { dir, cache } = project(trpcShape({ "signalint.config.json": '{ "typescript": { "projects": ["tsconfig.json"] } }\n' }));
    dirs.push(dir, cache);
    const keys = issueKeys(dir, cache);
    assert.deepEqual(keys, rawTscKeys(dir, ["tsconfig.json", "packages/a/tsconfig.json", "packages/b/tsconfig.json"]));
    assert.ok(keys.includes("scripts/release.ts:1:7 TS6133"));
    assert.match(doctor(dir, cache), /^ {2}tsconfig\.json \(root tsconfig\.json; typescript\.projects\)$/m);
  });

  // Each case keeps the root config (doctor's list is the choice every check runs).
  const kept: [string, Record<string, string>, RegExp][] = [
    [
      "the root config has references (a solution)",
      {
        "tsconfig.json": JSON.stringify({ files: [], references: [{ path: "packages/a" }, { path: "packages/b" }] }),
        "packages/a/tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, composite: true, outDir: "dist" }, include: ["src"] }),
        "packages/b/tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, composite: true, outDir: "dist" }, include: ["src"] }),
      },
      /^ {2}tsconfig\.json \(root tsconfig\.json\)$/m,
    ],
    ["a root script runs `tsc`", { "package.json": JSON.stringify({ name: "root", private: true, scripts: { typecheck: "tsc" } }) }, /script "typecheck"\)$/m],
    [
      "a root script runs `tsc -p .`",
      { "package.json": JSON.stringify({ name: "root", private: true, scripts: { check: "tsc -p . --noEmit" } }) },
      /script "check"\)$/m,
    ],
    ["a root script runs `tsc -b`", { "package.json": JSON.stringify({ name: "root", private: true, scripts: { build: "tsc -b" } }) }, /script "build"\)$/m],
    [
      "no script runs tsc anywhere",
      {
        "packages/a/package.json": JSON.stringify({ name: "a", scripts: { build: "vite build" } }),
        "packages/b/package.json": JSON.stringify({ name: "b" }),
      },
      /^ {2}tsconfig\.json \(root tsconfig\.json\)$/m,
    ],
    [
      "a package without its own tsconfig runs the root one (tsc looks upward)",
      { "packages/c/package.json": JSON.stringify({ name: "c", scripts: { typecheck: "tsc --noEmit" } }), "packages/c/src/c.ts": "export const c = 1;\n" },
      /script "typecheck" of packages\/c\)$/m,
    ],
  ];
  for (const [name, overrides, reason] of kept) {
    it(`keeps the root config when ${name}`, () => {
      const { dir, cache } = project(trpcShape(overrides));
      dirs.push(dir, cache);
      const text = doctor(dir, cache);
      assert.match(text, ROOT_KEPT);
      assert.match(text.split("\n").find((line) => ROOT_KEPT.test(`${line}\n`)) ?? "", reason);
      assert.doesNotMatch(text, ROOT_LEFT);
    });
  }
});
