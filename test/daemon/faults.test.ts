// Issue 20 §6: where no daemon can run — its socket cannot be bound (a path over the OS limit; EPERM), the state
// directory is not writable, the disk is full — a client asking for one checks in this process, says so in one line,
// and answers exactly as a run without a daemon. Real conditions: a long TMPDIR, an immutable socket directory
// (`chattr +i`; mode 0500 where the tests do not run as root, which ignores modes), a full tmpfs.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { DAEMON_MODE } from "../../src/daemon/protocol.ts";
import { recordFile } from "../../src/daemon/record.ts";
import { removeDir, runCli, scratchCopy, tempDir } from "../helpers.ts";
import { hostProcesses } from "../helpers/processes.ts";
import { skipUnless } from "../helpers/skips.ts";

const uid = process.getuid?.() ?? 0;
const root = uid === 0;
const linux = process.platform === "linux";

/** Make a directory unwritable for this user: mode 0500, and for root (who ignores modes) immutable. */
function lockDir(dir: string): (() => void) | null {
  chmodSync(dir, 0o500);
  if (!root) return () => chmodSync(dir, 0o700);
  if (spawnSync("chattr", ["+i", dir]).status !== 0) return null;
  return () => {
    spawnSync("chattr", ["-i", dir]);
    chmodSync(dir, 0o700);
  };
}

/** Whether this machine lets the tests make an immutable directory (root) or honours modes (anyone else). */
const canLock = (() => {
  if (!linux) return false;
  const probe = tempDir("signalint-lock-probe-");
  const unlock = lockDir(probe);
  unlock?.();
  return unlock !== null;
})();

/** Whether a small tmpfs can be mounted here (root, and a kernel and container that allow it). */
const canMount = (() => {
  if (!linux || !root) return false;
  const probe = tempDir("signalint-mount-probe-");
  if (spawnSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", probe]).status !== 0) return false;
  spawnSync("umount", [probe]);
  return true;
})();

const projects: string[] = [];
const cleanups: (() => void)[] = [];
after(() => {
  for (const cleanup of cleanups.reverse()) cleanup();
  projects.forEach(removeDir);
});

interface Report {
  issues: { file: string; line: number; rule: string; engine: string }[];
  engines: Record<string, { status: string }>;
}
const keys = (report: Report) => report.issues.map((issue) => `${issue.file}:${issue.line} ${issue.engine} ${issue.rule}`);

/** The reference answer, from the first copy checked: every copy is of the same fixture, and its keys are relative. */
let referenceKeys: string[] | undefined;

/** A fresh copy of the project, and its check as a run without a daemon answers it (the answer every fallback must give). */
function projectWithReference(label: string): { project: string; expected: string[] } {
  const project = scratchCopy("sparse", label);
  projects.push(project);
  if (!referenceKeys) {
    const reference = JSON.parse(runCli(["check", "--format", "json"], { cwd: project }).stdout) as Report;
    assert.equal(reference.engines.tsc?.status, "ok");
    assert.ok(reference.issues.length > 0);
    referenceKeys = keys(reference);
  }
  return { project, expected: referenceKeys };
}

/** No daemon process of this project is left (a daemon that could not serve exits at once; polled: not our child). */
async function noDaemonIn(project: string): Promise<boolean> {
  const deadline = Date.now() + 10_000;
  const daemons = () => hostProcesses((entry) => entry.argv.includes(DAEMON_MODE) && entry.cwd() === project);
  while (daemons().length > 0) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

/**
 * A CLI check that asks for the daemon (SIGNALINT_DAEMON=1) under `env`: one notice line naming `reason`, the
 * reference answer, no daemon record and no daemon process left.
 */
async function assertFallsBack(project: string, expected: string[], env: Record<string, string>, reason: RegExp): Promise<void> {
  const stateDir = env.SIGNALINT_STATE_DIR ?? join(project, ".signalint");
  const result = runCli(["check", "--format", "json"], {
    cwd: project,
    env: { SIGNALINT_DAEMON: "1", SIGNALINT_CACHE_DIR: tempDir("signalint-cache-"), SIGNALINT_STATE_DIR: stateDir, ...env },
  });
  const notices = result.stderr.split("\n").filter((line) => line.includes("no daemon for"));
  assert.equal(notices.length, 1, result.stderr);
  assert.match(notices[0] as string, new RegExp(`^signalint: no daemon for ${project} \\(.*${reason.source}.*\\); checking in this process$`));
  assert.equal(result.status, 1, "the project's error is reported (exit 1)");
  assert.deepEqual(keys(JSON.parse(result.stdout) as Report), expected);
  assert.equal(existsSync(recordFile(stateDir)), false, "no daemon record");
  assert.ok(await noDaemonIn(project), "no daemon process is left");
}

describe("no daemon where it cannot run: in-process, one notice, the same answer", {
  skip: skipUnless(linux, "counts processes through /proc", "ci-must-run"),
}, () => {
  it("a socket path over the OS limit (a long TMPDIR) is refused before anything is bound", async () => {
    const { project, expected } = projectWithReference("fault-long-socket");
    // The socket goes to <TMPDIR>/signalint-<uid>/<20 hex>-<pid>.sock: with this TMPDIR it is well over 107 bytes.
    const longTmp = join(tempDir("signalint-long-"), "t".repeat(100));
    mkdirSync(longTmp, { recursive: true });
    await assertFallsBack(project, expected, { TMPDIR: longTmp }, /the socket path .* bytes, over the OS limit/);
    // Node would have bound the path cut short, outside the private directory: nothing was created there.
    assert.equal(spawnSync("find", [join(longTmp, ".."), "-type", "s"], { encoding: "utf8" }).stdout, "");
  });

  it("a socket directory where binding is not permitted (EPERM / EACCES)", {
    skip: skipUnless(canLock, "cannot make an unwritable directory here", "ci-must-run"),
  }, async () => {
    const { project, expected } = projectWithReference("fault-eperm");
    const tmp = tempDir("signalint-eperm-");
    const socketDir = join(tmp, `signalint-${uid}`);
    mkdirSync(socketDir, { mode: 0o700 });
    const unlock = lockDir(socketDir);
    assert.ok(unlock);
    cleanups.push(unlock);
    await assertFallsBack(project, expected, { TMPDIR: tmp }, root ? /listen EPERM/ : /listen EACCES/);
  });

  it("an unwritable state directory: no daemon on a temporary one (nobody would find it)", {
    skip: skipUnless(canLock, "cannot make an unwritable directory here", "ci-must-run"),
  }, async () => {
    const { project, expected } = projectWithReference("fault-state");
    const stateDir = tempDir("signalint-locked-state-");
    const unlock = lockDir(stateDir);
    assert.ok(unlock);
    cleanups.push(unlock);
    await assertFallsBack(project, expected, { SIGNALINT_STATE_DIR: stateDir }, /the state directory .* is not writable \((EPERM|EACCES)/);
  });

  it("a full disk under the state directory", { skip: skipUnless(canMount, "needs root and a mountable tmpfs", "ci-may-skip") }, async () => {
    const { project, expected } = projectWithReference("fault-full");
    const mount = tempDir("signalint-full-");
    assert.equal(spawnSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", mount]).status, 0);
    cleanups.push(() => spawnSync("umount", [mount]));
    mkdirSync(join(mount, "state"));
    // Every block taken (inodes are left, as on a real full disk: an empty file can still be created).
    spawnSync("dd", ["if=/dev/zero", `of=${join(mount, "fill")}`, "bs=4k"]);
    assert.throws(() => writeFileSync(join(mount, "state", "probe"), "x"), /ENOSPC/);
    await assertFallsBack(project, expected, { SIGNALINT_STATE_DIR: join(mount, "state") }, /the state directory .* is not writable \(ENOSPC/);
  });
});
