// Issue 20 §5 end to end: two MCP sessions (SDK clients on spawned fronts) share one daemon. Session A's check hangs
// in its linter; A receives progress notifications from the daemon's check, session B's concurrent check completes
// with the project's answer meanwhile, and cancelling A's request kills A's engine (and its grandchild) and nothing
// else: B, the daemon and A's session keep serving.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, it } from "node:test";
import { readDaemonRecord } from "../../src/daemon/record.ts";
import { createNodeRuntime } from "../../src/runtime/node.ts";
import type { CheckResponse } from "../../src/core/contracts.ts";
import {
  call,
  connect,
  everyIssue,
  fixture,
  lateProgress,
  linkBin,
  REPO,
  removeDir,
  runCli,
  scratchCopy,
  structured,
  tempDir,
  type Connected,
} from "../helpers.ts";
import { engineRunning, isWarmHost, isWatchdog, killMarked, marked, survivors } from "../e2e/lifetime-cases.ts";

const runtime = createNodeRuntime();
let project: string;
let marker: string;
let stateDir: string;
let env: Record<string, string>;

before(() => {
  project = scratchCopy("sparse", "daemon-cancel");
  stateDir = tempDir("signalint-state-");
  marker = join(project, "pids.txt");
  linkBin(project, "oxlint", fixture("fault-engines/hang-on.cjs"));
  // Only a kill ends the hanging linter: its timeout is far longer than the test.
  writeFileSync(join(project, "signalint.config.json"), JSON.stringify({ timeoutsMs: { oxlint: 600_000 } }));
  env = {
    SIGNALINT_STATE_DIR: stateDir,
    SIGNALINT_FAULT_PIDS: marker,
    SIGNALINT_FAULT_HANG_FILE: "src/util.ts",
    REAL_OXLINT: join(REPO, "node_modules", "oxlint", "bin", "oxlint"),
  };
});

after(async () => {
  const record = await readDaemonRecord(runtime, stateDir);
  if (record) runtime.daemon?.kill(record.pid, "SIGKILL");
  killMarked(marker);
  removeDir(project);
});

const keys = (issues: readonly { file: string; line: number; engine: string; rule: string }[]) =>
  issues.map((issue) => `${issue.file}:${issue.line} ${issue.engine} ${issue.rule}`).sort();

it("progress reaches the session whose check the daemon runs; cancelling it stops only that check", async () => {
  // The answer for src/index.ts as a run without a daemon gives it (its own state directory).
  const reference = JSON.parse(
    runCli(["check", "src/index.ts", "--format", "json"], { cwd: project, env: { ...env, SIGNALINT_STATE_DIR: join(project, ".ref") } }).stdout,
  );
  assert.ok(reference.issues.length > 0);
  const daemonEnv = { ...env, SIGNALINT_DAEMON: "1" };
  const a: Connected = await connect(project, daemonEnv);
  const b: Connected = await connect(project, daemonEnv);
  try {
    // tools/list does not wait for the daemon: each session says it reached it once it has.
    await a.stderrMatching(/through the project's daemon/);
    await b.stderrMatching(/through the project's daemon/);
    const daemonPid = (await readDaemonRecord(runtime, env.SIGNALINT_STATE_DIR as string))?.pid;
    assert.ok(daemonPid);
    const controller = new AbortController();
    const progressA: string[] = [];
    let progressed: () => void = () => {};
    const firstProgress = new Promise<void>((resolve) => (progressed = resolve));
    let settledA = false;
    const checkingA = a.client
      .callTool({ name: "check_files", arguments: { files: ["src/util.ts"] } }, undefined, {
        signal: controller.signal,
        onprogress: ({ message }) => {
          progressA.push(message ?? "");
          progressed();
        },
      })
      .finally(() => (settledA = true));
    const rejected = assert.rejects(checkingA, /abort/i);
    await firstProgress;
    assert.match(progressA[0] as string, /^(oxlint|tsc) started$/);
    const running = await engineRunning(marker);
    // Both carry the marker, so the count after the cancellation sees them.
    assert.deepEqual(
      marked(marker)
        .map(({ pid }) => pid)
        .filter((pid) => running.includes(pid))
        .sort(),
      [...running].sort(),
    );
    // Session B checks another file meanwhile: answered in full while A's linter still hangs.
    const progressB: string[] = [];
    const errorsB: string[] = [];
    b.client.onerror = (error) => errorsB.push(error.message);
    const answerB = structured<CheckResponse>(
      (await b.client.callTool({ name: "check_files", arguments: { files: ["src/index.ts"] } }, undefined, {
        onprogress: ({ message }) => void progressB.push(message ?? ""),
      })) as never,
    );
    assert.equal(settledA, false, "A's check is still running");
    assert.deepEqual(keys(await everyIssue(b, answerB)), keys(reference.issues));
    // Events within 100 ms of each other are coalesced (the newer replaces the older); a check's last is always sent,
    // though the SDK client may report it as late (lateProgress).
    const receivedB = [...progressB, ...lateProgress(errorsB).map(({ message }) => message ?? "")];
    assert.match(receivedB.at(-1) ?? "", /^(oxlint|tsc) finished \(ok/, JSON.stringify(receivedB));
    controller.abort();
    await rejected;
    // A's engine and its grandchild are gone; the daemon, both fronts, the watchdog and warm hosts stay.
    const keep = new Set([daemonPid, a.pid, b.pid]);
    const { left } = await survivors(marker, 10_000, ({ pid, cmdline }) => keep.has(pid) || isWatchdog(cmdline) || isWarmHost(cmdline));
    assert.deepEqual(left, [], "no engine of the cancelled check is left");
    assert.equal(runtime.processAlive(daemonPid), true, "the daemon keeps running");
    // A's session goes on: its next check is answered, as B's was.
    const again = structured<CheckResponse>(await call(a.client, "check_files", { files: ["src/index.ts"] }));
    assert.deepEqual(keys(await everyIssue(a, again)), keys(reference.issues));
  } finally {
    await a.close();
    await b.close();
  }
});
