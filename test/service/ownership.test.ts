import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, it } from "node:test";
import { createNodeRuntime } from "../../src/runtime/node.ts";
import { ownershipLock, releaseOwnership, takeOwnership } from "../../src/service/project/ownership.ts";
import { SignalintService } from "../../src/service/signalint.ts";
import { BUNDLE, removeDir, runCli, scratchCopy, tempDir } from "../helpers.ts";

const runtime = createNodeRuntime({ selfScript: BUNDLE });
const dirs: string[] = [];

/** The lock a process writes: its pid (all an earlier version reads), then JSON of its pid and OS start time. */
const lockOf = async (pid: number) => `${pid}\n${JSON.stringify({ pid, startTime: (await runtime.processIdentity(pid))?.startTime ?? null })}\n`;
after(() => dirs.forEach(removeDir));

it("a second writer keeps its history in a private directory, removed when it exits; the owner's lock stays", async () => {
  const root = scratchCopy("clean", "ownership-two");
  dirs.push(root);
  const owner = await SignalintService.create(runtime, { root });
  assert.equal(owner.project.owned, true);
  const { stateDir } = owner.project;
  // Another process (the CLI, no daemon) finds the lock held by this live one.
  const second = runCli(["check"], { cwd: root, env: { SIGNALINT_STATE_DIR: stateDir } });
  assert.equal(second.status, 0, second.stderr);
  const privateDir = /keeps its history in (\S+)/.exec(second.stderr)?.[1];
  assert.ok(privateDir && privateDir !== stateDir, second.stderr);
  assert.equal(existsSync(privateDir), false, "the private state directory is gone");
  assert.equal(readFileSync(ownershipLock(stateDir), "utf8"), await lockOf(runtime.pid), "the owner still holds its lock");
  await owner.close();
  assert.equal(existsSync(ownershipLock(stateDir)), false, "the owner's close frees the lock");
});

it("a process deemed gone never frees the lock of the one that replaced it", async () => {
  const stateDir = tempDir("ownership-lock-");
  dirs.push(stateDir);
  assert.equal(await takeOwnership(runtime, stateDir, runtime.pid), null);
  // Another live process took over (a lock naming our parent, which is alive): releasing as ourselves keeps it.
  writeFileSync(ownershipLock(stateDir), await lockOf(process.ppid));
  await releaseOwnership(runtime, stateDir, runtime.pid);
  assert.equal(readFileSync(ownershipLock(stateDir), "utf8"), await lockOf(process.ppid));
  assert.equal(await takeOwnership(runtime, stateDir, runtime.pid), process.ppid, "the live holder keeps it");
});

it("a lock just created, its pid not yet written, is not taken over; one left without a pid long ago is", async () => {
  const stateDir = tempDir("ownership-unwritten-");
  dirs.push(stateDir);
  const lock = ownershipLock(stateDir);
  // Another process between creating the lock (O_EXCL) and writing its pid into it.
  writeFileSync(lock, "");
  assert.equal(await takeOwnership(runtime, stateDir, runtime.pid), -1);
  assert.equal(readFileSync(lock, "utf8"), "", "the fresh lock stays its creator's");
  // A crash between the two left it empty: after a while it is free.
  const past = new Date(Date.now() - 60_000);
  utimesSync(lock, past, past);
  assert.equal(await takeOwnership(runtime, stateDir, runtime.pid), null);
  assert.equal(readFileSync(lock, "utf8"), await lockOf(runtime.pid));
});

it("a lock holds only while its pid is the process that wrote it (pid and OS start time)", {
  skip: process.platform === "linux" ? false : "reads /proc",
}, async () => {
  const stateDir = tempDir("ownership-identity-");
  dirs.push(stateDir);
  const lock = ownershipLock(stateDir);
  const live = spawn(process.execPath, ["-e", "setInterval(() => {}, 1e9)", "signalint"], { stdio: "ignore" });
  const unrelated = spawn(process.execPath, ["-e", "setInterval(() => {}, 1e9)"], { stdio: "ignore" });
  after(() => [live, unrelated].forEach((child) => child.kill("SIGKILL")));
  await Promise.all([live, unrelated].map((child) => new Promise((resolve) => child.once("spawn", resolve))));
  const cases: [string, string, number | null][] = [
    ["its writer, alive", await lockOf(live.pid as number), live.pid as number],
    ["a reused pid or a copied lock: alive, another start time", `${live.pid}\n${JSON.stringify({ pid: live.pid, startTime: "1" })}\n`, null],
    ["an earlier version's plain pid of a Signalint process", String(live.pid), live.pid as number],
    ["an earlier version's plain pid of an unrelated live process", String(unrelated.pid), null],
  ];
  for (const [label, content, holder] of cases) {
    writeFileSync(lock, content);
    assert.equal(await takeOwnership(runtime, stateDir, runtime.pid), holder, label);
    if (holder === null) assert.equal(readFileSync(lock, "utf8"), await lockOf(runtime.pid), label);
    await releaseOwnership(runtime, stateDir, runtime.pid);
  }
  assert.ok(!live.killed && !unrelated.killed && live.exitCode === null && unrelated.exitCode === null, "neither was signalled");
});
