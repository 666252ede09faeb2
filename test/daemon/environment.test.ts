// Issue 31, item 4: one daemon serves shells with different environments, each with its own answer. The ESLint config
// enables a rule when a variable is set (a JavaScript config may read any); the daemon is started by the shell that
// sets it. Every answer must equal that shell's own `eslint`, whichever shell started the daemon, and the lint results
// kept for one shell must not answer the other.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { readDaemonRecord } from "../../src/daemon/record.ts";
import { createNodeRuntime } from "../../src/runtime/node.ts";
import { call, CLEAN_PATH, connect, linkBin, linkPackage, REPO, removeDir, runCli, scratchCopy, structured, tempDir } from "../helpers.ts";
import { projectFrom } from "../helpers/project.ts";

const runtime = createNodeRuntime();
const ESLINT = join(REPO, "node_modules", "eslint", "bin", "eslint.js");

/** The rules each shell's own `eslint .` reports, as `file:line rule`. */
function rawEslint(project: string, env: Record<string, string>): string[] {
  const raw = spawnSync(process.execPath, [ESLINT, "--format", "json", "."], { cwd: project, env: { PATH: CLEAN_PATH, ...env }, encoding: "utf8" });
  const files = JSON.parse(raw.stdout) as { filePath: string; messages: { line: number; ruleId: string }[] }[];
  return files.flatMap((file) => file.messages.map((message) => `${file.filePath.slice(project.length + 1)}:${message.line} ${message.ruleId}`)).sort();
}

/** The ESLint issues of a check through the project's daemon, as `file:line rule`. */
function viaDaemon(project: string, state: string, env: Record<string, string>): { issues: string[]; stderr: string } {
  const result = runCli(["check", "--format", "json"], { cwd: project, env: { SIGNALINT_DAEMON: "1", SIGNALINT_STATE_DIR: state, ...env } });
  const report = JSON.parse(result.stdout) as { issues: { file: string; line: number; rule: string; engine: string }[] };
  const issues = report.issues.filter((issue) => issue.engine === "eslint").map((issue) => `${issue.file}:${issue.line} ${issue.rule}`);
  return { issues: issues.sort(), stderr: result.stderr };
}

describe("each client's own environment", () => {
  const dirs: string[] = [];
  const states: string[] = [];
  after(async () => {
    for (const state of states) {
      const record = await readDaemonRecord(runtime, state);
      if (record) runtime.daemon?.kill(record.pid, "SIGKILL");
    }
    dirs.forEach(removeDir);
  });

  it("two shells on one daemon: each gets what its own eslint says, in either order, again and again", async () => {
    const project = scratchCopy("eslint-flat", "env-shells");
    const state = tempDir("signalint-state-");
    dirs.push(project, state);
    states.push(state);
    linkBin(project, "eslint", ESLINT);
    writeFileSync(
      join(project, "eslint.config.js"),
      'export default [{ files: ["**/*.js"], rules: { "no-debugger": "error", "no-console": process.env.LINT_STRICT ? "error" : "off" } }];\n',
    );
    writeFileSync(join(project, "src", "log.js"), 'console.log("hello");\nexport {};\n');
    writeFileSync(join(project, "signalint.config.json"), JSON.stringify({ engines: { eslint: true, oxlint: false, tsc: false } }));
    const strict = { LINT_STRICT: "1" };
    const plain = {};
    const expectStrict = rawEslint(project, strict);
    const expectPlain = rawEslint(project, plain);
    assert.ok(expectStrict.some((issue) => issue.endsWith("no-console")) && !expectPlain.some((issue) => issue.endsWith("no-console")));
    // The strict shell starts the daemon; then both shells ask, twice each (the second from the kept results).
    for (const [env, expected, label] of [
      [strict, expectStrict, "strict shell (started the daemon)"],
      [plain, expectPlain, "plain shell"],
      [strict, expectStrict, "strict shell again"],
      [plain, expectPlain, "plain shell again"],
    ] as const) {
      const answer = viaDaemon(project, state, env);
      assert.doesNotMatch(answer.stderr, /no daemon/, answer.stderr);
      assert.deepEqual(answer.issues, expected, label);
    }
    const record = await readDaemonRecord(runtime, state);
    assert.ok(record, "one daemon served every shell");
  });

  it("a shell whose toolchain variables differ from the daemon's gets tsc's answer, run in its environment", async () => {
    const project = scratchCopy("systemic-ts", "env-toolchain");
    const state = tempDir("signalint-state-");
    dirs.push(project, state);
    states.push(state);
    const own = runCli(["check", "--format", "json"], { cwd: project, env: { SIGNALINT_DAEMON: "0" } });
    const first = runCli(["check", "--format", "json"], { cwd: project, env: { SIGNALINT_DAEMON: "1", SIGNALINT_STATE_DIR: state } });
    const other = runCli(["check", "--format", "json"], {
      cwd: project,
      env: { SIGNALINT_DAEMON: "1", SIGNALINT_STATE_DIR: state, NODE_OPTIONS: "--max-old-space-size=3000" },
    });
    const issues = (stdout: string) =>
      (JSON.parse(stdout) as { issues: { file: string; line: number; rule: string }[] }).issues.map((i) => `${i.file}:${i.line} ${i.rule}`);
    assert.ok(issues(own.stdout).length > 0);
    assert.deepEqual(issues(first.stdout), issues(own.stdout), first.stderr);
    assert.deepEqual(issues(other.stdout), issues(own.stdout), other.stderr);
    assert.doesNotMatch(other.stderr, /no daemon/);
  });

  it("what one shell's check_project showed of a file's typed-lint errors is not another shell's known set", async () => {
    // ESLint's typed rules lint the files importing an edited one; the config turns no-console on in the strict shell.
    const project = projectFrom(
      {
        "package.json": '{ "name": "env-known", "private": true, "type": "module", "scripts": { "lint": "eslint ." } }\n',
        "eslint.config.mjs": [
          'import tseslint from "typescript-eslint";',
          "export default tseslint.config({",
          '  files: ["**/*.ts"],',
          "  extends: [tseslint.configs.base],",
          "  languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },",
          '  rules: { "@typescript-eslint/no-floating-promises": "error", "no-console": process.env.LINT_STRICT ? "error" : "off" },',
          "});",
          "",
        ].join("\n"),
        "tsconfig.json": JSON.stringify({
          compilerOptions: { strict: true, noEmit: true, target: "es2022", module: "esnext", moduleResolution: "bundler" },
          include: ["src"],
        }),
        "signalint.config.json": JSON.stringify({ engines: { oxlint: false } }),
        "src/dep.ts": "export function ping(): void {}\n",
        "src/use.ts": 'import { ping } from "./dep";\nexport function run(): void {\n  ping();\n  console.log("ran");\n}\n',
      },
      "signalint-env-known-",
    );
    const state = tempDir("signalint-state-");
    dirs.push(project, state);
    states.push(state);
    for (const pkg of ["eslint", "typescript-eslint"]) linkPackage(project, pkg, join(REPO, "node_modules", pkg));
    linkBin(project, "tsc", join(REPO, "node_modules", "typescript", "bin", "tsc"));
    const shared = { SIGNALINT_DAEMON: "1", SIGNALINT_STATE_DIR: state };
    const plain = await connect(project, shared);
    const strict = await connect(project, { ...shared, LINT_STRICT: "1" });
    try {
      // The plain shell's whole check: use.ts has no error there.
      const whole = structured<{ status: string }>(await call(plain.client, "check_project"));
      assert.equal(whole.status, "clean", JSON.stringify(whole));
      // An edit of dep.ts; the strict shell's check of it lints use.ts, whose no-console error this edit did not make.
      writeFileSync(join(project, "src", "dep.ts"), "export function ping(): void {\n  return;\n}\n");
      const files = structured<{ elsewhere?: { introduced: number; unattributed?: number } }>(
        await call(strict.client, "check_files", { files: ["src/dep.ts"] }),
      );
      assert.equal(files.elsewhere?.introduced, 0, JSON.stringify(files.elsewhere));
      assert.equal(files.elsewhere?.unattributed, 1, JSON.stringify(files.elsewhere));
    } finally {
      await plain.close();
      await strict.close();
    }
  });
});
