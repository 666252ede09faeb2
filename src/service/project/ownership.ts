import { join } from "node:path";
import { ifMissing } from "../../core/errors.ts";
import type { Runtime } from "../../runtime/types.ts";

/** The ownership lock of a state directory: the pid of the one process that may write it. */
export function ownershipLock(stateDir: string): string {
  return join(stateDir, "owner.lock");
}

/** How long a lock without a pid is taken for one being written (created, its pid not yet in it), not abandoned. */
const UNWRITTEN_LOCK_MS = 10_000;

/**
 * The pid holding a lock, or null when it is free (no file, or one without a pid left long ago by a crash); -1 while
 * a just-created lock has no pid in it yet (taking that over would delete a fresh lock); unreadable: an error.
 */
async function lockHolder(runtime: Runtime, lock: string): Promise<number | null> {
  const text = await runtime.readText(lock).catch(ifMissing(null));
  if (text === null) return null;
  const pid = Number.parseInt(text, 10);
  if (Number.isSafeInteger(pid) && pid > 0) return pid;
  const info = await runtime.stat(lock);
  return info && Date.now() - info.mtimeMs < UNWRITTEN_LOCK_MS ? -1 : null;
}

/**
 * Take the project's ownership lock for this process: only its holder writes the state directory (the daemon, or an
 * in-process service where no daemon runs). A lock whose holder is gone is taken over, one taker at a time (a second
 * lock file serializes take-overs, so two takers never delete each other's fresh lock). Null once this process holds
 * it; else the pid of the live holder (-1 while another process is creating the lock or taking it over).
 */
export async function takeOwnership(runtime: Runtime, stateDir: string, pid: number): Promise<number | null> {
  const lock = ownershipLock(stateDir);
  const takeover = `${lock}.takeover`;
  for (let attempt = 0; attempt < 4; attempt++) {
    if (await runtime.createExclusive(lock, String(pid))) return null;
    const holder = await lockHolder(runtime, lock);
    if (holder === pid) return null;
    if (holder === -1 || (holder !== null && runtime.processAlive(holder))) return holder;
    if (await runtime.createExclusive(takeover, String(pid))) {
      try {
        // Still the same stale lock (nobody replaced it meanwhile): it may go.
        if ((await lockHolder(runtime, lock)) === holder) await runtime.removeFile(lock).catch(() => {});
      } finally {
        await runtime.removeFile(takeover).catch(() => {});
      }
    } else {
      // A take-over whose taker is gone (or that never got a pid) is abandoned: it may go.
      const taker = await lockHolder(runtime, takeover);
      if (taker === null || (taker > 0 && !runtime.processAlive(taker))) await runtime.removeFile(takeover).catch(() => {});
    }
  }
  return (await lockHolder(runtime, lock)) ?? -1;
}

/** Give the lock up if `pid` still holds it (a process deemed gone may have been replaced: never free another's lock). */
export async function releaseOwnership(runtime: Runtime, stateDir: string, pid: number): Promise<void> {
  const lock = ownershipLock(stateDir);
  // An unreadable lock cannot be shown to be ours: it stays (its holder, or a take-over once it is gone, decides).
  const holder = await lockHolder(runtime, lock).catch((error: unknown) => error);
  if (holder === pid) await runtime.removeFile(lock).catch(() => {});
}
