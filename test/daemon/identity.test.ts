// Issue 31 §3: never signal a process that has not been identified. A record or lock naming a live process that is
// not the recorded daemon (a reused pid, a planted one) neither stops a daemon from starting nor gets that process
// killed; a busy daemon is asked again rather than killed; an older client never evicts a newer daemon.
import assert from "node:assert/strict";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { connect as netConnect } from "node:net";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { connectDaemon, DaemonConnection } from "../../src/client/connection.ts";
import { encodeFrame } from "../../src/core/framing.ts";
import { DAEMON_MODE, DAEMON_PROTOCOL } from "../../src/daemon/protocol.ts";
import { readDaemonRecord, recordFile, type DaemonRecord } from "../../src/daemon/record.ts";
import { createNodeRuntime } from "../../src/runtime/node.ts";
import type { DaemonSupport } from "../../src/runtime/types.ts";
import { ownershipLock } from "../../src/service/project/ownership.ts";
import { openProject } from "../../src/service/project/project.ts";
import { VERSION } from "../../src/version.ts";
import { BUNDLE, CLEAN_PATH, gone, removeDir, scratchCopy, tempDir } from "../helpers.ts";

const runtime = createNodeRuntime({ selfScript: BUNDLE });
const support = runtime.daemon as DaemonSupport;
const linux = process.platform === "linux";
const children: ChildProcess[] = [];
const projects: { root: string; stateDir: string }[] = [];

after(async () => {
  for (const child of children) child.kill("SIGKILL");
  for (const { root, stateDir } of projects) {
    // The daemons these tests started (the record names one of them, never a fake: those are killed above).
    const record = await readDaemonRecord(runtime, stateDir);
    if (record && !children.some((child) => child.pid === record.pid)) support.kill(record.pid, "SIGKILL");
    removeDir(root);
  }
});

async function project(label: string, fixture = "clean") {
  const root = scratchCopy(fixture, label);
  const opened = await openProject(runtime, { root, prepareState: true });
  projects.push(opened);
  return opened;
}

/**
 * A fake daemon: a real node process listening on `socket` that, on each hello, stays silent ("silent"), refuses for
 * good ("refuse"), or welcomes with `token` after `delayMs` ("welcome"); `argv` is appended to its command line.
 */
const FAKE = `
const [socket, mode, token, delay] = process.argv.slice(1);
require("node:net").createServer((c) => {
  c.on("error", () => {});
  if (mode === "silent") return;
  c.once("data", () => setTimeout(() => {
    const message = mode === "refuse"
      ? { t: "refused", reason: "fake refusal", draining: false }
      : { t: "welcome", protocol: ${DAEMON_PROTOCOL}, version: "${VERSION}", pid: process.pid, root: "", token };
    const body = Buffer.from(JSON.stringify(message));
    const head = Buffer.alloc(4);
    head.writeUInt32BE(body.length);
    c.write(Buffer.concat([head, body]));
  }, Number(delay)));
}).listen(socket, () => process.stdout.write("listening\\n"));
`;

/** Start a fake daemon (or, without a socket, an idle unrelated process) and wait until it listens. */
async function startProcess(options: { socket?: string; mode?: string; token?: string; delayMs?: number; argv?: string[] } = {}): Promise<ChildProcess> {
  const script = options.socket ? FAKE : "setInterval(() => {}, 1e9); process.stdout.write('listening\\n')";
  const args = options.socket ? [options.socket, options.mode ?? "silent", options.token ?? "", String(options.delayMs ?? 0)] : [];
  const child = spawn(process.execPath, ["-e", script, ...args, ...(options.argv ?? [])], { stdio: ["ignore", "pipe", "inherit"] });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout?.once("data", () => resolve());
    child.once("exit", () => reject(new Error("the process exited before it was ready")));
  });
  return child;
}

/** Alive and never signalled: not exited, not killed (our own child: its exit would have been seen). */
function untouched(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null && runtime.processAlive(child.pid as number);
}

/** Write a daemon record naming `pid` and `socket` (the rest as a daemon of this version writes it). */
function plantRecord(stateDir: string, root: string, fields: Partial<DaemonRecord> & { pid: number; socket: string }): DaemonRecord {
  const record: DaemonRecord = {
    startedAt: new Date().toISOString(),
    version: VERSION,
    protocol: DAEMON_PROTOCOL,
    root,
    token: runtime.randomHex(16),
    startTime: "1",
    ...fields,
  };
  writeFileSync(recordFile(stateDir), JSON.stringify(record));
  return record;
}

function connected(outcome: Awaited<ReturnType<typeof connectDaemon>>): DaemonConnection {
  assert.ok(outcome instanceof DaemonConnection, `no daemon: ${"reason" in outcome ? outcome.reason : ""}`);
  return outcome;
}

describe("a process is signalled only once identified", { skip: linux ? false : "reads /proc" }, () => {
  it("the runtime tells a process's start time and command line, and a reused pid from its original", async () => {
    const self = await runtime.processIdentity(process.pid);
    assert.ok(self && /^\d+$/.test(self.startTime), JSON.stringify(self));
    assert.match(self.command, /identity\.test\.mjs/);
    const dead = spawnSync(process.execPath, ["-e", ""]).pid as number;
    assert.equal(await runtime.processIdentity(dead), null);
    const other = await startProcess();
    assert.notEqual((await runtime.processIdentity(other.pid as number))?.startTime, undefined);
  });

  it("a record naming a live unrelated process and a dead socket: that process lives on, a new daemon serves", async () => {
    const proj = await project("identity-stale-record");
    const unrelated = await startProcess();
    plantRecord(proj.stateDir, proj.root, { pid: unrelated.pid as number, socket: join(proj.stateDir, "gone.sock") });
    const daemon = connected(await connectDaemon(runtime, support, proj));
    assert.notEqual(daemon.welcome.pid, unrelated.pid);
    assert.equal((await readDaemonRecord(runtime, proj.stateDir))?.pid, daemon.welcome.pid);
    daemon.close();
    assert.ok(untouched(unrelated), "the unrelated process was not signalled");
  });

  it("a silent listener the OS does not identify as the daemon (its real start time, another command) is never killed", async () => {
    const proj = await project("identity-silent-other");
    const socket = join(tempDir("signalint-fake-"), "fake.sock");
    const fake = await startProcess({ socket, mode: "silent" });
    const startTime = (await runtime.processIdentity(fake.pid as number))?.startTime ?? null;
    plantRecord(proj.stateDir, proj.root, { pid: fake.pid as number, socket, startTime });
    const daemon = connected(await connectDaemon(runtime, support, proj));
    assert.notEqual(daemon.welcome.pid, fake.pid);
    daemon.close();
    assert.ok(untouched(fake), "the silent stranger was not signalled");
  });

  it("a silent daemon the OS identifies (start time and daemon mode) is killed only after the whole patience", async () => {
    const proj = await project("identity-silent-daemon");
    const socket = join(tempDir("signalint-fake-"), "fake.sock");
    const fake = await startProcess({ socket, mode: "silent", argv: [DAEMON_MODE] });
    const startTime = (await runtime.processIdentity(fake.pid as number))?.startTime ?? null;
    plantRecord(proj.stateDir, proj.root, { pid: fake.pid as number, socket, startTime });
    const exited = new Promise((resolve) => fake.once("exit", (_code, signal) => resolve(signal)));
    const daemon = connected(await connectDaemon(runtime, support, proj, { patienceMs: 1_500 }));
    assert.equal(await exited, "SIGKILL");
    assert.notEqual(daemon.welcome.pid, fake.pid);
    daemon.close();
  });

  it("a busy daemon that answers after the first hello timeout is asked again and used, not killed", async () => {
    const proj = await project("identity-busy");
    const socket = join(tempDir("signalint-fake-"), "fake.sock");
    const token = runtime.randomHex(16);
    // It answers each hello 6 s late: past the first 5 s wait, within the second.
    const fake = await startProcess({ socket, mode: "welcome", token, delayMs: 6_000, argv: [DAEMON_MODE] });
    const startTime = (await runtime.processIdentity(fake.pid as number))?.startTime ?? null;
    plantRecord(proj.stateDir, proj.root, { pid: fake.pid as number, socket, startTime, token });
    const daemon = connected(await connectDaemon(runtime, support, proj));
    assert.equal(daemon.welcome.pid, fake.pid);
    daemon.close();
    assert.ok(untouched(fake), "the busy daemon was not signalled");
  });

  it("a daemon busy with a check welcomes another client at once (hello is answered on the event loop)", async () => {
    const proj = await project("identity-hello-busy", "systemic-ts");
    const first = connected(await connectDaemon(runtime, support, proj));
    let answered = false;
    const check = first.api.check({ paths: ["."], incremental: false }).then((result) => {
      answered = true;
      return result;
    });
    const second = await DaemonConnection.open(support, (await readDaemonRecord(runtime, proj.stateDir)) as DaemonRecord, proj.root);
    assert.ok(second instanceof DaemonConnection, JSON.stringify(second));
    assert.equal(answered, false, "welcomed while the check was still in flight");
    assert.equal((await check).response.engines.tsc.status, "ok");
    second.close();
    first.close();
  });

  it("a welcome without the record's token is not the recorded daemon's: never used, never signalled", async () => {
    const proj = await project("identity-token");
    const socket = join(tempDir("signalint-fake-"), "fake.sock");
    const fake = await startProcess({ socket, mode: "welcome", token: "not-the-token", argv: [DAEMON_MODE] });
    const startTime = (await runtime.processIdentity(fake.pid as number))?.startTime ?? null;
    plantRecord(proj.stateDir, proj.root, { pid: fake.pid as number, socket, startTime });
    const daemon = connected(await connectDaemon(runtime, support, proj));
    assert.notEqual(daemon.welcome.pid, fake.pid);
    daemon.close();
    assert.ok(untouched(fake));
  });

  it("daemon stop never signals a recorded pid the OS does not identify as the daemon", async () => {
    const proj = await project("identity-stop");
    const socket = join(tempDir("signalint-fake-"), "fake.sock");
    const token = runtime.randomHex(16);
    // It answers as the daemon would, with the record's token; its pid is not a daemon's (another command line).
    const fake = await startProcess({ socket, mode: "welcome", token });
    const startTime = (await runtime.processIdentity(fake.pid as number))?.startTime ?? null;
    plantRecord(proj.stateDir, proj.root, { pid: fake.pid as number, socket, startTime, token });
    const env = { PATH: CLEAN_PATH, HOME: process.env.HOME ?? "", SIGNALINT_STATE_DIR: proj.stateDir };
    const stop = spawnSync(process.execPath, [BUNDLE, "daemon", "stop"], { cwd: proj.root, env, encoding: "utf8" });
    assert.equal(stop.status, 0, stop.stderr);
    assert.match(stop.stdout, /^no daemon was running/);
    assert.ok(untouched(fake));
  });

  it("an older client of the same protocol is served, of another protocol refused for good; only a newer one evicts", async () => {
    const proj = await project("identity-versions");
    const daemon = connected(await connectDaemon(runtime, support, proj));
    const record = (await readDaemonRecord(runtime, proj.stateDir)) as DaemonRecord;
    const hello = (version: string, protocol: number) =>
      new Promise<Record<string, unknown>>((resolve) => {
        const socket = netConnect(record.socket, () => socket.write(encodeFrame({ t: "hello", protocol, version, root: proj.root })));
        socket.once("data", (chunk) => {
          resolve(JSON.parse(chunk.subarray(4).toString()));
          socket.destroy();
        });
        socket.on("error", () => {});
      });
    assert.equal((await hello("0.0.1", DAEMON_PROTOCOL)).t, "welcome");
    assert.deepEqual(await hello("0.0.1", DAEMON_PROTOCOL - 1), {
      t: "refused",
      reason: `the running daemon is newer (version ${VERSION}, protocol ${DAEMON_PROTOCOL})`,
      draining: false,
    });
    // Still serving its clients: the refusals above made it drain nothing.
    assert.ok((await daemon.api.info()).pid === record.pid);
    const evicted = await hello("99.0.0", DAEMON_PROTOCOL);
    assert.equal(evicted.draining, true);
    daemon.close();
    assert.ok(await gone(record.pid, 30_000), "the daemon a newer client replaces exits");
  });

  it("an older client refused by a newer daemon checks in-process with a one-line notice and leaves it running", async () => {
    const proj = await project("identity-refused");
    const socket = join(tempDir("signalint-fake-"), "fake.sock");
    const fake = await startProcess({ socket, mode: "refuse", argv: [DAEMON_MODE] });
    const startTime = (await runtime.processIdentity(fake.pid as number))?.startTime ?? null;
    plantRecord(proj.stateDir, proj.root, { pid: fake.pid as number, socket, startTime });
    const env = { PATH: CLEAN_PATH, HOME: process.env.HOME ?? "", SIGNALINT_DAEMON: "1", SIGNALINT_STATE_DIR: proj.stateDir };
    const check = spawnSync(process.execPath, [BUNDLE, "check"], { cwd: proj.root, env, encoding: "utf8" });
    assert.equal(check.status, 0, check.stderr);
    const notices = check.stderr.split("\n").filter((line) => line.includes("no daemon for"));
    assert.deepEqual(notices, [`signalint: no daemon for ${proj.root} (fake refusal); checking in this process`]);
    assert.ok(untouched(fake));
  });
});

describe("a lock naming a live process that is not its writer holds nothing", { skip: linux ? false : "reads /proc" }, () => {
  for (const [form, content] of [
    ["a plain pid (an earlier version's form)", (pid: number) => String(pid)],
    ["a pid with another start time (a reused pid, a copied state directory)", (pid: number) => `${pid}\n${JSON.stringify({ pid, startTime: "1" })}\n`],
  ] as const) {
    it(`owner.lock holding a live unrelated pid as ${form}: a daemon still starts and serves the check`, async () => {
      const proj = await project("identity-lock");
      const unrelated = await startProcess();
      writeFileSync(ownershipLock(proj.stateDir), content(unrelated.pid as number));
      const env = { PATH: CLEAN_PATH, HOME: process.env.HOME ?? "", SIGNALINT_DAEMON: "1", SIGNALINT_STATE_DIR: proj.stateDir };
      const check = spawnSync(process.execPath, [BUNDLE, "check"], { cwd: proj.root, env, encoding: "utf8" });
      assert.equal(check.status, 0, check.stderr);
      assert.doesNotMatch(check.stderr, /no daemon|keeps its history/, check.stderr);
      const record = await readDaemonRecord(runtime, proj.stateDir);
      assert.ok(record && record.pid !== unrelated.pid, "a daemon serves the project");
      assert.ok(untouched(unrelated));
      support.kill(record.pid, "SIGKILL");
    });
  }
});
