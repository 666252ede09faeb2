// Issue 31 §5: faults answer, never crash the daemon. A stray rejection and a stray exception (made by a real preload
// script in the daemon process, not by a hook in Signalint) are reported and the daemon serves on, then cleans up on
// SIGTERM; an answer too large for a frame is an `answer_too_large` error to that call, and the daemon answers after it;
// an unwritable cache directory sends the daemon's log to a private temporary directory instead of ending the client.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { after, describe, it } from "node:test";
import { connectDaemon, DaemonConnection } from "../../src/client/connection.ts";
import { SignalintError } from "../../src/core/errors.ts";
import { DAEMON_MODE } from "../../src/daemon/protocol.ts";
import { readDaemonRecord, recordFile } from "../../src/daemon/record.ts";
import { createNodeRuntime } from "../../src/runtime/node.ts";
import type { DaemonSupport } from "../../src/runtime/types.ts";
import { ownershipLock } from "../../src/service/project/ownership.ts";
import { openProject, type Project } from "../../src/service/project/project.ts";
import { BUNDLE, CLEAN_PATH, removeDir, runCli, scratchCopy, tempDir } from "../helpers.ts";

const runtime = createNodeRuntime({ selfScript: BUNDLE });
const support = runtime.daemon as DaemonSupport;
const projects: Project[] = [];
const cleanups: (() => void)[] = [];

after(async () => {
  for (const cleanup of cleanups) cleanup();
  for (const project of projects) {
    const record = await readDaemonRecord(runtime, project.stateDir);
    if (record) support.kill(record.pid, "SIGKILL");
    removeDir(project.root);
  }
});

async function project(label: string): Promise<Project> {
  const root = scratchCopy("sparse", label);
  const opened = await openProject(runtime, { root, prepareState: true });
  projects.push(opened);
  return opened;
}

function connected(outcome: Awaited<ReturnType<typeof connectDaemon>>): DaemonConnection {
  assert.ok(outcome instanceof DaemonConnection, `no daemon: ${"reason" in outcome ? outcome.reason : ""}`);
  return outcome;
}

/** A preload that makes a stray rejection and a stray exception as soon as the daemon has announced it is ready. */
const STRAY_PRELOAD = `
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => {
  const result = write(chunk, ...rest);
  if (String(chunk).startsWith("ready ")) {
    Promise.reject(new Error("a stray rejection nobody awaited"));
    setImmediate(() => { throw new Error("a stray exception in a callback"); });
  }
  return result;
};
`;

describe("the daemon answers faults and lives on", () => {
  it("a stray rejection and a stray exception are reported; the daemon serves on, and SIGTERM still removes its socket, record and lock", {
    timeout: 120_000,
  }, async () => {
    const proj = await project("stray-daemon");
    const preload = join(tempDir("signalint-preload-"), "stray.mjs");
    writeFileSync(preload, STRAY_PRELOAD);
    const child = spawn(process.execPath, ["--import", pathToFileURL(preload).href, BUNDLE, DAEMON_MODE], {
      cwd: proj.root,
      env: {
        PATH: CLEAN_PATH,
        HOME: process.env.HOME ?? "",
        SIGNALINT_PROJECT_ROOT: proj.root,
        SIGNALINT_STATE_DIR: proj.stateDir,
        SIGNALINT_CACHE_DIR: tempDir(),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    const reported = new Promise<void>((resolve) =>
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes("a stray rejection") && stderr.includes("a stray exception")) resolve();
      }),
    );
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const ready = await new Promise<string>((resolve) => child.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString())));
    assert.match(ready, /^ready /);
    await Promise.race([reported, exited]);
    assert.match(stderr, /signalint: unexpected error \(the daemon keeps running\): Error: a stray rejection nobody awaited/);
    assert.match(stderr, /signalint: unexpected error \(the daemon keeps running\): Error: a stray exception in a callback/);
    // The same daemon answers (a dead one would have been replaced by a new one with another pid).
    const client = connected(await connectDaemon(runtime, support, proj));
    assert.equal(client.welcome.pid, child.pid);
    const check = await client.api.check({ paths: ["."], incremental: false });
    assert.equal(check.response.engines.tsc.status, "ok");
    client.close();
    const socket = (await readDaemonRecord(runtime, proj.stateDir))?.socket as string;
    assert.ok(existsSync(socket));
    child.kill("SIGTERM");
    assert.equal(await exited, 0);
    assert.equal(existsSync(socket), false, "its socket is removed");
    assert.equal(existsSync(recordFile(proj.stateDir)), false, "its record is removed");
    assert.equal(existsSync(ownershipLock(proj.stateDir)), false, "its lock is released");
  });

  it("an answer too large for a frame is an answer_too_large error to that call; the daemon answers the next call", { timeout: 120_000 }, async () => {
    const proj = await project("oversize-answer");
    const client = connected(await connectDaemon(runtime, support, proj));
    const pid = client.welcome.pid;
    // 50 MiB of JSON fits a request frame (64 MiB); read back in one chunk it is 67 MiB of base64, over the bound.
    const artifactId = await client.api.saveArtifact({ json: JSON.stringify("x".repeat(50 * 1024 * 1024)) });
    await assert.rejects(
      client.api.readArtifact({ artifactId, offset: 0, maxBytes: 1024 * 1024 * 1024 }),
      (error: unknown) => error instanceof SignalintError && error.code === "answer_too_large" && /too large to send/.test(error.message),
    );
    const chunk = await client.api.readArtifact({ artifactId, offset: 0, maxBytes: 1024 });
    assert.equal(chunk.totalBytes, 50 * 1024 * 1024 + 2);
    const info = await client.api.info();
    assert.equal(info.pid, pid, "the same daemon answers");
    assert.equal((await readDaemonRecord(runtime, proj.stateDir))?.pid, pid, "its record is left in place");
    client.close();
  });
});

/** Make a directory unwritable for this user: mode 0500, and for root (who ignores modes) immutable; null: cannot. */
function lockDir(dir: string): (() => void) | null {
  chmodSync(dir, 0o500);
  if (process.getuid?.() !== 0) return () => chmodSync(dir, 0o700);
  if (spawnSync("chattr", ["+i", dir]).status !== 0) return null;
  return () => {
    spawnSync("chattr", ["-i", dir]);
    chmodSync(dir, 0o700);
  };
}

const keys = (stdout: string) =>
  (JSON.parse(stdout) as { issues: { file: string; line: number; rule: string }[] }).issues.map((issue) => `${issue.file}:${issue.line} ${issue.rule}`);

describe("an unwritable cache directory (a read-only HOME)", { skip: process.platform === "linux" ? false : "chattr / modes" }, () => {
  it("a check asking for the daemon still gets one, whose log goes to a private temporary directory, with one notice", async (t) => {
    const proj = await project("readonly-cache");
    const cache = tempDir("signalint-locked-cache-");
    const unlock = lockDir(cache);
    if (!unlock) return t.skip("cannot make an unwritable directory here");
    cleanups.push(unlock);
    const reference = runCli(["check", "--format", "json"], { cwd: proj.root });
    const env = { SIGNALINT_DAEMON: "1", SIGNALINT_CACHE_DIR: cache, SIGNALINT_STATE_DIR: proj.stateDir };
    const run = runCli(["check", "--format", "json"], { cwd: proj.root, env });
    assert.equal(run.status, 1, run.stderr);
    assert.deepEqual(keys(run.stdout), keys(reference.stdout));
    const notices = run.stderr.split("\n").filter((line) => line.startsWith("signalint:"));
    assert.equal(notices.length, 1, run.stderr);
    const notice = /^signalint: the cache directory .* is not writable \(.*\); the daemon logs to (\/.*\/daemon\.log)$/.exec(notices[0] as string);
    assert.ok(notice, notices[0]);
    const record = await readDaemonRecord(runtime, proj.stateDir);
    assert.ok(record && runtime.processAlive(record.pid), "the check was answered by a daemon");
    const log = notice[1] as string;
    assert.equal(statSync(join(log, "..")).mode & 0o777, 0o700, "a private directory");
    assert.ok(existsSync(log));
    cleanups.push(() => removeDir(join(log, "..")));
  });
});
