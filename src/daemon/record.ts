import { join } from "node:path";
import type { DaemonSupport, Runtime } from "../runtime/types.ts";

/** The record a live daemon keeps in the state directory: how clients find it and tell whether it is theirs. */
export interface DaemonRecord {
  pid: number;
  /** ISO time it started. */
  startedAt: string;
  socket: string;
  version: string;
  protocol: number;
  root: string;
}

/** Where the record, the ownership lock and the daemon's log live in a state directory. */
export function daemonFiles(stateDir: string): { record: string; lock: string; log: string } {
  return { record: join(stateDir, "daemon.json"), lock: join(stateDir, "daemon.lock"), log: join(stateDir, "daemon.log") };
}

function isRecord(value: unknown): value is DaemonRecord {
  const record = value as DaemonRecord;
  return (
    typeof value === "object" &&
    value !== null &&
    Number.isSafeInteger(record.pid) &&
    typeof record.startedAt === "string" &&
    typeof record.socket === "string" &&
    typeof record.version === "string" &&
    typeof record.protocol === "number" &&
    typeof record.root === "string"
  );
}

/** The daemon record, or null when there is none or it is damaged (a damaged record is as good as none). */
export async function readDaemonRecord(runtime: Runtime, stateDir: string): Promise<DaemonRecord | null> {
  try {
    const parsed: unknown = JSON.parse(await runtime.readText(daemonFiles(stateDir).record));
    return isRecord(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** The pid holding the ownership lock, or null when the lock is free (no file, or an unreadable one). */
async function lockHolder(runtime: Runtime, lock: string): Promise<number | null> {
  const text = await runtime.readText(lock).catch(() => "");
  const pid = Number.parseInt(text, 10);
  return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
}

/**
 * Take the project's ownership lock for this process: only its holder writes the state directory (the daemon, or an
 * in-process service where no daemon runs). A lock whose holder is gone is taken over, one taker at a time (a second
 * lock file serializes take-overs, so two takers never delete each other's fresh lock). Null once this process holds
 * it; else the pid of the live holder (-1 when a take-over by another process is still under way).
 */
export async function takeOwnership(
  runtime: Runtime,
  support: Pick<DaemonSupport, "alive" | "createExclusive">,
  stateDir: string,
  pid: number,
): Promise<number | null> {
  const { lock } = daemonFiles(stateDir);
  const takeover = `${lock}.takeover`;
  for (let attempt = 0; attempt < 4; attempt++) {
    if (await support.createExclusive(lock, String(pid))) return null;
    const holder = await lockHolder(runtime, lock);
    if (holder === pid) return null;
    if (holder !== null && support.alive(holder)) return holder;
    if (await support.createExclusive(takeover, String(pid))) {
      try {
        // Still the same stale lock (nobody replaced it meanwhile): it may go.
        if ((await lockHolder(runtime, lock)) === holder) await runtime.removeFile(lock).catch(() => {});
      } finally {
        await runtime.removeFile(takeover).catch(() => {});
      }
    } else {
      const taker = await lockHolder(runtime, takeover);
      if (taker !== null && !support.alive(taker)) await runtime.removeFile(takeover).catch(() => {});
    }
  }
  return (await lockHolder(runtime, lock)) ?? -1;
}

/** Give the lock and the record up (only the holder calls this). */
export async function releaseOwnership(runtime: Runtime, stateDir: string): Promise<void> {
  const { lock, record } = daemonFiles(stateDir);
  await runtime.removeFile(record).catch(() => {});
  await runtime.removeFile(lock).catch(() => {});
}
