import { join } from "node:path";
import { z } from "zod";
import { ifMissing } from "../../core/errors.ts";
import type { Runtime } from "../../runtime/types.ts";

/** The ownership lock of a state directory: the pid and OS start time of the one process that may write it. */
export function ownershipLock(stateDir: string): string {
  return join(stateDir, "owner.lock");
}

/** How long a lock without a pid is taken for one being written (created, its pid not yet in it), not abandoned. */
const UNWRITTEN_LOCK_MS = 10_000;

/** Who a lock (or take-over) file names: `legacy` for an earlier version's plain pid, without a start time. */
interface LockHolder {
  pid: number;
  startTime: string | null;
  legacy: boolean;
  /** The file's text (a lock is replaced only while it still says exactly this). */
  text: string;
}

/**
 * The lock file's content for `pid`: its pid on the first line — all an earlier version reads (it would take a lock
 * without a leading pid for abandoned and take it over) — then JSON of its pid and start time (null where the OS
 * cannot tell).
 */
async function lockContent(runtime: Runtime, pid: number): Promise<LockHolder> {
  const startTime = (await runtime.processIdentity(pid))?.startTime ?? null;
  return { pid, startTime, legacy: false, text: `${pid}\n${JSON.stringify({ pid, startTime })}\n` };
}

/** The JSON line of a lock: its pid, and its start time (null where the OS could not tell, or not a string). */
const LockJsonSchema = z.object({
  pid: z.int().positive(),
  startTime: z.unknown().transform((value) => (typeof value === "string" ? value : null)),
});

/** What a lock's text says, or null when it names no pid (empty, half-written or damaged: judged by its age). */
function parseLock(text: string): LockHolder | null {
  if (/^\s*\d+\s*$/.test(text)) return { pid: Number(text), startTime: null, legacy: true, text };
  try {
    const value = LockJsonSchema.safeParse(JSON.parse(text.slice(text.indexOf("\n") + 1)));
    const pid = Number.parseInt(text, 10);
    return value.success && value.data.pid === pid ? { pid, startTime: value.data.startTime, legacy: false, text } : null;
  } catch {
    // Not JSON after the first line (half-written or damaged): no pid named.
    return null;
  }
}

/**
 * Who holds a lock file, or null when it is free (no file, or one without a pid left long ago by a crash);
 * "unwritten" while a just-created lock has no pid in it yet (taking that over would delete a fresh lock);
 * unreadable: an error.
 */
async function lockHolder(runtime: Runtime, lock: string): Promise<LockHolder | "unwritten" | null> {
  const text = await runtime.readText(lock).catch(ifMissing(null));
  if (text === null) return null;
  const holder = parseLock(text);
  if (holder) return holder;
  const info = await runtime.stat(lock);
  return info && Date.now() - info.mtimeMs < UNWRITTEN_LOCK_MS ? "unwritten" : null;
}

/**
 * Whether a lock's holder still holds it: its pid alive AND the same process that wrote it (the OS's start time),
 * so a reused pid, an unrelated live pid planted in the lock or one copied along with the directory holds nothing.
 * An earlier version's plain pid holds only while that pid runs Signalint. Where the OS cannot tell a
 * process's start time, a live pid holds (taking a live owner's lock would be worse).
 */
async function holds(runtime: Runtime, holder: LockHolder): Promise<boolean> {
  if (!runtime.processAlive(holder.pid)) return false;
  const seen = await runtime.processIdentity(holder.pid);
  if (!seen) return runtime.processAlive(holder.pid);
  if (holder.legacy) return /signalint/i.test(seen.command);
  return holder.startTime === null || holder.startTime === seen.startTime;
}

/** Whether the lock was written by `own` (this process): its pid and start time, in this version's form. */
const isOwn = (holder: LockHolder | "unwritten" | null, own: LockHolder) =>
  holder !== null && holder !== "unwritten" && !holder.legacy && holder.pid === own.pid && holder.startTime === own.startTime;

/**
 * Take the project's ownership lock for this process: only its holder writes the state directory (the daemon, or an
 * in-process service where no daemon runs). A lock whose holder is gone is taken over, one taker at a time (a second
 * lock file serializes take-overs, so two takers never delete each other's fresh lock). Null once this process holds
 * it; else the pid of the live holder (-1 while another process is creating the lock or taking it over).
 */
export async function takeOwnership(runtime: Runtime, stateDir: string, pid: number): Promise<number | null> {
  const lock = ownershipLock(stateDir);
  const takeover = `${lock}.takeover`;
  const own = await lockContent(runtime, pid);
  for (let attempt = 0; attempt < 4; attempt++) {
    if (await runtime.createExclusive(lock, own.text)) return null;
    const holder = await lockHolder(runtime, lock);
    if (isOwn(holder, own)) return null;
    if (holder === "unwritten") return -1;
    if (holder !== null && (await holds(runtime, holder))) return holder.pid;
    if (await runtime.createExclusive(takeover, own.text)) {
      try {
        // Still the same stale lock (nobody replaced it meanwhile): it may go.
        const now = await lockHolder(runtime, lock);
        // Another taker removed it first, or it cannot go: the retry reads the lock again.
        if (holder === null ? now === null : now !== null && now !== "unwritten" && now.text === holder.text) await runtime.removeFile(lock).catch(() => {});
      } finally {
        // Best effort: an abandoned take-over is removed by the next taker.
        await runtime.removeFile(takeover).catch(() => {});
      }
    } else {
      // A take-over whose taker is gone (or that never got a pid) is abandoned: it may go.
      const taker = await lockHolder(runtime, takeover);
      // Another taker removed it first, or it cannot go: the retry reads it again.
      if (taker === null || (taker !== "unwritten" && !(await holds(runtime, taker)))) await runtime.removeFile(takeover).catch(() => {});
    }
  }
  const holder = await lockHolder(runtime, lock);
  return holder === null || holder === "unwritten" ? -1 : holder.pid;
}

/** Give the lock up if `pid` still holds it (a process deemed gone may have been replaced: never free another's lock). */
export async function releaseOwnership(runtime: Runtime, stateDir: string, pid: number): Promise<void> {
  const lock = ownershipLock(stateDir);
  // An unreadable lock cannot be shown to be ours: it stays (its holder, or a take-over once it is gone, decides).
  const holder = await lockHolder(runtime, lock).then(
    (found) => found,
    () => "unreadable" as const,
  );
  // Releasing: a lock that cannot go names a gone pid, which the next taker sees.
  if (holder !== "unreadable" && isOwn(holder, await lockContent(runtime, pid))) await runtime.removeFile(lock).catch(() => {});
}
