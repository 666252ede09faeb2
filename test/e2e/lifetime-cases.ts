// The fault suite of process lifetime, shared by test/e2e/lifetime.test.ts (Node) and test/dist/lifetime-servers.test.ts
// (Deno, the binary): a client that dies mid-check, `kill -9` of the server mid-check, and a cancelled check. Every
// engine process is found by a marker only this test's processes carry (the pid file path in their environment, which
// the hanging engine's grandchild inherits too), so nothing can escape the count.
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { WATCHDOG_SCRIPT } from "../../src/runtime/process-groups.ts";
import { WARM_HOST_MODE } from "../../src/typescript/host-protocol.ts";
import { BUNDLE, call, CLEAN_PATH, connect, DENO, DENO_FLAGS, fixture, linkBin, REPO, removeDir, scratchCopy, structured, tempDir } from "../helpers.ts";
import { hostProcesses } from "../helpers/processes.ts";

const HOST = `${process.platform === "win32" ? "win" : process.platform}-${process.arch}`;
const BINARY = join(REPO, "dist", "bin", `signalint-mcp-${HOST}`);
type Server = "node" | "deno" | "binary";

/** A sparse project whose oxlint hangs (with a grandchild) far longer than any test, so only a kill ends it. */
export function hangingProject(label: string): { project: string; marker: string } {
  const project = scratchCopy("sparse", label);
  linkBin(project, "oxlint", fixture("fault-engines/hang.cjs"));
  writeFileSync(join(project, "signalint.config.json"), JSON.stringify({ timeoutsMs: { oxlint: 600_000 } }));
  return { project, marker: join(project, "pids.txt") };
}

/** Live processes (not zombies) whose environment carries the marker, with their command lines. */
export function marked(marker: string): { pid: number; cmdline: string }[] {
  const needle = `SIGNALINT_FAULT_PIDS=${marker}\0`;
  return hostProcesses((entry) => entry.environ().includes(needle)).map(({ pid, cmdline }) => ({ pid, cmdline }));
}

export const isWatchdog = (cmdline: string) => cmdline === `/bin/sh\0-c\0${WATCHDOG_SCRIPT}\0`;
/** A warm TypeScript host: part of the server (it outlives a check, not the server). */
export const isWarmHost = (cmdline: string) => cmdline.split("\0").includes(WARM_HOST_MODE);

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
export async function survivors(marker: string, ms: number, ignore: (process: { pid: number; cmdline: string }) => boolean = () => false) {
  const started = Date.now();
  await until(() => marked(marker).filter((entry) => !ignore(entry)).length === 0, ms);
  return { left: marked(marker).filter((entry) => !ignore(entry)), ms: Date.now() - started };
}

/** Wait until the hanging engine has started its grandchild (it writes both pids). */
export async function engineRunning(marker: string): Promise<number[]> {
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

/** Kill whatever a failed test left behind, so one failure does not leak processes into the next runs. */
export function killMarked(marker: string): void {
  for (const { pid } of marked(marker)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
}

/** A client that dies, a client that stops reading, and kill -9 of the server, each mid-check: nothing survives. */
export function serverLifetimeTests(server: Server, projects: string[]): void {
  it(`${server}: a client that dies mid-check (all pipes closed) stops the server and every engine`, async (t) => {
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

/** A cancelled check on `runtime` kills its engines, answers and records nothing; the server keeps serving. */
export function cancelledCheckTest(runtime: "node" | "deno", projects: string[]): void {
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

/** The process-lifetime suite (Linux: it counts processes through /proc); `register` adds its tests. */
export function describeLifetime(register: (projects: string[]) => void): void {
  describe("process lifetime: nothing outlives the server", { skip: process.platform !== "linux" && "counts processes through /proc" }, () => {
    const projects: string[] = [];
    after(() => {
      for (const project of projects) killMarked(join(project, "pids.txt"));
      projects.forEach(removeDir);
    });
    register(projects);
  });
}
