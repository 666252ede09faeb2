import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it, type TestContext } from "node:test";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { progressReporter, type ProgressParams } from "../../src/mcp/progress.ts";
import { createNodeRuntime } from "../../src/runtime/node.ts";
import { WATCHDOG_SCRIPT } from "../../src/runtime/process-groups.ts";
import type { CheckEvent } from "../../src/service/check/check-events.ts";
import { SignalintService } from "../../src/service/signalint.ts";
import { WARM_HOST_MODE } from "../../src/typescript/host-protocol.ts";
import { BUNDLE, call, CLEAN_PATH, connect, DENO, DENO_FLAGS, fixture, linkBin, REPO, removeDir, scratchCopy, structured, tempDir } from "../helpers.ts";

// The fault suite of process lifetime: a client that dies mid-check, `kill -9` of the server mid-check, and a
// cancelled check. Every engine process is found by a marker only this test's processes carry (the pid file path
// in their environment, which the hanging engine's grandchild inherits too), so nothing can escape the count.

const HOST = `${process.platform === "win32" ? "win" : process.platform}-${process.arch}`;
const BINARY = join(REPO, "dist", "bin", `signalint-mcp-${HOST}`);
type Server = "node" | "deno" | "binary";

/** A sparse project whose oxlint hangs (with a grandchild) far longer than any test, so only a kill ends it. */
function hangingProject(label: string): { project: string; marker: string } {
  const project = scratchCopy("sparse", label);
  linkBin(project, "oxlint", fixture("fault-engines/hang.cjs"));
  writeFileSync(join(project, "signalint.config.json"), JSON.stringify({ timeoutsMs: { oxlint: 600_000 } }));
  return { project, marker: join(project, "pids.txt") };
}

/** Live processes (not zombies) whose environment carries the marker, with their command lines. */
function marked(marker: string): { pid: number; cmdline: string }[] {
  const needle = `SIGNALINT_FAULT_PIDS=${marker}\0`;
  const found: { pid: number; cmdline: string }[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (!readFileSync(`/proc/${name}/environ`, "latin1").includes(needle)) continue;
      found.push({ pid: Number(name), cmdline: readFileSync(`/proc/${name}/cmdline`, "utf8") });
    } catch {
      // Gone meanwhile, or not ours.
    }
  }
  return found;
}

const isWatchdog = (cmdline: string) => cmdline === `/bin/sh\0-c\0${WATCHDOG_SCRIPT}\0`;
/** A warm TypeScript host: part of the server (it outlives a check, not the server). */
const isWarmHost = (cmdline: string) => cmdline.split("\0").includes(WARM_HOST_MODE);

/** Poll (there is no event for another process's death) until the predicate holds; false after `ms`. */
async function until(predicate: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

/** The marked processes still alive once `ms` have passed without all of them ending (none: within the limit). */
async function survivors(marker: string, ms: number, ignore: (process: { pid: number; cmdline: string }) => boolean = () => false) {
  const started = Date.now();
  await until(() => marked(marker).filter((entry) => !ignore(entry)).length === 0, ms);
  return { left: marked(marker).filter((entry) => !ignore(entry)), ms: Date.now() - started };
}

/** Wait until the hanging engine has started its grandchild (it writes both pids). */
async function engineRunning(marker: string): Promise<number[]> {
  const written = () => existsSync(marker) && readFileSync(marker, "utf8").trim().split("\n").length === 2;
  assert.ok(await until(written, 60_000), "the hanging engine started");
  return readFileSync(marker, "utf8").trim().split("\n").map(Number);
}

/** Resolves with the exit of a process, or rejects after `ms`. */
function exited(child: ChildProcess, ms: number): Promise<{ code: number | null; signal: string | null; ms: number }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server ${child.pid} still running after ${ms} ms`)), ms);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, ms: Date.now() - started });
    });
  });
}

/** A server on raw pipes (the SDK client would close them in order), asked for check_project. */
function startChecking(server: Server, project: string, marker: string): ChildProcess {
  const [command, args] = server === "node" ? [process.execPath, [BUNDLE]] : server === "deno" ? [DENO, [...DENO_FLAGS, BUNDLE]] : [BINARY, []];
  const child = spawn(command, args, {
    cwd: project,
    env: {
      PATH: CLEAN_PATH,
      HOME: process.env.HOME ?? "",
      SIGNALINT_DAEMON: "0",
      SIGNALINT_STATE_DIR: tempDir("signalint-state-"),
      SIGNALINT_FAULT_PIDS: marker,
    },
    stdio: ["pipe", "pipe", "pipe"],
  });
  const send = (message: object) => child.stdin?.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
  send({ id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "lifetime", version: "1" } } });
  send({ method: "notifications/initialized" });
  send({ id: 2, method: "tools/call", params: { name: "check_project", arguments: {} } });
  child.stdout?.resume();
  child.stderr?.resume();
  return child;
}

function skipWithoutBinary(server: Server, t: TestContext): boolean {
  if (server !== "binary" || existsSync(BINARY)) return false;
  t.skip(`${BINARY} is not built (npm run build:binaries -- --targets=host)`);
  return true;
}

/** Kill whatever a failed test left behind, so one failure does not leak processes into the next runs. */
function killMarked(marker: string): void {
  for (const { pid } of marked(marker)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
}

describe("process lifetime: nothing outlives the server", { skip: process.platform !== "linux" && "counts processes through /proc" }, () => {
  const projects: string[] = [];
  after(() => {
    for (const project of projects) killMarked(join(project, "pids.txt"));
    projects.forEach(removeDir);
  });

  for (const server of ["node", "deno", "binary"] as const) {
    it(`${server}: a client that dies mid-check (all pipes closed) stops the server and every engine`, async (t) => {
      if (skipWithoutBinary(server, t)) return;
      const { project, marker } = hangingProject(`crash-${server}`);
      projects.push(project);
      const child = startChecking(server, project, marker);
      await engineRunning(marker);
      const exit = exited(child, 10_000);
      child.stdin?.destroy();
      child.stdout?.destroy();
      child.stderr?.destroy();
      const { ms } = await exit;
      const { left, ms: cleanup } = await survivors(marker, 10_000);
      t.diagnostic(`server exited ${ms} ms after the client's pipes closed; engines gone ${cleanup} ms after that`);
      assert.deepEqual(left, [], "no engine, grandchild or watchdog survives");
    });

    it(`${server}: a client that stops reading (stdout closed, stdin open) stops the server at its next write`, async (t) => {
      if (skipWithoutBinary(server, t)) return;
      const { project, marker } = hangingProject(`epipe-${server}`);
      projects.push(project);
      const child = startChecking(server, project, marker);
      await engineRunning(marker);
      const exit = exited(child, 10_000);
      child.stdout?.destroy();
      // The answer to this ping is the write that fails (EPIPE).
      child.stdin?.write(`${JSON.stringify({ jsonrpc: "2.0", id: 3, method: "ping" })}\n`);
      const { ms } = await exit;
      const { left } = await survivors(marker, 10_000);
      t.diagnostic(`server exited ${ms} ms after the client stopped reading`);
      assert.deepEqual(left, [], "no engine, grandchild or watchdog survives");
    });

    it(`${server}: after kill -9 of the server mid-check, no engine survives`, async (t) => {
      if (skipWithoutBinary(server, t)) return;
      const { project, marker } = hangingProject(`kill9-${server}`);
      projects.push(project);
      const child = startChecking(server, project, marker);
      await engineRunning(marker);
      const exit = exited(child, 10_000);
      child.kill("SIGKILL");
      await exit;
      const { left, ms } = await survivors(marker, 10_000);
      t.diagnostic(`engines and watchdog gone ${ms} ms after the server was killed`);
      assert.deepEqual(left, [], "no engine, grandchild or watchdog survives");
    });
  }

  it("node: after kill -9 of a server with a warm TypeScript 7 process, its host and the tsgo process go too", async (t) => {
    const project = scratchCopy("systemic-ts", "kill9-ts7");
    projects.push(project);
    linkBin(project, "tsc", join(REPO, "node_modules", "typescript7", "bin", "tsc"));
    const marker = join(project, "pids.txt");
    const session = await connect(project, { SIGNALINT_FAULT_PIDS: marker });
    // The first check starts the warm host and its tsgo server and answers from them.
    await call(session.client, "check_project");
    const mode =
      structured<{ cache?: { tsc?: { mode?: string } } }>(await call(session.client, "check_files", { files: ["src/users.ts"] })).cache?.tsc?.mode ?? "";
    assert.match(mode, /^warm-/);
    assert.ok(
      marked(marker).some(({ cmdline }) => cmdline.includes("--api")),
      "a tsgo API process runs",
    );
    process.kill(session.pid as number, "SIGKILL");
    const { left, ms } = await survivors(marker, 10_000);
    t.diagnostic(`tsgo and watchdog gone ${ms} ms after the server was killed`);
    assert.deepEqual(left, []);
  });

  for (const runtime of ["node", "deno"] as const) {
    it(`${runtime}: a cancelled check kills its engines, answers nothing, records nothing; the server keeps serving`, async (t) => {
      const { project, marker } = hangingProject(`cancel-${runtime}`);
      projects.push(project);
      const session = await connect(project, { SIGNALINT_FAULT_PIDS: marker }, runtime);
      const errors: string[] = [];
      session.client.onerror = (error) => errors.push(error.message);
      try {
        const controller = new AbortController();
        const checking = session.client.callTool({ name: "check_project", arguments: {} }, undefined, { signal: controller.signal });
        const rejected = assert.rejects(checking, /abort/i);
        await engineRunning(marker);
        controller.abort();
        await rejected;
        // The server itself and its watchdog stay; every engine process goes.
        const server = session.pid;
        const { left, ms } = await survivors(marker, 10_000, ({ pid, cmdline }) => pid === server || isWatchdog(cmdline) || isWarmHost(cmdline));
        t.diagnostic(`engines gone ${ms} ms after the cancellation`);
        assert.deepEqual(left, [], "no engine survives the cancellation");
        const ping = await call(session.client, "ping");
        assert.equal(ping.content[0]?.type === "text" && ping.content[0].text, "pong", "server stays alive");
        const detail = structured(await call(session.client, "get_issue_detail", { clusterId: "c0000000" }));
        assert.equal(detail.code, "no_check", "the cancelled check was not recorded");
        assert.deepEqual(errors, [], "no result arrived for the cancelled request");
      } finally {
        await session.close();
      }
    });
  }
});

describe("a cancelled check in the service", { skip: process.platform !== "linux" && "counts processes through /proc", timeout: 60_000 }, () => {
  it("kills its engines, throws CheckCancelledError, and leaves no check, session record or loop memory", async (t) => {
    const { project, marker } = hangingProject("cancel-service");
    // The engines inherit this process's environment: the marker reaches them (and /proc still shows our original one).
    process.env.SIGNALINT_FAULT_PIDS = marker;
    const service = await SignalintService.create(createNodeRuntime({ selfScript: BUNDLE }), { root: project });
    try {
      const events: CheckEvent[] = [];
      const controller = new AbortController();
      const checking = service.check(["."], false, { signal: controller.signal, onEvent: (event) => events.push(event) });
      await engineRunning(marker);
      controller.abort();
      await assert.rejects(checking, { name: "CheckCancelledError", code: "cancelled" });
      const { left } = await survivors(marker, 10_000, ({ cmdline }) => isWatchdog(cmdline) || isWarmHost(cmdline));
      assert.deepEqual(left, [], "no engine survives");
      assert.equal(service.store.latest(), undefined, "no check is stored");
      assert.equal(service.lastTiming, null);
      const session = join(service.project.stateDir, "session.jsonl");
      assert.equal(existsSync(session) ? readFileSync(session, "utf8") : "", "", "nothing in loop memory");
      assert.ok(
        events.some((event) => event.kind === "engine-started" && event.engine === "oxlint"),
        JSON.stringify(events),
      );

      // Already cancelled: nothing starts at all.
      const none: CheckEvent[] = [];
      await assert.rejects(service.check(["."], false, { signal: AbortSignal.abort(), onEvent: (event) => none.push(event) }), { code: "cancelled" });
      assert.deepEqual(none, []);
      t.diagnostic(`events of the cancelled check: ${events.map((event) => event.kind).join(", ")}`);
    } finally {
      service.close();
      delete process.env.SIGNALINT_FAULT_PIDS;
      killMarked(marker);
      removeDir(project);
    }
  });
});

describe("progress notifications", () => {
  it("a burst of events is one notification now and the latest one at flush, with increasing progress", async () => {
    const sent: ProgressParams[] = [];
    const reporter = progressReporter("tok", async (params) => {
      sent.push(params);
    });
    reporter.onEvent({ kind: "engine-started", engine: "oxlint" });
    reporter.onEvent({ kind: "engine-started", engine: "tsc" });
    reporter.onEvent({ kind: "tsc-phase", phase: "command line", tsconfig: "tsconfig.json" });
    reporter.onEvent({ kind: "engine-finished", engine: "oxlint", status: "ok", issues: 0 });
    reporter.onEvent({ kind: "engine-finished", engine: "tsc", status: "error", issues: 0 });
    assert.deepEqual(sent, [{ progressToken: "tok", progress: 1, message: "oxlint started" }]);
    await reporter.flush();
    assert.deepEqual(sent.at(-1), { progressToken: "tok", progress: 5, message: "tsc finished (error)" });
    assert.equal(sent.length, 2, "the events between were coalesced");
    await reporter.flush();
    assert.equal(sent.length, 2, "nothing is sent twice");
  });

  it("a check with a progressToken reports engines starting and finishing before its result; one without gets none", async () => {
    const session = await connect(fixture("sparse"));
    // The SDK client reports a progress notification for a token it does not know (late, or never asked for) here.
    const errors: string[] = [];
    session.client.onerror = (error) => errors.push(error.message);
    try {
      const progress: { progress: number; message?: string }[] = [];
      const result = (await session.client.callTool({ name: "check_project", arguments: {} }, undefined, {
        onprogress: (params) => progress.push(params),
      })) as CallToolResult;
      structured(result);
      assert.ok(progress.length >= 2, `got ${JSON.stringify(progress)}`);
      assert.match(progress[0]?.message ?? "", /^(oxlint|tsc) started$/);
      assert.match(progress.at(-1)?.message ?? "", /^(oxlint|tsc) finished \(ok, \d+ issues?\)$/);
      for (let i = 1; i < progress.length; i++) assert.ok((progress[i]?.progress ?? 0) > (progress[i - 1]?.progress ?? 0), "progress increases");
      structured(await call(session.client, "check_project"));
      assert.deepEqual(errors, []);
    } finally {
      await session.close();
    }
  });
});
