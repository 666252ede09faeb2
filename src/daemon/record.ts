import { join } from "node:path";
import type { Runtime } from "../runtime/types.ts";

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
  for (const path of [recordFile(stateDir), legacyRecordFile(stateDir)]) {
    try {
      const parsed: unknown = JSON.parse(await runtime.readText(path));
      if (isRecord(parsed)) return parsed;
    } catch {
      // none there, or damaged: as good as none
    }
  }
  return null;
}
