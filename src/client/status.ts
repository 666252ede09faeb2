import { readDaemonRecord, type DaemonRecord } from "../daemon/record.ts";
import type { Runtime } from "../runtime/types.ts";
import type { ServiceInfo } from "../service/api.ts";
import { DaemonConnection } from "./connection.ts";

/** A daemon that answered: its record and what it says of itself (pid, memory of it and of its warm hosts). */
export interface RunningDaemon {
  record: DaemonRecord;
  info: ServiceInfo;
}

/**
 * The project's daemon when one is running and answers as this project's (never starts one): for `daemon status` and
 * `doctor`. Null when no record, its process is gone, or nothing answers on its socket.
 */
export async function runningDaemon(runtime: Runtime, project: { stateDir: string; root: string }): Promise<RunningDaemon | null> {
  const support = runtime.daemon;
  const record = support ? await readDaemonRecord(runtime, project.stateDir) : null;
  if (!support || !record || !runtime.processAlive(record.pid)) return null;
  const opened = await DaemonConnection.open(support, record, project.root);
  if (!(opened instanceof DaemonConnection)) return null;
  try {
    return { record, info: await opened.api.info() };
  } finally {
    opened.close();
  }
}
