import { join } from "node:path";
import { ifMissing } from "../../core/errors.ts";
import type { Runtime } from "../../runtime/types.ts";

/** The ownership lock of a state directory: the pid of the one process that may write it. */
export function ownershipLock(stateDir: string): string {
  return join(stateDir, "owner.lock");
}

/** The pid holding the ownership lock, or null when the lock is free (no file, or no pid in it); unreadable: an error. */
async function lockHolder(runtime: Runtime, lock: string): Promise<number | null> {
  const text = await runtime.readText(lock).catch(ifMissing(""));
  const pid = Number.parseInt(text, 10);
  return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
}

/**
 * Take the project's ownership lock for this process: only its holder writes the state directory (the daemon, or an
 * in-process service where no daemon runs). A lock whose holder is gone is taken over, one taker at a time (a second
 * lock file serializes take-overs, so two takers never delete each other's fresh lock). Null once this process holds
 * it; else the pid of the live holder (-1 when a take-over by another process is still under way).
 */
export async function takeOwnership(runtime: Runtime, stateDir: string, pid: number): Promise<number | null> {
  const lock = ownershipLock(stateDir);
  const takeover = `${lock}.takeover`;
  for (let attempt = 0; attempt < 4; attempt++) {
    if (await runtime.createExclusive(lock, String(pid))) return null;
    const holder = await lockHolder(runtime, lock);
    if (holder === pid) return null;
    if (holder !== null && runtime.processAlive(holder)) return holder;
    if (await runtime.createExclusive(takeover, String(pid))) {
      try {
        // Still the same stale lock (nobody replaced it meanwhile): it may go.
        if ((await lockHolder(runtime, lock)) === holder) await runtime.removeFile(lock).catch(() => {});
      } finally {
        await runtime.removeFile(takeover).catch(() => {});
      }
    } else {
      const taker = await lockHolder(runtime, takeover);
      if (taker !== null && !runtime.processAlive(taker)) await runtime.removeFile(takeover).catch(() => {});
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
