import { API_METHODS, type ServiceApi } from "../service/api.ts";
import type { CheckEvent } from "../service/check/check-events.ts";
import { compareVersions } from "../core/semver.ts";

/** Bumped whenever a message or method changes shape (2: the welcome's token, the refusal's `draining`). */
export const DAEMON_PROTOCOL = 2;

/** The hidden mode argument that runs the daemon (main.ts). */
export const DAEMON_MODE = "__signalint-daemon";

/** What a client sends. */
export type ClientMessage =
  /** `env`: the client's environment; every call of this connection runs in it (the Nx daemon's per-client env). */
  | { t: "hello"; protocol: number; version: string; root: string; env?: Record<string, string> }
  | { t: "call"; id: number; method: keyof ServiceApi; params: unknown; session?: string }
  | { t: "cancel"; id: number };

/** What the daemon sends. */
export type DaemonMessage =
  /** `token` is the daemon record's: a client accepts a welcome only with it (whoever answers is the recorded one). */
  | { t: "welcome"; protocol: number; version: string; pid: number; root: string; token: string }
  | { t: "result"; id: number; value: unknown }
  | { t: "error"; id: number; code: string; message: string }
  | { t: "event"; id: number; event: CheckEvent }
  /**
   * The daemon will not serve this client: `draining` when it is going away (shutting down, or replaced by this
   * newer client: start another once it is gone), else for good (an older client of another protocol, another root).
   */
  | { t: "refused"; reason: string; draining: boolean };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Absent, or variables as strings (a client's environment). */
function isEnvironment(value: unknown): boolean {
  return value === undefined || (isRecord(value) && Object.values(value).every((entry) => typeof entry === "string"));
}

const isId = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

/** The message a client sent, or null when it is not one (the daemon then closes that client). */
export function readClientMessage(value: unknown): ClientMessage | null {
  if (!isRecord(value)) return null;
  if (value.t === "hello")
    return typeof value.protocol === "number" && typeof value.version === "string" && typeof value.root === "string" && isEnvironment(value.env)
      ? (value as ClientMessage)
      : null;
  if (value.t === "call") {
    const known = (API_METHODS as readonly unknown[]).includes(value.method);
    return isId(value.id) && known && (value.session === undefined || typeof value.session === "string") ? (value as ClientMessage) : null;
  }
  if (value.t === "cancel") return isId(value.id) ? (value as ClientMessage) : null;
  return null;
}

/** The message the daemon sent, or null when it is not one (the client then drops the connection). */
export function readDaemonMessage(value: unknown): DaemonMessage | null {
  if (!isRecord(value)) return null;
  switch (value.t) {
    case "welcome":
      return typeof value.protocol === "number" &&
        typeof value.version === "string" &&
        isId(value.pid) &&
        typeof value.root === "string" &&
        typeof value.token === "string"
        ? (value as DaemonMessage)
        : null;
    case "result":
      return isId(value.id) && "value" in value ? (value as DaemonMessage) : null;
    case "error":
      return isId(value.id) && typeof value.code === "string" && typeof value.message === "string" ? (value as DaemonMessage) : null;
    case "event":
      return isId(value.id) && isRecord(value.event) ? (value as DaemonMessage) : null;
    case "refused":
      // An earlier protocol's refusal has no `draining`: such a daemon drains for every other client.
      return typeof value.reason === "string" ? { t: "refused", reason: value.reason, draining: value.draining !== false } : null;
    default:
      return null;
  }
}

/**
 * How a daemon of `ours` meets a client of `theirs`: "serve" (the same, or an older client of the same protocol),
 * "replace" (a newer client: the daemon drains), "refuse" (an older client of another protocol: it checks
 * in-process). Newer means a higher version, or the same version with a higher protocol; two installs of different
 * versions thus never evict each other in a loop.
 */
export function versionVerdict(ours: { version: string; protocol: number }, theirs: { version: string; protocol: number }): "serve" | "replace" | "refuse" {
  const order = compareVersions(theirs.version, ours.version) || Math.sign(theirs.protocol - ours.protocol);
  if (order > 0) return "replace";
  return theirs.protocol === ours.protocol ? "serve" : "refuse";
}
