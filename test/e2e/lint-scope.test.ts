import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { after, describe, it } from "node:test";
import type { CheckResponse } from "../../src/core/contracts.ts";
import { eslintInvocations } from "../../src/engines/eslint-scripts.ts";
import { createNodeRuntime } from "../../src/runtime/node.ts";
import { SignalintService } from "../../src/service/signalint.ts";
import { BUNDLE, CLEAN_PATH, linkPackage, removeDir, REPO, runCli, serviceIssues, tempDir } from "../helpers.ts";

/** Issue 21, item 1: ESLint lints where the project's own lint scripts lint (supermacro/neverthrow: `eslint ./src --ext .ts`). */

function project(files: Record<string, string>, eslintPackage: string): { dir: string; cache: string } {
  const dir = tempDir("signalint-lintscope-");
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  linkPackage(dir, "eslint", join(REPO, "node_modules", eslintPackage));
  return { dir, cache: tempDir("signalint-cache-") };
}

/** What the project's own lint command reports, as "file:line:col rule". */
function rawEslint(dir: string, eslintPackage: string, args: string[]): string[] {
  const run = rawRun(dir, eslintPackage, args);
  return (JSON.parse(run.stdout) as { filePath: string; messages: { line: number; column: number; ruleId: string }[] }[])
    .flatMap((file) => file.messages.map((message) => `${relative(dir, file.filePath)}:${message.line}:${message.column} ${message.ruleId}`))
    .sort();
}

function rawRun(dir: string, eslintPackage: string, args: string[]) {
  return spawnSync(process.execPath, [join(REPO, "node_modules", eslintPackage, "bin", "eslint.js"), "--format", "json", ...args], {
    cwd: dir,
    encoding: "utf8",
    env: { PATH: CLEAN_PATH },
  });
}

function check(dir: string, cache: string, args: string[] = []): CheckResponse {
  return JSON.parse(runCli(["check", "--format", "response", ...args], { cwd: dir, env: { SIGNALINT_CACHE_DIR: cache } }).stdout) as CheckResponse;
}

function issueKeys(dir: string, cache: string): string[] {
  const result = runCli(["check", "--format", "json"], { cwd: dir, env: { SIGNALINT_CACHE_DIR: cache } });
  const report = JSON.parse(result.stdout) as { issues: { file: string; line: number; col: number; rule: string }[] };
  return report.issues.map((issue) => `${issue.file}:${issue.line}:${issue.col} ${issue.rule}`).sort();
}

const NOTE = "not linted by ESLint: outside every path the project's lint scripts give eslint (the project does not lint them)";

describe("eslint invocations in scripts", () => {
  it("reads paths and --ext, skips option values, and ignores commands that lint no files", () => {
    assert.deepEqual(eslintInvocations("eslint ./src --ext .ts"), [{ paths: ["./src"], ext: [".ts"] }]);
    assert.deepEqual(eslintInvocations("tsc && eslint -c .eslintrc.ci.js --ext=ts,tsx src test --max-warnings 0"), [
      { paths: ["src", "test"], ext: [".ts", ".tsx"] },
    ]);
    assert.deepEqual(eslintInvocations('npx eslint --fix "lib" -- bin'), [{ paths: ["lib", "bin"], ext: [] }]);
    assert.deepEqual(eslintInvocations("eslint"), [{ paths: [], ext: [] }]);
    assert.deepEqual(eslintInvocations("eslint --print-config src/a.ts; eslint --stdin < x; prettier --check ."), []);
  });
});

describe("ESLint's scope from the project's lint scripts (issue 21, item 1)", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  it("neverthrow's shape, legacy .eslintrc.js and ESLint 8: exactly what `npm run lint` reports, --ext included", () => {
    const { dir, cache } = project(
      {
        "package.json": JSON.stringify({ name: "neverthrow", private: true, scripts: { lint: "eslint ./src --ext .ts", test: "jest" } }),
        ".eslintrc.js": "module.exports = { root: true, parserOptions: { ecmaVersion: 2022, sourceType: 'module' }, rules: { 'no-var': 'error' } };\n",
        "jest.config.js": "var config = { testEnvironment: 'node' };\nmodule.exports = config;\n",
        "src/index.ts": "var answer = 42;\nexport default answer;\n",
        // `--ext .ts`: ESLint 8 does not lint .js files of a directory it is given.
        "src/helper.js": "var helper = 1;\nexport default helper;\n",
      },
      "eslint8",
    );
    dirs.push(dir, cache);
    const own = rawEslint(dir, "eslint8", ["./src", "--ext", ".ts"]);
    assert.deepEqual(own, ["src/index.ts:1:1 no-var"]);
    // The failure this guards against: linting `.` finds what the project never lints.
    assert.ok(rawEslint(dir, "eslint8", ["."]).includes("jest.config.js:1:1 no-var"));
    assert.deepEqual(issueKeys(dir, cache), own);
    const response = check(dir, cache);
    assert.equal(response.engines.eslint.status, "ok");
    assert.deepEqual(response.notChecked, [{ reason: NOTE, count: 2, sample: [".eslintrc.js", "jest.config.js"] }]);
    // A file only outside the scripts' paths: not linted, said once, and not an `error` (the project does not lint it).
    const alone = check(dir, cache, ["jest.config.js"]);
    assert.equal(alone.totalIssues, 0);
    assert.equal(alone.status, "clean");
    assert.deepEqual(alone.notChecked, [{ reason: NOTE, count: 1, sample: ["jest.config.js"] }]);
    const doctor = runCli(["doctor"], { cwd: dir, env: { SIGNALINT_CACHE_DIR: cache } }).stdout;
    assert.match(doctor, /^ {2}eslint runs on src with --ext \.ts: the paths the project's lint scripts give it/m);
  });

  it("a flat config and workspace package scripts: the union of their paths, each relative to its package", () => {
    const { dir, cache } = project(
      {
        "package.json": JSON.stringify({ name: "root", private: true, type: "module", workspaces: ["packages/*"], scripts: { lint: "eslint src missing" } }),
        "eslint.config.js": "export default [{ rules: { 'no-var': 'error' } }];\n",
        "jest.config.js": "var config = {};\nexport default config;\n",
        "src/index.js": "var a = 1;\nexport default a;\n",
        "packages/p/package.json": JSON.stringify({ name: "p", type: "module", scripts: { lint: "eslint lib" } }),
        "packages/p/lib/p.js": "var p = 1;\nexport default p;\n",
        "packages/p/scripts/build.js": "var b = 1;\nexport default b;\n",
      },
      "eslint",
    );
    dirs.push(dir, cache);
    const own = [...rawEslint(dir, "eslint", ["src"]), ...rawEslint(join(dir, "packages", "p"), "eslint", ["lib"]).map((key) => `packages/p/${key}`)].sort();
    assert.deepEqual(own, ["packages/p/lib/p.js:1:1 no-var", "src/index.js:1:1 no-var"]);
    assert.deepEqual(issueKeys(dir, cache), own);
    const response = check(dir, cache);
    assert.deepEqual(response.notChecked, [{ reason: NOTE, count: 3, sample: ["eslint.config.js", "jest.config.js", "packages/p/scripts/build.js"] }]);
  });

  it("`eslint .` in a script: the whole project, as before", () => {
    const { dir, cache } = project(
      {
        "package.json": JSON.stringify({ name: "all", private: true, type: "module", scripts: { lint: "eslint src", "lint:all": "eslint ." } }),
        "eslint.config.js": "export default [{ rules: { 'no-var': 'error' } }];\n",
        "jest.config.js": "var config = {};\nexport default config;\n",
        "src/index.js": "var a = 1;\nexport default a;\n",
      },
      "eslint",
    );
    dirs.push(dir, cache);
    assert.deepEqual(issueKeys(dir, cache), rawEslint(dir, "eslint", ["."]));
    assert.equal(check(dir, cache).notChecked, undefined);
  });
});

describe("an Nx workspace's legacy ESLint configs (nrwl/nx-examples: the root ignores everything, each project lints itself)", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));
  const files = {
    "nx.json": "{}\n",
    ".eslintrc.json": JSON.stringify({
      root: true,
      ignorePatterns: ["**/*"],
      parserOptions: { ecmaVersion: 2022, sourceType: "module" },
      overrides: [{ files: ["*.js"], rules: { "no-debugger": "error" } }],
    }),
    "libs/a/.eslintrc.json": JSON.stringify({ extends: ["../../.eslintrc.json"], ignorePatterns: ["!**/*", "src/skip.js"], rules: { "no-var": "error" } }),
    "libs/a/src/index.js": "var a = 1;\ndebugger;\nexport default a;\n",
    "libs/a/src/skip.js": "var skipped = 1;\nexport default skipped;\n",
    "apps/b/.eslintrc.json": JSON.stringify({ extends: ["../../.eslintrc.json"], ignorePatterns: ["!**/*"] }),
    "apps/b/main.js": "debugger;\n",
    // In no project: nothing lints it.
    "tools/t.js": "debugger;\n",
    // A fixture's config standing alone and a dot-directory's: the project's `eslint .` reaches neither.
    "test/fixtures/.eslintrc.json": JSON.stringify({ root: true, rules: { "no-var": "error" } }),
    "test/fixtures/bad.js": "var fixture = 1;\n",
    ".storybook/.eslintrc.json": JSON.stringify({ extends: ["../.eslintrc.json"], ignorePatterns: ["!**/*"], rules: { "no-var": "error" } }),
    ".storybook/main.js": "var storybook = 1;\n",
  };

  it("without a lint script: each project's directory is linted from its own config, as `nx run-many -t lint` does", async () => {
    const { dir, cache } = project({ "package.json": JSON.stringify({ name: "nx", private: true }), ...files }, "eslint8");
    dirs.push(dir, cache);
    // The project's own lint: `eslint .` in each project; one `eslint .` at the root lints nothing and fails.
    const own = ["libs/a", "apps/b"].flatMap((sub) => rawEslint(join(dir, sub), "eslint8", ["."]).map((key) => `${sub}/${key}`)).sort();
    assert.deepEqual(own, ["apps/b/main.js:1:1 no-debugger", "libs/a/src/index.js:1:1 no-var", "libs/a/src/index.js:2:1 no-debugger"]);
    assert.equal(rawRun(dir, "eslint8", ["."]).status, 2);
    assert.deepEqual(issueKeys(dir, cache), own);
    const doctor = runCli(["doctor"], { cwd: dir, env: { SIGNALINT_CACHE_DIR: cache } }).stdout;
    assert.match(doctor, /^ {2}eslint also lints apps\/b, libs\/a from their own \.eslintrc\*/m);
    // A file checked after the whole project is answered as when it is checked alone (it was: clean, from a run that
    // had linted nothing).
    process.env.SIGNALINT_CACHE_DIR = cache;
    const service = await SignalintService.create(createNodeRuntime({ selfScript: BUNDLE }), { root: dir }).finally(
      () => delete process.env.SIGNALINT_CACHE_DIR,
    );
    try {
      const whole = await service.check(["."], false);
      assert.equal(whole.engines.eslint.status, "ok");
      const one = await service.check(["libs/a/src/index.js"], true);
      const keys = serviceIssues(service, one).map((issue) => `${issue.file}:${issue.line}:${issue.col} ${issue.rule}`);
      assert.deepEqual(
        keys.sort(),
        own.filter((key) => key.startsWith("libs/a/")),
      );
    } finally {
      await service.close();
    }
  });

  it("with `eslint .` in a script: the project's own lint fails, and so does ESLint's part of the check (never clean)", () => {
    const { dir, cache } = project({ "package.json": JSON.stringify({ name: "nx", private: true, scripts: { lint: "eslint ." } }), ...files }, "eslint8");
    dirs.push(dir, cache);
    assert.equal(rawRun(dir, "eslint8", ["."]).status, 2);
    const response = check(dir, cache);
    assert.equal(response.engines.eslint.status, "error");
    assert.notEqual(response.status, "clean");
    assert.match(response.engines.eslint.message ?? "", /linted none of the \d+ files under \./);
  });
});

describe("a workspace that lints each project from its own flat config, on ESLint 9 (Nx's flat configs, a package's `eslint .`)", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));
  const files = {
    "eslint.config.mjs": 'export default [{ rules: { "no-debugger": "error" } }];\n',
    "libs/a/eslint.config.mjs": 'import base from "../../eslint.config.mjs";\nexport default [...base, { rules: { "no-var": "error" } }];\n',
    "libs/a/src/index.js": "var a = 1;\ndebugger;\nexport default a;\n",
    "libs/b/index.js": "var b = 1;\ndebugger;\nexport default b;\n",
  };

  it("no script runs eslint: each file is linted with its nearest config, as `eslint .` in its project is", async () => {
    const { dir, cache } = project(
      { "package.json": JSON.stringify({ name: "nxflat", private: true, type: "module" }), "nx.json": "{}\n", ...files },
      "eslint9",
    );
    dirs.push(dir, cache);
    const own = [...rawEslint(join(dir, "libs/a"), "eslint9", ["."]).map((key) => `libs/a/${key}`), ...rawEslint(dir, "eslint9", ["libs/b"])].sort();
    assert.deepEqual(own, ["libs/a/src/index.js:1:1 no-var", "libs/a/src/index.js:2:1 no-debugger", "libs/b/index.js:2:1 no-debugger"]);
    // ESLint 9 at the root reads the root's config only: the failure this guards against.
    assert.ok(!rawEslint(dir, "eslint9", ["."]).includes("libs/a/src/index.js:1:1 no-var"));
    assert.deepEqual(issueKeys(dir, cache), own);
    const doctor = runCli(["doctor"], { cwd: dir, env: { SIGNALINT_CACHE_DIR: cache } }).stdout;
    assert.match(doctor, /^ {2}eslint runs with --flag v10_config_lookup_from_file: /m);
    // A file named alone: its project's config too.
    const one = JSON.parse(
      runCli(["check", "--format", "json", "libs/a/src/index.js"], { cwd: dir, env: { SIGNALINT_CACHE_DIR: tempDir("signalint-cache-") } }).stdout,
    ) as {
      issues: { file: string; line: number; col: number; rule: string }[];
    };
    assert.deepEqual(one.issues.map((issue) => `${issue.file}:${issue.line}:${issue.col} ${issue.rule}`).sort(), own.slice(0, 2));
  });

  it("its fixes come from the same configs: `fix` writes what `eslint --fix .` in the project writes", () => {
    const { dir, cache } = project(
      { "package.json": JSON.stringify({ name: "nxflat", private: true, type: "module" }), "nx.json": "{}\n", ...files },
      "eslint9",
    );
    const copy = tempDir("signalint-lintscope-own-fix-");
    dirs.push(dir, cache, copy);
    cpSync(dir, copy, { recursive: true, verbatimSymlinks: true });
    rawRun(join(copy, "libs/a"), "eslint9", ["--fix", "."]);
    const expected = readFileSync(join(copy, "libs/a/src/index.js"), "utf8");
    assert.match(expected, /^let a = 1;/, "the project's own fix applies libs/a's no-var");
    // The root's config alone has no no-var: a fix from there would have nothing to do.
    const result = runCli(["fix", "libs/a/src/index.js"], { cwd: dir, env: { SIGNALINT_CACHE_DIR: cache } });
    assert.equal(readFileSync(join(dir, "libs/a/src/index.js"), "utf8"), expected, result.stdout + result.stderr);
  });

  it("a package's own `eslint .` script: that package's config for its files", () => {
    const { dir, cache } = project(
      {
        "package.json": JSON.stringify({ name: "root", private: true, type: "module", workspaces: ["libs/*"] }),
        ...files,
        "libs/a/package.json": JSON.stringify({ name: "a", type: "module", scripts: { lint: "eslint ." } }),
      },
      "eslint9",
    );
    dirs.push(dir, cache);
    const own = rawEslint(join(dir, "libs/a"), "eslint9", ["."]).map((key) => `libs/a/${key}`);
    assert.deepEqual(issueKeys(dir, cache), own);
  });
});
