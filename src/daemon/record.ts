import { join } from "node:path";
import { z } from "zod";
import type { DaemonSupport, Runtime } from "../runtime/types.ts";
import { DAEMON_MODE } from "./protocol.ts";

/** The record a live daemon keeps in the state directory: how clients find it and tell whether it is theirs. */
export interface DaemonRecord {
  pid: number;
  /** ISO time it started. */
  startedAt: string;
  socket: string;
  version: string;
  protocol: number;
  root: string;
  /** A random secret of this daemon: its welcome must carry it (null in an earlier version's record). */
  token: string | null;
  /** Its process's start time as the OS reports it (Runtime.processIdentity); null when the OS could not tell. */
  startTime: string | null;
}

/**
 * Where a daemon's record lives: in the state directory, beside the ownership lock (service/project/ownership.ts).
 * JSON inside but no `.json` name: a user's own `eslint .` or `prettier --check .` would take it for theirs.
 */
export function recordFile(stateDir: string): string {
  return join(stateDir, "daemon.record");
}

/** The name earlier versions used: read too, so a client finds (and replaces) a daemon of such a version. */
const LEGACY_RECORD = "daemon.json";

/**
 * The record of an earlier version, which no daemon of this one overwrites: removed by the daemon that takes the
 * lock, or a killed old daemon's record would name its pid (maybe reused by then) to every later client.
 */
export function legacyRecordFile(stateDir: string): string {
  return join(stateDir, LEGACY_RECORD);
}

/** A string, or null when absent, empty or not a string. */
const orNull = z.unknown().transform((value) => (typeof value === "string" && value !== "" ? value : null));

/** The record as read back: anything else in the file is damage, as good as no record. */
const DaemonRecordSchema = z.object({
  pid: z.int().positive(),
  startedAt: z.string(),
  socket: z.string(),
  version: z.string(),
  protocol: z.number(),
  root: z.string(),
  // An earlier version's record has neither token nor start time: such a daemon is never signalled.
  token: orNull,
  startTime: orNull,
});

function readRecord(value: unknown): DaemonRecord | null {
  const parsed = DaemonRecordSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** The record a starting daemon prints on its ready line (`ready <json>`), read as the file is; null when it holds none. */
export function readyRecord(json: string): DaemonRecord | null {
  try {
    return readRecord(JSON.parse(json));
  } catch {
    // Not JSON: no record, as a damaged file is none.
    return null;
  }
}

/** The daemon record, or null when there is none or it is damaged (a damaged record is as good as none). */
export async function readDaemonRecord(runtime: Runtime, stateDir: string): Promise<DaemonRecord | null> {
  for (const path of [recordFile(stateDir), legacyRecordFile(stateDir)]) {
    try {
      const parsed = readRecord(JSON.parse(await runtime.readText(path)));
      if (parsed) return parsed;
    } catch {
      // none there, or damaged: as good as none
    }
  }
  return null;
}

/**
 * Whether the recorded pid is still the recorded daemon, as the OS tells: "identified" (same start time, and a
 * command line with the daemon mode), "other" (a reused pid: a stale record), "gone", or "unknown" (the OS cannot
 * tell, or the record has no start time): only an identified daemon is ever signalled.
 */
export async function identifyDaemon(runtime: Runtime, record: DaemonRecord): Promise<"identified" | "other" | "gone" | "unknown"> {
  if (!runtime.processAlive(record.pid)) return "gone";
  const seen = await runtime.processIdentity(record.pid);
  if (!seen) return runtime.processAlive(record.pid) ? "unknown" : "gone";
  if (seen.startTime !== record.startTime && record.startTime !== null) return "other";
  if (!seen.command.includes(DAEMON_MODE)) return "other";
  return record.startTime === null ? "unknown" : "identified";
}

/** Signal the recorded daemon only once the OS identifies it as that daemon; whether it was signalled. */
export async function signalDaemon(runtime: Runtime, support: DaemonSupport, record: DaemonRecord, signal: "SIGTERM" | "SIGKILL"): Promise<boolean> {
  if ((await identifyDaemon(runtime, record)) !== "identified") return false;
  support.kill(record.pid, signal);
  return true;
}
