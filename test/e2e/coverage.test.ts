import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { after, describe, it } from "node:test";
import type { CheckResponse } from "../../src/core/contracts.ts";
import { call, CLEAN_PATH, connect, defaultStateDir, everyIssue, removeDir, REPO, runCli, scratchCopy, structured, tempDir } from "../helpers.ts";
import { coverageProject as project, subdirectoryServerTest, TYPE_ERROR } from "./coverage-project.ts";
import { assertTreeUnchanged, snapshotTree } from "../helpers/tree.ts";

/**
 * Run a check and assert it wrote nothing into the project tree (but a state directory a test put there through
 * SIGNALINT_STATE_DIR; a blank one means the default, outside the tree).
 */
function unwritten<T>(dir: string, env: Record<string, string>, run: () => T): T {
  const state = env.SIGNALINT_STATE_DIR;
  const exclude = state?.trim() ? [resolve(dir, state)] : [];
  const before = snapshotTree(dir, exclude);
  const result = run();
  assertTreeUnchanged(dir, before, exclude);
  return result;
}

function check(
  dir: string,
  cache: string,
  args: string[] = [],
  env: Record<string, string> = {},
): { status: number | null; response: CheckResponse; stderr: string } {
  const result = unwritten(dir, env, () => runCli(["check", "--format", "response", ...args], { cwd: dir, env: { SIGNALINT_CACHE_DIR: cache, ...env } }));
  return { status: result.status, response: JSON.parse(result.stdout) as CheckResponse, stderr: result.stderr };
}

/** Every issue of a check as "file:line rule" (`--format github` lists them all, clustered or not). */
function issuesOf(dir: string, cache: string, args: string[] = [], env: Record<string, string> = {}): string[] {
  const result = unwritten(dir, env, () => runCli(["check", "--format", "github", ...args], { cwd: dir, env: { SIGNALINT_CACHE_DIR: cache, ...env } }));
  return result.stdout
    .split("\n")
    .flatMap((line) => {
      const match = /^::\w+ file=([^,]+),line=(\d+),col=\d+,title=\w+ ([^:]+)::/.exec(line);
      return match ? [`${match[1]}:${match[2]} ${match[3]}`] : [];
    })
    .sort();
}

/** Every file under `dir` (relative), skipping node_modules. */
function treeFiles(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === "node_modules") return [];
    const path = join(dir, entry.name);
    return entry.isDirectory() ? treeFiles(path, base) : [relative(base, path)];
  });
}

describe("files no tsconfig covers: an inferred program only in a project without any tsconfig", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  it("a TS file with a type error and no tsconfig is an issue, never clean", () => {
    const { dir, cache } = project({ "src/a.ts": TYPE_ERROR }, ["tsc"]);
    dirs.push(dir, cache);
    const { status, response } = check(dir, cache);
    assert.equal(status, 1);
    assert.equal(response.status, "issues_found");
    assert.deepEqual(
      (response.remainingIssues ?? []).map((issue) => `${issue.file}:${issue.line} ${issue.rule}`),
      ["src/a.ts:1 TS2322"],
    );
    assert.equal(response.engines.tsc.status, "ok");
    assert.match(response.engines.tsc.message ?? "", /inferred program .* 1 file/);
    assert.ok(!existsSync(join(dir, ".signalint", "tsc")), "the inferred program's config is not written into the project");
    assert.ok(
      treeFiles(cache).some((file) => file.endsWith("tsconfig.json")),
      "it is in the cache directory",
    );
  });

  it("a tsconfig whose include misses a file: that file is a coverage note, not type-checked with invented options", () => {
    // Changed by issue 21 (check what the project checks): before, scripts/build.ts was type-checked in an inferred
    // program (TypeScript's defaults) although the project's own `tsc -p tsconfig.json` never checks it.
    const { dir, cache } = project(
      {
        "tsconfig.json": '{ "compilerOptions": { "strict": true, "noEmit": true }, "include": ["src"] }\n',
        "src/lib.ts": "export const label: string = 42;\n",
        "scripts/build.ts": 'import { label } from "../src/lib";\nconst size: number = label;\nexport { size };\n',
      },
      ["tsc"],
    );
    dirs.push(dir, cache);
    assert.deepEqual(issuesOf(dir, cache), ["src/lib.ts:1 TS2322"]);
    const whole = check(dir, cache).response;
    assert.equal(whole.engines.tsc.message, undefined);
    assert.deepEqual(whole.notChecked, [{ reason: "not type-checked: no tsconfig the project checks includes them", count: 1, sample: ["scripts/build.ts"] }]);
    // Only the requested files are candidates: a covered file has no note.
    const covered = check(dir, cache, ["src/lib.ts"]).response;
    assert.equal(covered.notChecked, undefined);
    assert.equal(covered.totalIssues, 1);
    // A check of only the uncovered file is never clean: nothing type-checked it.
    const alone = check(dir, cache, ["scripts/build.ts"]);
    assert.equal(alone.response.status, "error");
    assert.equal(alone.status, 1);
    assert.equal(alone.response.notChecked?.[0]?.count, 1);
  });

  it("JavaScript files are in the inferred program (type errors only under // @ts-check)", () => {
    const { dir, cache } = project({ "b.js": "// @ts-check\n/** @type {number} */\nconst n = 'x';\nexport { n };\n", "c.js": "const s = 1; s.foo();\n" }, [
      "tsc",
    ]);
    dirs.push(dir, cache);
    assert.deepEqual(issuesOf(dir, cache), ["b.js:3 TS2322"]);
  });
});

describe("the inferred program through the warm path", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  it("follows edits, new uncovered files and a tsconfig that starts covering them, like a cold run", async () => {
    const { dir, cache } = project({ "src/a.ts": TYPE_ERROR }, ["tsc"]);
    dirs.push(dir, cache);
    const session = await connect(dir, { SIGNALINT_CACHE_DIR: cache });
    const issues = async () => {
      const response = structured<CheckResponse>(await call(session.client, "check_project"));
      const all = await everyIssue(session, response);
      return { files: all.map((issue) => `${issue.file} ${issue.rule}`).sort(), message: response.engines.tsc.message ?? "" };
    };
    try {
      assert.deepEqual((await issues()).files, ["src/a.ts TS2322"]);
      assert.deepEqual((await issues()).files, ["src/a.ts TS2322"]);
      writeFileSync(join(dir, "src", "b.ts"), "export const b: string = 1;\n");
      assert.deepEqual((await issues()).files, ["src/a.ts TS2322", "src/b.ts TS2322"]);
      writeFileSync(join(dir, "src", "a.ts"), "export const n: number = 1;\n");
      assert.deepEqual((await issues()).files, ["src/b.ts TS2322"]);
      // A tsconfig that includes src now covers both: no inferred program, and its options apply.
      writeFileSync(join(dir, "tsconfig.json"), '{ "compilerOptions": { "noEmit": true, "strict": true }, "include": ["src"] }\n');
      const covered = await issues();
      assert.deepEqual(covered.files, ["src/b.ts TS2322"]);
      assert.equal(covered.message, "");
    } finally {
      await session.close();
    }
  });
});

describe("missing engines", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  it("engines.tsc: true without TypeScript installed is an error; other engines' issues are kept; text and github say so", () => {
    const { dir, cache } = project({ "signalint.config.json": '{ "engines": { "tsc": true } }\n', "src/a.js": "debugger;\n" }, ["oxlint"]);
    dirs.push(dir, cache);
    const { status, response } = check(dir, cache);
    assert.equal(status, 1);
    assert.equal(response.status, "error");
    assert.equal(response.engines.tsc.status, "error");
    assert.equal(response.engines.tsc.code, "engine_not_found");
    assert.match(response.engines.tsc.message ?? "", /engines\.tsc is enabled .*npm i -D typescript/);
    assert.ok(response.totalIssues >= 1, "oxlint's findings are kept");
    const github = runCli(["check", "--format", "github"], { cwd: dir, env: { SIGNALINT_CACHE_DIR: cache } });
    assert.equal(github.status, 1);
    assert.match(github.stdout, /^::error title=signalint tsc::engines\.tsc is enabled in signalint\.config\.json but tsc not found/m);
    const text = runCli(["check"], { cwd: dir, env: { SIGNALINT_CACHE_DIR: cache } });
    assert.match(text.stdout, /^! tsc failed: engines\.tsc is enabled/m);
    assert.match(text.stdout, /Check incomplete/);
  });

  it("tsc on by default but not installed: an error when the checked files include TypeScript, off for JavaScript only", () => {
    const ts = project({ "src/a.ts": "export const a = 1;\n" }, ["oxlint"]);
    const js = project({ "src/a.js": "export const a = 1;\n" }, ["oxlint"]);
    dirs.push(ts.dir, ts.cache, js.dir, js.cache);
    const withTs = check(ts.dir, ts.cache);
    assert.equal(withTs.status, 1);
    assert.equal(withTs.response.status, "error");
    assert.equal(withTs.response.engines.tsc.code, "engine_not_found");
    const jsOnly = check(js.dir, js.cache);
    assert.equal(jsOnly.status, 0);
    assert.equal(jsOnly.response.status, "clean");
    assert.equal(jsOnly.response.engines.tsc.status, "disabled");
  });
});

describe("nothing Signalint writes is visible to an engine or the user's tools", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  it("project references + ESLint flat config: two checks equal raw ESLint; raw ESLint after a check sees no Signalint file", () => {
    const dir = scratchCopy("references", "refs-eslint");
    const cache = tempDir("signalint-cache-");
    dirs.push(dir, cache);
    // Lints .js and .d.ts (espree cannot parse a .d.ts: each one seen would be an issue), and does not read .gitignore.
    writeFileSync(join(dir, "eslint.config.mjs"), 'export default [{ files: ["**/*.js", "**/*.d.ts"], rules: { "no-var": "error" } }];\n');
    writeFileSync(join(dir, "packages", "app", "src", "legacy.js"), "var x = 1;\nexport default x;\n");
    const eslint = () => {
      const raw = spawnSync(process.execPath, [join(REPO, "node_modules", "eslint", "bin", "eslint.js"), "--format", "json", "."], {
        cwd: dir,
        encoding: "utf8",
        env: { PATH: CLEAN_PATH },
      });
      return (JSON.parse(raw.stdout) as { filePath: string; messages: unknown[] }[]).flatMap((file) => file.messages.map(() => relative(dir, file.filePath)));
    };
    const before = eslint();
    assert.deepEqual(before, ["packages/app/src/legacy.js"]);
    // A lintable file in the state directory (inside the root) is never linted by Signalint.
    mkdirSync(join(dir, ".signalint"), { recursive: true });
    writeFileSync(join(dir, ".signalint", "stray.js"), "var y = 2;\ndebugger;\nexport default y;\n");
    const env = { SIGNALINT_STATE_DIR: join(dir, ".signalint"), SIGNALINT_CACHE_DIR: cache };
    // Rounds 1-2: the warm solution (writes nothing anywhere); round 3: the command line's tsc -b (build info in the cache).
    for (const round of [1, 2, 3]) {
      const github = runCli(["check", "--format", "github"], { cwd: dir, env: round === 3 ? { ...env, SIGNALINT_WARM_TYPESCRIPT: "0" } : env });
      const fromEslint = github.stdout.split("\n").flatMap((line) => (/title=eslint /.test(line) ? [/ file=([^,]+)/.exec(line)?.[1]] : []));
      assert.deepEqual(fromEslint, before, `check ${round}: ESLint's issues equal the raw run`);
      assert.match(github.stdout, /title=tsc TS2322/, `check ${round}: tsc ran`);
      assert.doesNotMatch(github.stdout, /file=\.signalint/, `check ${round}: no engine looked into the state directory`);
    }
    removeDir(join(dir, ".signalint", "stray.js"));
    assert.deepEqual(eslint(), before, "the user's own eslint sees nothing Signalint wrote");
    assert.deepEqual(
      treeFiles(dir).filter((file) => /\.d\.ts$|tsbuildinfo|^\.signalint\/tsc/.test(file)),
      [],
    );
    assert.ok(
      treeFiles(cache).some((file) => file.endsWith(".tsbuildinfo")),
      "tsc -b build info is in the cache directory",
    );
  });
});

describe("the state directory is the project root's, outside the tree", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  it("the CLI run from a subdirectory finds the root; paths are relative to the working directory", () => {
    const { dir, cache } = project({ "src/a.ts": TYPE_ERROR, "lib/b.ts": TYPE_ERROR }, ["tsc"]);
    dirs.push(dir, cache);
    const env = { SIGNALINT_STATE_DIR: "", SIGNALINT_CACHE_DIR: cache };
    const fromSrc = check(join(dir, "src"), cache, [], env);
    assert.equal(fromSrc.response.projectRoot, dir);
    assert.deepEqual(issuesOf(join(dir, "src"), cache, [], env), ["src/a.ts:1 TS2322"], "no paths: the working directory");
    assert.deepEqual(issuesOf(join(dir, "src"), cache, ["a.ts", "../lib/b.ts"], env), ["lib/b.ts:1 TS2322", "src/a.ts:1 TS2322"]);
    assert.ok(!existsSync(join(dir, "src", ".signalint")) && !existsSync(join(dir, ".signalint")), "no state directory in the tree");
    assert.ok(existsSync(join(defaultStateDir(dir), "session.jsonl")), "the state is the root's, in the per-user state home");
    assert.equal(runCli(["check", "../.."], { cwd: join(dir, "src"), env }).status, 2, "paths outside the root are refused");
  });

  it("signalint.config.json marks the root above a nested package.json", () => {
    const { dir, cache } = project({ "signalint.config.json": "{}\n", "packages/app/package.json": "{}\n", "packages/app/a.ts": TYPE_ERROR }, ["tsc"]);
    dirs.push(dir, cache);
    const { response } = check(join(dir, "packages", "app"), cache, [], { SIGNALINT_STATE_DIR: "", SIGNALINT_CACHE_DIR: cache });
    assert.equal(response.projectRoot, dir);
    assert.deepEqual(
      (response.remainingIssues ?? []).map((issue) => issue.file),
      ["packages/app/a.ts"],
    );
    assert.ok(!existsSync(join(dir, "packages", "app", ".signalint")));
  });

  subdirectoryServerTest("node", dirs);
});
