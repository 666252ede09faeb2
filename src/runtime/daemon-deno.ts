// Local sockets and detached processes for the per-project daemon under Deno (Unix domain sockets: Linux, macOS).
import type { DaemonSupport, LocalConnection } from "./types.ts";

// deno-lint-ignore no-explicit-any
declare const Deno: any;

// deno-lint-ignore no-explicit-any
function wrap(conn: any): LocalConnection {
  const listeners: ((chunk: Uint8Array) => void)[] = [];
  const closers: (() => void)[] = [];
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    try {
      conn.close();
    } catch {
      // Already closed.
    }
    for (const closer of closers) closer();
  };
  (async () => {
    try {
      for await (const chunk of conn.readable) for (const listener of listeners) listener(chunk as Uint8Array);
    } catch {
      // A reset connection ends like a closed one.
    }
    close();
  })();
  let writing: Promise<unknown> = Promise.resolve();
  return {
    // Writes are queued so frames never interleave; a failed write closes the connection.
    write: (data) => {
      if (closed) return;
      writing = writing
        .then(async () => {
          let offset = 0;
          while (offset < data.length && !closed) offset += await conn.write(data.subarray(offset));
        })
        .catch(close);
    },
    onData: (listener) => void listeners.push(listener),
    onClose: (listener) => (closed ? listener() : void closers.push(listener)),
    close,
  };
}

async function privateDir(): Promise<string> {
  const uid: number = Deno.uid();
  const dir = `${Deno.env.get("TMPDIR")?.replace(/\/$/, "") || "/tmp"}/signalint-${uid}`;
  try {
    await Deno.mkdir(dir, { mode: 0o700 });
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
  }
  const info = await Deno.lstat(dir);
  if (!info.isDirectory || info.uid !== uid || ((info.mode ?? 0) & 0o077) !== 0) throw new Error(`${dir} is not a private directory of this user`);
  return dir;
}

/** Whether a process exists (`kill -0`: Deno has no signal 0). */
export function processAliveDeno(pid: number): boolean {
  if (Deno.build.os === "windows") {
    const out = new Deno.Command("tasklist", { args: ["/FI", `PID eq ${pid}`, "/NH"], stdout: "piped", stderr: "null" }).outputSync();
    return new TextDecoder().decode(out.stdout).includes(String(pid));
  }
  return new Deno.Command("kill", { args: ["-0", String(pid)], stdout: "null", stderr: "null" }).outputSync().success;
}

/** Create a file only if nothing is there, mode 0600; rejects (AlreadyExists) when something is. */
export async function writeNewFileDeno(path: string, data: string): Promise<void> {
  await Deno.writeTextFile(path, data, { createNew: true, mode: 0o600 });
}

/** The Deno implementation of DaemonSupport (`runArgs`: `deno run` flags and the module, before the mode); null on Windows. */
export function denoDaemonSupport(runArgs: () => string[]): DaemonSupport | null {
  if (Deno.build.os === "windows") return null;
  return {
    listen: async (path, onConnection) => {
      const listener = Deno.listen({ transport: "unix", path });
      await Deno.chmod(path, 0o600);
      (async () => {
        try {
          for await (const conn of listener) onConnection(wrap(conn));
        } catch {
          // Closed.
        }
      })();
      return { close: async () => listener.close() };
    },
    connect: async (path) => wrap(await Deno.connect({ transport: "unix", path })),
    startDetached: async (mode, options) => {
      const child = new Deno.Command(Deno.execPath(), {
        args: [...runArgs(), mode],
        cwd: options.cwd,
        env: options.env ?? {},
        stdin: "null",
        stdout: "piped",
        // Deno cannot hand a child a file as stderr: the daemon's messages are not kept under Deno.
        stderr: "null",
        detached: true,
      }).spawn();
      const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
      let buffered = "";
      let line: string | null = null;
      while (line === null) {
        const { value, done } = await reader.read();
        if (done) break;
        buffered += value;
        const newline = buffered.indexOf("\n");
        if (newline >= 0) line = buffered.slice(0, newline);
      }
      // The reader may be closed already: nothing more to read either way.
      reader.cancel().catch(() => {});
      child.unref();
      return { pid: child.pid, line };
    },
    kill: (pid, signal) => {
      try {
        Deno.kill(pid, signal);
      } catch {
        // Already gone.
      }
    },
    socketPath: async (key) => `${await privateDir()}/${key}.sock`,
  };
}
