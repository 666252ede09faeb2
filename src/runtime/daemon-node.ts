// Local sockets and detached processes for the per-project daemon, on Node and inside the standalone binary.
import { spawn as spawnChild } from "node:child_process";
import { constants, promises as fs, openSync, closeSync } from "node:fs";
import { createConnection, createServer, type Socket } from "node:net";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import type { DaemonSupport, LocalConnection } from "./types.ts";

function wrap(socket: Socket): LocalConnection {
  const closers: (() => void)[] = [];
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    for (const closer of closers) closer();
  };
  socket.on("close", close);
  socket.on("error", () => socket.destroy());
  return {
    write: (data) => {
      if (!closed) socket.write(data);
    },
    onData: (listener) => void socket.on("data", (chunk: Buffer) => listener(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength))),
    onClose: (listener) => (closed ? listener() : void closers.push(listener)),
    close: () => socket.destroy(),
  };
}

/** A directory only this user can enter: created 0700, refused when another user owns it or others may enter it. */
async function privateDir(): Promise<string> {
  const uid = process.getuid?.() ?? 0;
  const dir = join(tmpdir(), `signalint-${uid}`);
  await fs.mkdir(dir, { mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "EEXIST") throw error;
  });
  const info = await fs.lstat(dir);
  if (!info.isDirectory() || info.uid !== uid || (info.mode & 0o077) !== 0)
    throw new Error(`${dir} is not a private directory of this user (owner ${info.uid}, mode ${(info.mode & 0o777).toString(8)})`);
  return dir;
}

/** Whether a process exists (signal 0: EPERM means it exists but belongs to another user). */
export function processAliveNode(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Create a file only if nothing is there (O_EXCL), mode 0600, flushed; rejects (EEXIST) when something is. */
export async function writeNewFileNode(path: string, data: string): Promise<void> {
  const handle = await fs.open(path, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o600);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** The Node implementation of DaemonSupport (`selfArgs`: how this program re-runs itself, before the mode). */
export function nodeDaemonSupport(selfArgs: readonly string[]): DaemonSupport {
  const windows = process.platform === "win32";
  return {
    listen: (path, onConnection) =>
      new Promise((resolve, reject) => {
        const server = createServer((socket) => onConnection(wrap(socket)));
        // The socket file is created without permissions for group or others, whatever the umask (then chmod'ed).
        const umask = windows ? null : process.umask(0o177);
        const restore = () => umask !== null && process.umask(umask);
        server.once("error", (error) => {
          restore();
          reject(error);
        });
        server.listen(path, () => {
          restore();
          server.removeAllListeners("error");
          server.on("error", () => {});
          const close = () => new Promise<void>((done) => server.close(() => done()));
          (windows ? Promise.resolve() : fs.chmod(path, 0o600)).then(() => resolve({ close }), reject);
        });
      }),
    connect: (path) =>
      new Promise((resolve, reject) => {
        const socket = createConnection(path);
        socket.once("error", reject);
        socket.once("connect", () => {
          socket.off("error", reject);
          resolve(wrap(socket));
        });
      }),
    startDetached: (mode, options) =>
      new Promise((resolve) => {
        const log = openSync(options.logFile, "a", 0o600);
        const child = spawnChild(process.execPath, [...selfArgs, mode], {
          cwd: options.cwd,
          env: { ...process.env, ...options.env },
          stdio: ["ignore", "pipe", log],
          detached: true,
          windowsHide: true,
        });
        closeSync(log);
        let buffered = "";
        const finish = (line: string | null) => {
          child.stdout?.removeAllListeners("data");
          child.stdout?.destroy();
          child.unref();
          resolve({ pid: child.pid ?? -1, line });
        };
        child.stdout?.setEncoding("utf8");
        child.stdout?.on("data", (chunk: string) => {
          buffered += chunk;
          const newline = buffered.indexOf("\n");
          if (newline >= 0) finish(buffered.slice(0, newline));
        });
        child.once("exit", () => finish(null));
        child.once("error", () => finish(null));
      }),
    kill: (pid, signal) => {
      try {
        process.kill(pid, signal);
      } catch {
        // Already gone.
      }
    },
    socketPath: async (key) => (windows ? `\\\\.\\pipe\\signalint-${userInfo().username}-${key}` : join(await privateDir(), `${key}.sock`)),
  };
}
