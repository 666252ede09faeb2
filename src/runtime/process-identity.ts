// A process's OS identity (start time and command line), for both runtimes: /proc on Linux, `ps` on macOS and the
// BSDs, none on Windows. Only ever compared for equality with what the same OS said earlier.
import type { ProcessIdentity, SpawnResult, SpawnOptions } from "./types.ts";

/** What the identity needs of its runtime: a text read and a spawn (each runtime passes its own). */
export interface IdentityIo {
  platform: string;
  readText: (path: string) => Promise<string>;
  spawn: (command: string, args: readonly string[], options: SpawnOptions) => Promise<SpawnResult>;
}

/** The start time and command line of `pid`, or null when it does not exist or this OS cannot tell. */
export async function processIdentityVia(io: IdentityIo, pid: number): Promise<ProcessIdentity | null> {
  if (!Number.isSafeInteger(pid) || pid <= 0 || io.platform === "win32") return null;
  try {
    return io.platform === "linux" ? await fromProc(io, pid) : await fromPs(io, pid);
  } catch {
    // Gone meanwhile, or unreadable (hidepid, a sandbox without /proc or `ps`): cannot be verified.
    return null;
  }
}

/** Linux: field 22 of /proc/<pid>/stat (clock ticks after boot) and the NUL-separated /proc/<pid>/cmdline. */
async function fromProc(io: IdentityIo, pid: number): Promise<ProcessIdentity | null> {
  const stat = await readProc(io, `/proc/${pid}/stat`);
  // The command name (field 2) is in parentheses and may hold spaces or parentheses itself: count after the last.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const startTime = fields[19];
  const command = (await readProc(io, `/proc/${pid}/cmdline`)).replace(/\0+$/, "").split("\0").join(" ");
  return startTime && /^\d+$/.test(startTime) ? { startTime, command } : null;
}

/**
 * A /proc file's text. Deno 2 reads /proc/<pid>/ only with --allow-all, so a refused read goes through `cat` (which
 * --allow-run allows): the same bytes, so a daemon started on Deno records the identity a Node client reads.
 */
async function readProc(io: IdentityIo, path: string): Promise<string> {
  try {
    return await io.readText(path);
  } catch (error) {
    const name = error instanceof Error ? error.name : "";
    if (name !== "NotCapable" && name !== "PermissionDenied") throw error;
    const result = await io.spawn("cat", [path], { cwd: "/", timeoutMs: 10_000, maxOutputBytes: 1024 * 1024 });
    if (result.exitCode !== 0) throw new Error(`cat ${path} exited ${result.exitCode}`);
    return result.stdout;
  }
}

/** macOS and the BSDs: `ps -o lstart=` (to the second, in UTC and the C locale so every caller reads the same). */
async function fromPs(io: IdentityIo, pid: number): Promise<ProcessIdentity | null> {
  const options: SpawnOptions = { cwd: "/", env: { TZ: "UTC", LC_ALL: "C" }, timeoutMs: 10_000, maxOutputBytes: 1024 * 1024 };
  const start = await io.spawn("ps", ["-o", "lstart=", "-p", String(pid)], options);
  const command = await io.spawn("ps", ["-ww", "-o", "command=", "-p", String(pid)], options);
  const startTime = start.stdout.trim();
  if (start.exitCode !== 0 || command.exitCode !== 0 || !startTime) return null;
  return { startTime, command: command.stdout.trim() };
}
