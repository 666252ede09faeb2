// Signalint re-run as a long-lived child of itself (the warm TypeScript host), on Node and inside the standalone binary.
import { spawn as spawnChild } from "node:child_process";
import type { ProcessGroups } from "./process-groups.ts";
import type { SelfChannel, SelfProcess } from "./types.ts";

/**
 * Start this program again (`args`: the mode, after the bundle's path unless this is the standalone binary, which
 * is its own executable) with the same node. Own process group, registered with the watchdog.
 */
export function spawnSelfNode(args: string[], cwd: string, groups: ProcessGroups, killTree: (pid: number | undefined) => void): SelfProcess {
  return startProcessNode(process.execPath, args, { cwd, stderr: "inherit" }, groups, killTree);
}

/** Start `command` as a long-lived child exchanging bytes over stdin/stdout (env: the whole environment it gets). */
export function startProcessNode(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; stderr: "inherit" | "ignore" },
  groups: ProcessGroups,
  killTree: (pid: number | undefined) => void,
): SelfProcess {
  const child = spawnChild(command, args, {
    cwd: options.cwd,
    ...(options.env ? { env: options.env } : {}),
    stdio: ["pipe", "pipe", options.stderr],
    detached: process.platform !== "win32",
    windowsHide: true,
  });
  const pid = child.pid;
  if (pid !== undefined) groups.add(pid);
  let alive = pid !== undefined;
  const exited = new Promise<void>((resolve) => {
    const done = () => {
      alive = false;
      // Whatever it started (a tsgo server) is in its group: gone with it, however it ended.
      if (pid !== undefined) killTree(pid);
      if (pid !== undefined) groups.delete(pid);
      resolve();
    };
    child.once("exit", done);
    child.once("error", done);
  });
  child.stdin?.on("error", () => {});
  const listeners: ((chunk: Uint8Array) => void)[] = [];
  child.stdout?.on("data", (chunk: Buffer) => listeners.forEach((listener) => listener(chunk)));
  const handles = [child, child.stdin, child.stdout] as unknown as ({ ref?: () => void; unref?: () => void } | null)[];
  return {
    pid,
    send: (bytes) => {
      if (alive) child.stdin?.write(bytes);
      return alive;
    },
    onData: (listener) => void listeners.push(listener),
    exited,
    kill: () => {
      if (alive) killTree(pid);
    },
    hold: (held) => {
      for (const handle of handles) held ? handle?.ref?.() : handle?.unref?.();
    },
  };
}

/**
 * The child's end: stdin bytes in, stdout bytes out. The channel takes stdout for itself: whatever else this process
 * prints (console.log, a library writing to process.stdout) goes to stderr, never between its messages.
 */
export function selfChannelNode(): SelfChannel {
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
  return {
    listen: (onData, onEnd) => {
      process.stdin.on("data", (chunk: Buffer) => onData(chunk));
      process.stdin.on("end", onEnd);
      process.stdin.on("error", onEnd);
    },
    // A pipe write that does not fit the pipe's buffer is finished by the event loop: the callback says when it was.
    // A failed write (the parent is gone) settles too: the end of stdin follows.
    send: (bytes) => new Promise<void>((resolve) => void write(bytes, () => resolve())),
  };
}
