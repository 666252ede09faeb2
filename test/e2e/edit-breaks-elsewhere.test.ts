import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { CheckIssue, Delta } from "../../src/core/contracts.ts";
import { readDaemonRecord } from "../../src/daemon/record.ts";
import { createNodeRuntime } from "../../src/runtime/node.ts";
import { BUNDLE, call, CLEAN_PATH, connect, linkBin, removeDir, REPO, runCli, STATE_HOME, structured, tempDir } from "../helpers.ts";
import { projectFrom } from "../helpers/project.ts";

type Elsewhere = { introduced: number; unattributed?: number; issues: CheckIssue[]; nextStep: string };
type Check = { checkId: string; status: string; totalIssues?: number; total?: number; elsewhere?: Elsewhere; delta?: Delta | { status: string } | null };

const A = "export function mergePath(a: string, b: string): string {\n  return `${a}/${b}`;\n}\n";
const RENAMED = A.replace("mergePath", "joinPath");

function project(): string {
  const dir = projectFrom({
    "package.json": JSON.stringify({ name: "edit-breaks-elsewhere", private: true, type: "module" }),
    "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, noEmit: true, module: "nodenext" }, include: ["src"] }),
    "signalint.config.json": JSON.stringify({ engines: { oxlint: false } }),
    "src/a.ts": A,
    "src/b.ts": 'import { mergePath } from "./a.js";\n\nexport const where = mergePath("x", "y");\n',
  });
  linkBin(dir, "tsc", join(REPO, "node_modules", "typescript", "bin", "tsc"));
  return dir;
}

/** The error the rename left in b.ts, as the check names it elsewhere. */
function brokenImport(check: Check): CheckIssue {
  const issue = check.elsewhere?.issues.find((entry) => entry.file === "src/b.ts");
  assert.ok(issue, JSON.stringify(check));
  assert.match(issue.rule, /^TS(2305|2724)$/);
  return issue;
}

/** An edit that breaks another file is never told it is clean (issue 36, item 1). */
describe("an edit that breaks a file it was not asked about", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  // The SDK client validates each result against the advertised schema: the second run in compact keys.
  for (const [label, env] of [
    ["warm", {}],
    ["command line, compact, structured", { SIGNALINT_WARM_TYPESCRIPT: "0", SIGNALINT_COMPACT: "1", SIGNALINT_MCP_PAYLOAD: "structured" }],
  ] as const) {
    it(`${label}: check_files and after_edit_check name b.ts's error elsewhere, and are clean again once restored`, async () => {
      const dir = project();
      dirs.push(dir);
      const session = await connect(dir, env);
      try {
        const first = structured<Check>(await call(session.client, "check_project"));
        assert.equal(first.status, "clean", JSON.stringify(first));
        writeFileSync(join(dir, "src", "a.ts"), RENAMED);
        const files = structured<Check>(await call(session.client, "check_files", { files: ["src/a.ts"] }));
        assert.equal(files.status, "issues_found", JSON.stringify(files));
        assert.equal(files.totalIssues ?? files.total, 0, "a.ts itself is fine");
        assert.equal(files.elsewhere?.introduced, 1);
        brokenImport(files);
        assert.match(files.elsewhere?.nextStep ?? "", /check_project/);
        const { issueId } = brokenImport(files);
        const detail = structured<{ issues: CheckIssue[] }>(await call(session.client, "get_issue_detail", { issueId, checkId: files.checkId }));
        assert.deepEqual(
          detail.issues.map((entry) => entry.file),
          ["src/b.ts"],
          "an issue listed elsewhere has its detail",
        );
        const edited = structured<Check>(await call(session.client, "after_edit_check", { files: ["src/a.ts"], baselineCheckId: first.checkId }));
        assert.equal(edited.status, "issues_found", JSON.stringify(edited));
        const issue = brokenImport(edited);
        const delta = edited.delta as Delta;
        assert.deepEqual(
          delta.introduced.map((entry) => [entry.file, entry.rule]),
          [["src/b.ts", issue.rule]],
        );
        // Against a baseline that already showed b.ts's error elsewhere, the same error is not this edit's again.
        const again = structured<Check>(await call(session.client, "after_edit_check", { files: ["src/a.ts"], baselineCheckId: edited.checkId }));
        assert.equal(again.status, "issues_found", JSON.stringify(again));
        brokenImport(again);
        assert.deepEqual((again.delta as Delta).introduced, [], "an error the baseline showed is not introduced again");
        writeFileSync(join(dir, "src", "a.ts"), A);
        for (const tool of ["check_files", "after_edit_check"]) {
          const restored = structured<Check>(await call(session.client, tool, { files: ["src/a.ts"] }));
          assert.equal(restored.status, "clean", `${tool}: ${JSON.stringify(restored)}`);
          assert.equal(restored.elsewhere, undefined);
        }
        // apply_diagnostic_fix's post-check is an after_edit_check: the rename it applies is not clean either.
        const patches = [{ file: "src/a.ts", originalContent: A, patchedContent: RENAMED }];
        const { transactionId } = structured<{ transactionId: string }>(await call(session.client, "preview_diagnostic_fix", { patches }));
        const applied = structured<{ check: Check; delta: Delta }>(await call(session.client, "apply_diagnostic_fix", { transactionId, confirm: true }));
        assert.equal(applied.check.status, "issues_found", JSON.stringify(applied));
        brokenImport(applied.check);
        assert.deepEqual(
          applied.delta.introduced.map((entry) => entry.file),
          ["src/b.ts"],
        );
      } finally {
        await session.close();
      }
    });
  }

  it("an edit that fixes another file's error shown by the last check_project names it resolved (the baseline's own errors elsewhere)", async () => {
    const dir = project();
    dirs.push(dir);
    const session = await connect(dir);
    try {
      writeFileSync(join(dir, "src", "a.ts"), RENAMED);
      const broken = structured<Check & { issues?: CheckIssue[] }>(await call(session.client, "check_project"));
      assert.equal(broken.status, "issues_found", JSON.stringify(broken));
      writeFileSync(join(dir, "src", "a.ts"), A);
      // The default baseline is that check_project: b.ts's error was among its own issues, not in an `elsewhere`.
      const restored = structured<Check>(await call(session.client, "after_edit_check", { files: ["src/a.ts"] }));
      assert.equal(restored.status, "clean", JSON.stringify(restored));
      const delta = restored.delta as Delta;
      assert.deepEqual(
        delta.resolved.map((entry) => [entry.file, entry.rule.replace(/\d+$/, "")]),
        [["src/b.ts", "TS"]],
        JSON.stringify(delta),
      );
      assert.equal(delta.netErrorDelta, -1);
    } finally {
      await session.close();
    }
  });

  it("an error in a program the check did not run, or in a config, is never called resolved by an edit elsewhere", async () => {
    // Two packages, each its own program (both run by the typecheck script); y's error and the config's stay.
    const compilerOptions = { strict: true, noEmit: true, module: "nodenext", types: ["missing-types"] };
    const dir = projectFrom({
      "package.json": JSON.stringify({ name: "two-programs", private: true, type: "module", scripts: { typecheck: "tsc -p x && tsc -p y" } }),
      "signalint.config.json": JSON.stringify({ engines: { oxlint: false } }),
      "x/tsconfig.json": JSON.stringify({ compilerOptions, include: ["src"] }),
      "x/src/a.ts": A,
      "y/tsconfig.json": JSON.stringify({ compilerOptions, include: ["src"] }),
      "y/src/c.ts": "export const broken: number = 'not a number';\n",
    });
    dirs.push(dir);
    linkBin(dir, "tsc", join(REPO, "node_modules", "typescript", "bin", "tsc"));
    const session = await connect(dir);
    try {
      const first = structured<Check & { issues?: CheckIssue[] }>(await call(session.client, "check_project"));
      assert.equal(first.status, "issues_found", JSON.stringify(first));
      writeFileSync(join(dir, "x", "src", "a.ts"), `${A}export const more = 1;\n`);
      const edited = structured<Check>(await call(session.client, "after_edit_check", { files: ["x/src/a.ts"], baselineCheckId: first.checkId }));
      const delta = edited.delta as Delta;
      assert.deepEqual(delta.resolved, [], JSON.stringify(delta));
      assert.equal(delta.netErrorDelta, 0);
      // Both are still there, as a cold tsc of each program says.
      const again = structured<Check & { issues?: CheckIssue[] }>(await call(session.client, "check_project"));
      assert.equal(again.status, "issues_found");
    } finally {
      await session.close();
    }
  });

  it("the editor hook (on the project's daemon) exits 2 naming b.ts after the rename, 0 once it is restored", async () => {
    const dir = project();
    const state = tempDir("signalint-state-");
    dirs.push(dir, state);
    const runtime = createNodeRuntime({ selfScript: BUNDLE });
    const env = { PATH: CLEAN_PATH, HOME: process.env.HOME ?? "", XDG_STATE_HOME: STATE_HOME, SIGNALINT_DAEMON: "1", SIGNALINT_STATE_DIR: state };
    const hook = () =>
      spawnSync(process.execPath, [BUNDLE, "hook"], {
        cwd: dir,
        env: { ...env, SIGNALINT_PREWARM_DELAY_MS: "off" },
        input: JSON.stringify({ cwd: dir, tool_input: { file_path: join(dir, "src", "a.ts") } }),
        encoding: "utf8",
      });
    try {
      const whole = runCli(["check"], { cwd: dir, env });
      assert.equal(whole.status, 0, whole.stderr);
      assert.ok(await readDaemonRecord(runtime, state), "the hooks below ask this daemon");
      writeFileSync(join(dir, "src", "a.ts"), RENAMED);
      const broken = hook();
      assert.equal(broken.status, 2, broken.stderr);
      assert.match(broken.stderr, /src\/b\.ts:1:\d+ error TS(2305|2724)/);
      writeFileSync(join(dir, "src", "a.ts"), A);
      const restored = hook();
      assert.equal(restored.status, 0, restored.stderr);
    } finally {
      const stop = runCli(["daemon", "stop"], { cwd: dir, env });
      assert.equal(stop.status, 0, stop.stderr);
    }
  });

  it("nothing known before the first check_files: errors elsewhere are named, not blamed on the edit, and the check is not clean", async () => {
    const dir = project();
    dirs.push(dir);
    writeFileSync(join(dir, "src", "a.ts"), RENAMED);
    const session = await connect(dir);
    try {
      const files = structured<Check>(await call(session.client, "check_files", { files: ["src/a.ts"] }));
      assert.equal(files.status, "issues_found", JSON.stringify(files));
      assert.equal(files.elsewhere?.introduced, 0);
      assert.equal(files.elsewhere?.unattributed, 1);
      brokenImport(files);
      const again = structured<Check>(await call(session.client, "check_files", { files: ["src/a.ts"] }));
      assert.equal(again.status, "clean", "already known: not this edit's");
      assert.equal(again.elsewhere, undefined);
    } finally {
      await session.close();
    }
  });
});
