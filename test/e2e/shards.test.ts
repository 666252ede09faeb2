import assert from "node:assert/strict";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { CliReport } from "../../src/cli/report.ts";
import { shardUnits, unitsOfShard } from "../../src/core/shards.ts";
import { linkPackage, removeDir, REPO, runCli, scratchCopy, tempDir } from "../helpers.ts";
import { TreeGuard } from "../helpers/tree.ts";
import { writeProjectFile } from "../helpers/project.ts";

/**
 * A workspace: a root tsconfig for scripts/, packages a–e (b without a tsconfig, c with a nested plugin package), each
 * with a type error and a lint warning, plus root-level files.
 */
function workspace(options: { sharedBase?: boolean } = {}): string {
  const root = tempDir("signalint-shards-");
  const write = (path: string, text: string) => writeProjectFile(root, path, text);
  const tsconfig = '{ "compilerOptions": { "strict": true, "noEmit": true, "skipLibCheck": true }, "include": ["src"] }\n';
  // Each package's tsconfig is one the project checks (a typecheck script): a root tsconfig.json that references
  // none of them does not check them (issue 21 changed this; they used to be checked because they were nearest).
  write("package.json", '{ "name": "ws", "private": true, "workspaces": ["packages/*", "packages/c/plugins/*"] }\n');
  const scripts = '"scripts": { "typecheck": "tsc --noEmit" }';
  // sharedBase: every package extends the root config, whose unknown option is a program-wide error in each program.
  const rootOptions = options.sharedBase ? '"strict": true, "noEmit": true, "skipLibCheck": true, "notAnOption": true' : '"strict": true, "noEmit": true';
  write("tsconfig.json", `{ "compilerOptions": { ${rootOptions} }, "include": ["scripts"] }\n`);
  const packageConfig = options.sharedBase ? '{ "extends": "../../tsconfig.json", "include": ["src"] }\n' : tsconfig;
  write("scripts/tool.ts", 'export const port: number = "8080";\n');
  write("root.js", "export function f() {\n  debugger;\n}\n");
  for (const name of ["a", "c", "d", "e"]) {
    write(`packages/${name}/package.json`, `{ "name": "${name}", ${scripts} }\n`);
    write(`packages/${name}/tsconfig.json`, packageConfig);
    write(`packages/${name}/src/index.ts`, `export const ${name}: string = 1;\nexport function g() {\n  debugger;\n}\n`);
    write(`packages/${name}/src/more.ts`, `export const ${name}2: boolean = "no";\n`);
  }
  write("packages/b/package.json", '{ "name": "b" }\n');
  write("packages/b/lib/index.js", "export function h() {\n  debugger;\n}\n");
  write("packages/c/plugins/p1/package.json", `{ "name": "p1", ${scripts} }\n`);
  write("packages/c/plugins/p1/tsconfig.json", tsconfig);
  write("packages/c/plugins/p1/src/index.ts", "export const p: number = null;\n");
  write("packages/c/src/extra/deep.ts", "export const deep: number = [];\n");
  linkPackage(root, "typescript", join(REPO, "node_modules", "typescript"));
  linkPackage(root, "oxlint", join(REPO, "node_modules", "oxlint"));
  return root;
}

const key = (issue: CliReport["issues"][number]) => `${issue.file}:${issue.line} ${issue.rule} ${issue.message}`;

describe("check --shard", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  it("splits by package and tsconfig project; each file in exactly one unit", () => {
    const files = [
      "package.json",
      "root.js",
      "scripts/tool.ts",
      "packages/a/package.json",
      "packages/a/src/x.ts",
      "packages/c/package.json",
      "packages/c/src/y.ts",
      "packages/c/plugins/p1/package.json",
      "packages/c/plugins/p1/src/z.ts",
    ];
    const units = shardUnits(files, new Set(["packages/a", "packages/c", "packages/c/plugins/p1"]));
    assert.deepEqual(
      units.map((unit) => [unit.root, unit.paths]),
      [
        [".", ["package.json", "root.js", "scripts"]],
        ["packages/a", ["packages/a"]],
        ["packages/c", ["packages/c/package.json", "packages/c/src"]],
        ["packages/c/plugins/p1", ["packages/c/plugins/p1"]],
      ],
    );
    const spread = [1, 2, 3].map((index) => unitsOfShard(units, index, 3).map((unit) => unit.root));
    assert.deepEqual(spread.flat().sort(), units.map((unit) => unit.root).sort(), "every unit in exactly one shard");
    assert.deepEqual(
      spread,
      [1, 2, 3].map((index) => unitsOfShard(units, index, 3).map((unit) => unit.root)),
      "deterministic",
    );
  });

  it("the union of all shards' issues equals the unsharded check", () => {
    const root = workspace();
    dirs.push(root);
    const guard = new TreeGuard();
    guard.watch(root);
    const check = (args: string[]) => {
      const result = runCli(["check", "--format", "json", ...args], { cwd: root });
      assert.notEqual(result.status, 2, result.stderr);
      return JSON.parse(result.stdout) as CliReport;
    };
    const whole = check([]);
    assert.ok(
      Object.values(whole.engines).every((engine) => engine.status !== "error"),
      JSON.stringify(whole.engines),
    );
    const expected = whole.issues.map(key).sort();
    assert.ok(expected.length >= 14, `the workspace has issues in every package: ${expected.length}`);
    for (const count of [3, 8]) {
      const shards = Array.from({ length: count }, (_, index) => check(["--shard", `${index + 1}/${count}`]));
      for (const [index, shard] of shards.entries()) assert.deepEqual(shard.shard, { index: index + 1, count });
      const union = shards.flatMap((shard) => shard.issues.map(key)).sort();
      assert.deepEqual(union, expected, `${count} shards: the union (each issue once) equals the whole`);
      if (count === 3)
        assert.ok(
          shards.every((shard) => shard.issues.length > 0),
          "the work is spread over every shard",
        );
    }
    guard.verify();
  });

  /** The check's issues, unsharded and in every shard of each count: each issue in exactly one shard, none twice. */
  function assertShardsAddUp(root: string, counts: readonly number[], env: Record<string, string> = {}): string[] {
    const check = (args: string[]) => {
      const result = runCli(["check", "--format", "json", ...args], { cwd: root, env });
      assert.notEqual(result.status, 2, result.stderr);
      return JSON.parse(result.stdout) as CliReport;
    };
    const whole = check([]);
    assert.ok(
      Object.values(whole.engines).every((engine) => engine.status !== "error"),
      JSON.stringify(whole.engines),
    );
    const expected = whole.issues.map(key).sort();
    assert.deepEqual(expected, [...new Set(expected)], "the unsharded check lists each issue once");
    for (const count of counts) {
      const shards = Array.from({ length: count }, (_, index) => check(["--shard", `${index + 1}/${count}`]));
      const union = shards.flatMap((shard) => shard.issues.map(key)).sort();
      assert.deepEqual(union, expected, `${count} shards: each issue in exactly one shard, the union equals the whole`);
    }
    return expected;
  }

  it("references fixture: the shards add up to the unsharded check (warm and command line)", () => {
    const root = scratchCopy("references", "shards-refs");
    dirs.push(root);
    const runs: [number[], Record<string, string>][] = [
      [[2, 3], {}],
      [[2], { SIGNALINT_WARM_TYPESCRIPT: "0" }],
    ];
    for (const [counts, env] of runs) {
      const expected = assertShardsAddUp(root, counts, env);
      assert.equal(expected.length, 5, JSON.stringify(expected));
    }
  });

  it("a workspace whose packages extend a broken root config: its program-wide error is in one shard only", () => {
    const root = workspace({ sharedBase: true });
    dirs.push(root);
    const expected = assertShardsAddUp(root, [3]);
    assert.equal(expected.filter((entry) => entry.includes("TS5023")).length, 1, JSON.stringify(expected));
  });

  it("refuses a malformed shard or paths with --shard", () => {
    const root = workspace();
    dirs.push(root);
    for (const bad of ["0/2", "3/2", "x", "1/0"]) assert.equal(runCli(["check", "--shard", bad], { cwd: root }).status, 2, bad);
    assert.equal(runCli(["check", "--shard", "1/2", "packages"], { cwd: root }).status, 2);
  });
});
