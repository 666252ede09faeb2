import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { hookReport } from "../../src/cli/hook-report.ts";
import type { CheckIssue, CheckResponse, Delta, Pending } from "../../src/core/contracts.ts";
import { spawnSync } from "node:child_process";
import { BUNDLE, call, CLEAN_PATH, connect, linkBin, rawTscKeys, removeDir, REPO, runCli, STATE_HOME, structured, tempDir } from "../helpers.ts";
import { projectFrom } from "../helpers/project.ts";

// Issue 36 item 2: check_files and after_edit_check answer the named files before the rest of what an edit affects
// is re-checked. The budget (pendingAfterMs) is 0 here, so the first answer is the named files' whatever the machine's
// speed; the follow-up call is answered from the re-check the first one left running.

type Check = CheckResponse & { delta?: Delta | { status: string } | null; pending?: Pending };

/** Importers of the hub: each calls it with a number, so retyping its parameter breaks every one. */
const DEPENDENTS = 40;
const HUB = "export function hub(x: number): number {\n  return x + 1;\n}\n";
const RETYPED = "export function hub(x: string): string {\n  return `${x}!`;\n}\n";
/** The retyped hub with an error of its own. */
const RETYPED_BROKEN = `${RETYPED}export const broken: number = "no";\n`;

function project(pendingAfterMs: number, options: Record<string, unknown> = {}): string {
  const files: Record<string, string> = {
    "package.json": JSON.stringify({ name: "named-first", private: true, type: "module" }),
    "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, noEmit: true, module: "nodenext", ...options }, include: ["src"] }),
    "signalint.config.json": JSON.stringify({ engines: { oxlint: false }, pendingAfterMs }),
    "src/hub.ts": HUB,
  };
  for (let index = 0; index < DEPENDENTS; index++)
    files[`src/use${index}.ts`] = `import { hub } from "./hub.js";\n\nexport const value${index} = hub(${index});\n`;
  const dir = projectFrom(files);
  linkBin(dir, "tsc", join(REPO, "node_modules", "typescript", "bin", "tsc"));
  return dir;
}

const keyOf = (issue: Pick<CheckIssue, "file" | "line" | "col" | "rule">) => `${issue.file}:${issue.line}:${issue.col} ${issue.rule}`;

/** The delta's introduced issues as the project's own tsc names them (the project was clean before the edit). */
function introducedKeys(check: Check): string[] {
  const delta = check.delta as Delta;
  assert.ok(delta && "introduced" in delta, JSON.stringify(check.delta));
  return delta.introduced.map(keyOf).sort();
}

describe("the named files first, the rest pending", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  it("after_edit_check past its budget answers the edited file, pending; the same call again is complete and equals a cold tsc", async () => {
    const dir = project(0);
    dirs.push(dir);
    const session = await connect(dir);
    try {
      const first = structured<Check>(await call(session.client, "check_project"));
      assert.equal(first.status, "clean", JSON.stringify(first));
      writeFileSync(join(dir, "src", "hub.ts"), RETYPED_BROKEN);
      const named = structured<Check>(await call(session.client, "after_edit_check", { files: ["src/hub.ts"] }));
      assert.equal(named.status, "issues_found", JSON.stringify(named));
      assert.equal(named.pending?.programs, 1, JSON.stringify(named));
      assert.equal(named.pending?.files, DEPENDENTS, "every other file of the program may be affected");
      assert.match(named.nextStep ?? "", /same tool again/);
      assert.equal(named.elsewhere, undefined, "nothing is said of files not re-checked yet");
      // The project's own tsc on the edited tree (which does not change again in this case).
      const cold = rawTscKeys(dir, ["tsconfig.json"]);
      const hubErrors = cold.filter((key) => key.startsWith("src/hub.ts:"));
      assert.deepEqual(introducedKeys(named), hubErrors, "the edited file's answer is complete");
      // The delta covers the named files only: it says so, so "+1" is never read as the edit's whole effect.
      const left = (named.delta as Delta).notCompared ?? [];
      assert.ok(
        left.some((note) => note.reason === "not_checked" && note.engine === "tsc" && /40 more files .*not compared yet/.test(note.message)),
        JSON.stringify(left),
      );
      const complete = structured<Check>(await call(session.client, "after_edit_check", { files: ["src/hub.ts"] }));
      assert.equal(complete.pending, undefined, JSON.stringify(complete));
      assert.equal(complete.status, "issues_found");
      assert.equal(cold.length, DEPENDENTS + 1);
      // Compared with the check before the edit (a pending check is never a baseline): everything the edit broke.
      assert.deepEqual(introducedKeys(complete), cold);
      assert.equal((complete.delta as Delta).notCompared, undefined, "the complete delta leaves nothing out");
      assert.equal(complete.elsewhere?.introduced, DEPENDENTS);
    } finally {
      await session.close();
    }
  });

  it("check_files with nothing wrong in the named file is pending, never clean; the hook says what may be affected; the follow-up reuses the re-check", async () => {
    const dir = project(0);
    dirs.push(dir);
    const session = await connect(dir);
    try {
      assert.equal(structured<Check>(await call(session.client, "check_project")).status, "clean");
      writeFileSync(join(dir, "src", "hub.ts"), RETYPED);
      const named = structured<Check>(await call(session.client, "check_files", { files: ["src/hub.ts"] }));
      assert.equal(named.status, "pending", JSON.stringify(named));
      assert.equal(named.totalIssues, 0);
      assert.equal(named.pending?.files, DEPENDENTS);
      assert.match(
        named.nextStep ?? "",
        /^The named files' answer is complete; 1 tsc program \(40 more files this change may affect\) is still being re-checked/,
      );
      const hook = hookReport({ files: ["src/hub.ts"], response: named, issues: [], delta: null, failOn: "error", switches: {} });
      assert.equal(hook.exitCode, 1, hook.lines.join("\n"));
      assert.match(hook.lines[0] ?? "", /no errors in the edited files; the files they may affect are not re-checked yet/);
      assert.ok(
        hook.lines.some((line) => line.startsWith(`${DEPENDENTS} more files may be affected`) && line.includes("signalint-mcp check")),
        hook.lines.join("\n"),
      );
      const complete = structured<Check>(await call(session.client, "check_files", { files: ["src/hub.ts"] }));
      assert.equal(complete.status, "issues_found", JSON.stringify(complete));
      assert.equal(complete.pending, undefined);
      assert.equal(complete.elsewhere?.introduced, DEPENDENTS);
      // The program's re-check went on after the first answer; this one asked it only for what it found.
      assert.equal(complete.cache?.tsc?.mode, "warm-reused", JSON.stringify(complete.cache));
    } finally {
      await session.close();
    }
  });

  it("within its budget, after_edit_check answers whole at once", async () => {
    const dir = project(600_000);
    dirs.push(dir);
    const session = await connect(dir);
    try {
      assert.equal(structured<Check>(await call(session.client, "check_project")).status, "clean");
      writeFileSync(join(dir, "src", "hub.ts"), RETYPED_BROKEN);
      const complete = structured<Check>(await call(session.client, "after_edit_check", { files: ["src/hub.ts"] }));
      assert.equal(complete.pending, undefined, JSON.stringify(complete));
      assert.deepEqual(introducedKeys(complete), rawTscKeys(dir, ["tsconfig.json"]));
    } finally {
      await session.close();
    }
  });

  it("the editor hook on the project's daemon prints the pending line (exit 1), then the importers' errors (exit 2)", () => {
    const dir = project(0);
    const state = tempDir("signalint-state-");
    dirs.push(dir, state);
    const env = { PATH: CLEAN_PATH, HOME: process.env.HOME ?? "", XDG_STATE_HOME: STATE_HOME, SIGNALINT_DAEMON: "1", SIGNALINT_STATE_DIR: state };
    const hook = () =>
      spawnSync(process.execPath, [BUNDLE, "hook"], {
        cwd: dir,
        env: { ...env, SIGNALINT_PREWARM_DELAY_MS: "off" },
        input: JSON.stringify({ cwd: dir, tool_input: { file_path: join(dir, "src", "hub.ts") } }),
        encoding: "utf8",
      });
    try {
      const whole = runCli(["check"], { cwd: dir, env });
      assert.equal(whole.status, 0, whole.stderr);
      writeFileSync(join(dir, "src", "hub.ts"), RETYPED);
      const first = hook();
      assert.equal(first.status, 1, first.stderr);
      assert.match(
        first.stderr,
        new RegExp(`${DEPENDENTS} more files may be affected \\(tsc is still re-checking their program\\): run \`signalint-mcp check\``),
      );
      const again = hook();
      assert.equal(again.status, 2, again.stderr);
      assert.match(again.stderr, /src\/use\d+\.ts:3:\d+ error TS2345/);
      assert.doesNotMatch(again.stderr, /may be affected/);
    } finally {
      const stop = runCli(["daemon", "stop"], { cwd: dir, env });
      assert.equal(stop.status, 0, stop.stderr);
    }
  });
  it("apply_diagnostic_fix's verified post-check is whole whatever the budget: a fix that breaks the importers is rolled back", async () => {
    const dir = project(0);
    dirs.push(dir);
    const session = await connect(dir);
    try {
      assert.equal(structured<Check>(await call(session.client, "check_project")).status, "clean");
      // The retyped hub is itself clean: only its importers break, so a named-files-first answer would see nothing.
      const patches = [{ file: "src/hub.ts", originalContent: HUB, patchedContent: RETYPED }];
      const { transactionId } = structured<{ transactionId: string }>(await call(session.client, "preview_diagnostic_fix", { patches }));
      const applied = structured<{ rolledBack?: boolean; rollback?: { introduced: CheckIssue[] }; check: Check }>(
        await call(session.client, "apply_diagnostic_fix", { transactionId, confirm: true, verify: true }),
      );
      assert.equal(applied.rolledBack, true, JSON.stringify(applied).slice(0, 2000));
      assert.equal(applied.rollback?.introduced.length, DEPENDENTS, "every importer's error, as a cold tsc reports them");
      assert.equal(readFileSync(join(dir, "src", "hub.ts"), "utf8"), HUB, "the hub is restored");
      assert.equal(applied.check.pending, undefined, "the check of the restored files is whole too");
      assert.equal(applied.check.status, "clean", JSON.stringify(applied.check).slice(0, 2000));
    } finally {
      await session.close();
    }
  });
  it("a pending check named as a verified fix's baseline is replaced by a whole one: a good fix of the hub is kept though its importers broke before it", async () => {
    const dir = project(0);
    dirs.push(dir);
    const session = await connect(dir);
    try {
      assert.equal(structured<Check>(await call(session.client, "check_project")).status, "clean");
      writeFileSync(join(dir, "src", "hub.ts"), RETYPED_BROKEN);
      const pending = structured<Check>(await call(session.client, "after_edit_check", { files: ["src/hub.ts"] }));
      assert.ok(pending.pending, JSON.stringify(pending));
      // The fix removes the hub's own error; the importers' errors came with the retype, before this baseline.
      const patches = [{ file: "src/hub.ts", originalContent: RETYPED_BROKEN, patchedContent: RETYPED }];
      const { transactionId } = structured<{ transactionId: string }>(await call(session.client, "preview_diagnostic_fix", { patches }));
      const applied = structured<{ rolledBack?: boolean; check: Check; delta: Delta }>(
        await call(session.client, "apply_diagnostic_fix", { transactionId, confirm: true, verify: true, baselineCheckId: pending.checkId }),
      );
      assert.equal(applied.rolledBack, undefined, JSON.stringify(applied).slice(0, 2000));
      assert.equal(readFileSync(join(dir, "src", "hub.ts"), "utf8"), RETYPED, "the fix is kept");
      assert.deepEqual(applied.delta.introduced, [], "nothing the fix did is new");
      assert.deepEqual(applied.delta.resolved.map(keyOf), ["src/hub.ts:4:14 TS2322"]);
      assert.equal(applied.check.elsewhere?.introduced, DEPENDENTS, "the importers' errors are still said");
    } finally {
      await session.close();
    }
  });

  it("after_edit_check against a named pending baseline compares what it covered and says the rest was not compared", async () => {
    const dir = project(0);
    dirs.push(dir);
    const session = await connect(dir);
    try {
      assert.equal(structured<Check>(await call(session.client, "check_project")).status, "clean");
      writeFileSync(join(dir, "src", "hub.ts"), RETYPED_BROKEN);
      const pending = structured<Check>(await call(session.client, "after_edit_check", { files: ["src/hub.ts"] }));
      assert.ok(pending.pending, JSON.stringify(pending));
      writeFileSync(join(dir, "src", "hub.ts"), RETYPED);
      const ask = async () => structured<Check>(await call(session.client, "after_edit_check", { files: ["src/hub.ts"], baselineCheckId: pending.checkId }));
      // The first answer may be pending again (the edit reaches every importer); the same call again is complete.
      const first = await ask();
      const complete = first.pending ? await ask() : first;
      assert.equal(complete.pending, undefined, JSON.stringify(complete));
      const delta = complete.delta as Delta;
      assert.deepEqual(delta.introduced, [], "the importers' errors are not blamed on this edit: the baseline never re-checked them");
      assert.deepEqual(delta.resolved.map(keyOf), ["src/hub.ts:4:14 TS2322"]);
      assert.ok(
        delta.notCompared?.some((note) => note.reason === "outside_baseline" && note.message.includes(pending.checkId)),
        JSON.stringify(delta.notCompared),
      );
      assert.equal(complete.elsewhere?.introduced, DEPENDENTS, "the errors elsewhere are still reported");
    } finally {
      await session.close();
    }
  });
  it("an engine fix previewed from a pending check is verified against a whole one: removing the hub's unused constant is kept", async () => {
    const dir = project(0, { noUnusedLocals: true });
    dirs.push(dir);
    const session = await connect(dir);
    try {
      assert.equal(structured<Check>(await call(session.client, "check_project")).status, "clean");
      writeFileSync(join(dir, "src", "hub.ts"), `${RETYPED}const spare = 1;\n`);
      const pending = structured<Check>(await call(session.client, "after_edit_check", { files: ["src/hub.ts"] }));
      assert.ok(pending.pending, JSON.stringify(pending));
      const snapshot = structured<{ issues: CheckIssue[] }>(await call(session.client, "get_diagnostic_snapshot", { checkId: pending.checkId }));
      const unused = snapshot.issues.find((issue) => issue.rule === "TS6133");
      assert.ok(unused, JSON.stringify(snapshot.issues));
      const preview = structured<{ transactionId: string }>(
        await call(session.client, "preview_diagnostic_fix", { issueIds: [unused.issueId], checkId: pending.checkId }),
      );
      // Verified by default (an engine fix); the importers' errors came with the retype, before the fix.
      const applied = structured<{ rolledBack?: boolean; delta: Delta }>(
        await call(session.client, "apply_diagnostic_fix", { transactionId: preview.transactionId, confirm: true }),
      );
      assert.equal(applied.rolledBack, undefined, JSON.stringify(applied).slice(0, 2000));
      assert.equal(readFileSync(join(dir, "src", "hub.ts"), "utf8"), RETYPED, "the fix is kept");
      assert.deepEqual(applied.delta.introduced, []);
      assert.deepEqual(applied.delta.resolved.map(keyOf), ["src/hub.ts:4:7 TS6133"]);
    } finally {
      await session.close();
    }
  });
  it("a fix verified against a named pending baseline that breaks the importers is rolled back: the verdict rests on a whole check", async () => {
    const dir = project(0);
    dirs.push(dir);
    const session = await connect(dir);
    try {
      assert.equal(structured<Check>(await call(session.client, "check_project")).status, "clean");
      const broken = `${HUB}export const broken: number = "no";\n`;
      writeFileSync(join(dir, "src", "hub.ts"), broken);
      const pending = structured<Check>(await call(session.client, "after_edit_check", { files: ["src/hub.ts"] }));
      assert.ok(pending.pending, JSON.stringify(pending));
      // It removes the hub's own error and retypes it: every importer breaks, which the pending check never looked at.
      const patches = [{ file: "src/hub.ts", originalContent: broken, patchedContent: RETYPED }];
      const { transactionId } = structured<{ transactionId: string }>(await call(session.client, "preview_diagnostic_fix", { patches }));
      const applied = structured<{ rolledBack?: boolean; rollback?: { introduced: CheckIssue[] } }>(
        await call(session.client, "apply_diagnostic_fix", { transactionId, confirm: true, verify: true, baselineCheckId: pending.checkId }),
      );
      assert.equal(applied.rolledBack, true, JSON.stringify(applied).slice(0, 2000));
      assert.equal(applied.rollback?.introduced.length, DEPENDENTS);
      assert.equal(readFileSync(join(dir, "src", "hub.ts"), "utf8"), broken, "the hub is restored");
    } finally {
      await session.close();
    }
  });
});
