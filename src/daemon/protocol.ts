import { z } from "zod";
import { API_METHODS } from "../service/api.ts";
import type { CheckEvent } from "../service/job/check-events.ts";
import { compareVersions } from "../core/semver.ts";

// The messages between a client and its project's daemon (server.ts, client/connection.ts): framed by framing.ts and
// validated on arrival by a schema per message kind, as the warm host's are (typescript/host-protocol.ts). A message
// that is not one of them closes that peer's connection.

/** Bumped whenever a message or method changes shape (2: the welcome's token, the refusal's `draining`; 3: preview by issues, apply's verify). */
export const DAEMON_PROTOCOL = 3;

/** The hidden mode argument that runs the daemon (main.ts). */
export const DAEMON_MODE = "__signalint-daemon";

/** A call id: a safe non-negative integer. */
const Id = z.int().nonnegative();

/** `env`: the client's environment; every call of this connection runs in it (the Nx daemon's per-client env). */
const HelloSchema = z.object({
  t: z.literal("hello"),
  protocol: z.number(),
  version: z.string(),
  root: z.string(),
  env: z.record(z.string(), z.string()).optional(),
});

/** What a client sends, one schema per kind. */
const ClientMessageSchema = z.discriminatedUnion("t", [
  HelloSchema,
  z.object({ t: z.literal("call"), id: Id, method: z.enum(API_METHODS), params: z.unknown().optional(), session: z.string().optional() }),
  z.object({ t: z.literal("cancel"), id: Id }),
]);

/** A progress event of a call (service/job/check-events.ts): an object, passed on as the daemon's check sent it. */
const CheckEventSchema = z.custom<CheckEvent>((value) => typeof value === "object" && value !== null && !Array.isArray(value));

/** What the daemon sends, one schema per kind. */
const DaemonMessageSchema = z.discriminatedUnion("t", [
  /** `token` is the daemon record's: a client accepts a welcome only with it (whoever answers is the recorded one). */
  z.object({ t: z.literal("welcome"), protocol: z.number(), version: z.string(), pid: Id, root: z.string(), token: z.string() }),
  // A result carries `value` even when it is undefined on the daemon's side (JSON drops it: then absent, read as such).
  z.looseObject({ t: z.literal("result"), id: Id, value: z.unknown() }).refine((message) => "value" in message),
  z.object({ t: z.literal("error"), id: Id, code: z.string(), message: z.string() }),
  z.object({ t: z.literal("event"), id: Id, event: CheckEventSchema }),
  /**
   * The daemon will not serve this client: `draining` when it is going away (shutting down, or replaced by this
   * newer client: start another once it is gone), else for good (an older client of another protocol, another root).
   * An earlier protocol's refusal has no `draining`: such a daemon drains for every other client.
   */
  z.object({
    t: z.literal("refused"),
    reason: z.string(),
    draining: z
      .unknown()
      .optional()
      .transform((value) => value !== false),
  }),
]);

/** What a client sends. */
export type ClientMessage = z.output<typeof ClientMessageSchema>;

/** What the daemon sends. */
export type DaemonMessage = Exclude<z.output<typeof DaemonMessageSchema>, { t: "result" }> | { t: "result"; id: number; value: unknown };

/** The message a client sent, or null when it is not one (the daemon then closes that client). */
export function readClientMessage(value: unknown): ClientMessage | null {
  const parsed = ClientMessageSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** The message the daemon sent, or null when it is not one (the client then drops the connection). */
export function readDaemonMessage(value: unknown): DaemonMessage | null {
  const parsed = DaemonMessageSchema.safeParse(value);
  if (!parsed.success) return null;
  const message = parsed.data;
  return message.t === "result" ? { t: "result", id: message.id, value: message.value } : message;
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
