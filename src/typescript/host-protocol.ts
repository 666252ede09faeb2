// The messages between the server and a warm TypeScript host (see warm-host.ts and warm-host-client.ts): framed by
// core/framing.ts (as the daemon's are) on the host's stdin and stdout, versioned (`v` on every message), and validated
// on arrival by a schema per message kind. Anything else on the channel is a broken peer.
import { z } from "zod";
import { EngineNameSchema, SeveritySchema } from "../core/contracts.ts";
import { encodeFrame } from "../core/framing.ts";
import type { IssueCause, RawIssue } from "../core/issues.ts";
import type { ChangeHint } from "./change-hint.ts";
import type { WarmCheckInfo } from "./warm-builder.ts";
import type { PersistTarget } from "./persisted-state.ts";
import type { TsconfigListing } from "./tsconfig.ts";
import type { ProgramDependents } from "./dependents.ts";

export type { ProgramDependents };

/**
 * Bumped whenever a host message changes shape (2: core/framing.ts's frames instead of length-prefixed lines, `v` on
 * every message; 3: a check's named files first, `first` and `pending`; 4: the files that import the named ones,
 * `dependentsOf` and `dependents`; 5: `dependents` says which named files the program holds; 6: kind "svelte" and a
 * failure's `restart`; 7: kind "vue"). A host is started from the installed bundle,
 * which an upgrade can replace under a running server.
 */
export const HOST_PROTOCOL = 7;

export { WARM_HOST_MODE } from "./host-mode.ts";

/**
 * Which warm program a host keeps: "project" is a plain tsconfig (TypeScript 5/6 compiler API, or a TypeScript 7
 * tsgo server); "solution" is a config with project references built as `tsc -b` builds it (warm-solution.ts,
 * TypeScript 5.6+/6.x); "svelte" is a program the project's scripts run svelte-check on, kept by the project's own
 * svelte-check (warm-svelte.ts; `typescriptDir` is then svelte-check's package); "vue" is a program its scripts run
 * vue-tsc on, a warm program of the compiler the project's own vue-tsc makes (vue-parts.ts; `typescriptDir` is
 * vue-tsc's package). Each kind is one case in warm-host.ts's createProgram.
 */
export type WarmKind = "project" | "solution" | "svelte" | "vue";

/** One check asked of a host. A host keeps one program: every request it gets names the same one. */
export interface HostRequest {
  id: number;
  kind: WarmKind;
  typescriptDir: string;
  configPath: string;
  /** Working directory of a TypeScript 7 server (the project root). */
  cwd: string;
  /** How file-less diagnostics name the config (project-relative). */
  configFile: string;
  /** Module resolutions may have moved (a package install): redo them. */
  invalidate: boolean;
  /** What the server's file watch saw change (see change-hint.ts); null: re-ask every recorded answer. */
  hint?: ChangeHint | null;
  /**
   * Solutions only: check this other config (a referenced project with references of its own) as `tsc -b <view>`,
   * with the projects and declarations the hosted solution keeps; `configFile` then names the view's config.
   */
  view?: string;
  /** Where the host keeps the program's incremental state between hosts (null or absent: nowhere). */
  persist?: PersistTarget | null;
  /**
   * A server's prewarm: build the program before any check asks, unless a stored answer holds — that one is left for
   * the first check (answered from disk then, as without a prewarm). The reply is a check's; nobody reads its issues.
   */
  prewarm?: boolean;
  /** The server stops after this check (a one-shot CLI): an answer from disk is not followed by a build nobody uses. */
  last?: true;
  /** TypeScript 7: the server looked at the stored answer already and it does not hold (see one-shot-answer.ts). */
  storedLooked?: true;
  /**
   * A plain TypeScript 5/6 program (or vue-tsc's): answer these files' diagnostics (absolute paths) before the rest is re-checked; the
   * reply then says `pending` and the host's next check of the program collects the whole answer. Other kinds ignore it.
   */
  first?: string[];
  /**
   * A plain TypeScript 5/6 program (or vue-tsc's): also say which of its files import these (absolute paths), directly or through
   * others (see dependents.ts): ESLint's typed rules lint them too. Other kinds ignore it (the reply then has none).
   */
  dependentsOf?: string[];
}

/**
 * A listing asked of a host: a config's files and references as its compiler parses them, with no program built. The
 * server's first check lists its configs this way in the host it then checks in (the compiler loaded once, in the
 * host), rather than in a `tsc --showConfig` process of its own. Without a config (null) the host only loads the
 * compiler: a server's start, so that its first check finds it loaded.
 */
export interface ListingRequest {
  id: number;
  listing: { typescriptDir: string; configPath: string | null };
  /** The project's cache directory (see HostRequest.persist): where Node keeps the compiler's compiled code. */
  cacheDir?: string | null;
}

/** A listing's answer (see TsconfigListing; null: no config was asked). */
export type ListingReply = { id: number; ok: true; listing: TsconfigListing | null; rssBytes: number };

/**
 * A host's answer. Issues carry absolute file names (the server maps them to the project); `unsupported`: this
 * TypeScript has no usable API, or the config is one the program kind does not serve (the command line does).
 * `rssBytes` is the host's resident memory after the check; `covers`: the configs a hosted solution has built (views of
 * it can serve them).
 */
export type HostReply =
  /** `pending`: only the request's `first` files were checked; this many other files of the program are still to be (at most). */
  /**
   * `dependents`: the request's `dependentsOf` answered, with the named files the program holds (absent: not asked, or
   * the program could not tell).
   */
  | {
      id: number;
      ok: true;
      issues: RawIssue[];
      info: WarmCheckInfo;
      files: string[];
      covers: string[];
      rssBytes: number;
      pending?: number;
      dependents?: ProgramDependents;
    }
  /**
   * `code`: "protocol_version" when the host speaks another HOST_PROTOCOL (then `unsupported`: the command line
   * answers). `restart`: this host cannot answer for what changed (modules it loaded, a config loaded by import); the
   * command line answers this check and a new host the next, nothing failed.
   */
  | { id: number; ok: false; unsupported: boolean; error: string; rssBytes: number; code?: "protocol_version"; restart?: true }
  | ListingReply;

const HintSchema: z.ZodType<ChangeHint> = z
  .object({
    seq: z.number(),
    since: z.number(),
    changes: z.array(z.tuple([z.string(), z.number()])),
    root: z.string(),
    uncovered: z.array(z.string()),
    caseSensitive: z.boolean(),
  })
  .strict();

const RequestSchema: z.ZodType<HostRequest> = z
  .object({
    id: z.number().int().positive(),
    kind: z.enum(["project", "solution", "svelte", "vue"]),
    typescriptDir: z.string(),
    configPath: z.string(),
    cwd: z.string(),
    configFile: z.string(),
    invalidate: z.boolean(),
    hint: HintSchema.nullable().optional(),
    view: z.string().optional(),
    persist: z
      .object({ dir: z.string(), evictBase: z.string().nullable(), maxBytes: z.number().nonnegative(), version: z.string() })
      .strict()
      .nullable()
      .optional(),
    prewarm: z.boolean().optional(),
    last: z.literal(true).optional(),
    storedLooked: z.literal(true).optional(),
    first: z.array(z.string()).optional(),
    dependentsOf: z.array(z.string()).optional(),
  })
  .strict();

const ListingRequestSchema: z.ZodType<ListingRequest> = z
  .object({
    id: z.number().int().positive(),
    listing: z.object({ typescriptDir: z.string(), configPath: z.string().nullable() }).strict(),
    cacheDir: z.string().nullable().optional(),
  })
  .strict();

/** Either request a host serves: a check of its program, or a listing. */
const AnyRequestSchema = z.union([RequestSchema, ListingRequestSchema]);

const CauseSchema: z.ZodType<IssueCause> = z
  .object({
    file: z.string(),
    name: z.string(),
    line: z.number(),
    member: z.object({ name: z.string(), line: z.number() }).strict().optional(),
    absent: z.string().optional(),
    module: z.literal(true).optional(),
    role: z.literal("source").optional(),
  })
  .strict();

const IssueSchema: z.ZodType<RawIssue> = z
  .object({
    file: z.string(),
    line: z.number(),
    col: z.number(),
    engine: EngineNameSchema,
    rule: z.string(),
    severity: SeveritySchema,
    message: z.string(),
    fixable: z.boolean(),
    programWide: z.boolean().optional(),
    causes: z.array(CauseSchema).optional(),
  })
  .strict();

const Id = z.number().int().positive();
const Rss = z.number().nonnegative();
const ReplySchema: z.ZodType<HostReply> = z.union([
  z
    .object({
      id: Id,
      ok: z.literal(true),
      issues: z.array(IssueSchema),
      // A solution's answer also lists its projects; the server reads only these.
      info: z.object({
        reuse: z.enum(["reused", "incremental", "full", "restored"]),
        changedFiles: z.number(),
        programFiles: z.number(),
        notice: z.string().optional(),
        stored: z.literal(true).optional(),
      }),
      files: z.array(z.string()),
      covers: z.array(z.string()),
      rssBytes: Rss,
      pending: z.number().int().nonnegative().optional(),
      dependents: z
        .object({ held: z.array(z.string()), files: z.array(z.string()) })
        .strict()
        .optional(),
    })
    .strict(),
  z
    .object({
      id: Id,
      ok: z.literal(false),
      unsupported: z.boolean(),
      error: z.string(),
      rssBytes: Rss,
      code: z.literal("protocol_version").optional(),
      restart: z.literal(true).optional(),
    })
    .strict(),
  z
    .object({
      id: Id,
      ok: z.literal(true),
      listing: z
        .object({ files: z.array(z.string()).nullable(), references: z.array(z.string()) })
        .strict()
        .nullable(),
      rssBytes: Rss,
    })
    .strict(),
]);

/**
 * A message on the host channel that is not one of the kind expected there: `code` "protocol_version" when it is of
 * another HOST_PROTOCOL (`id`: the request it names, when it names one, so the host can answer it), else "host_protocol".
 */
export class HostProtocolError extends Error {
  constructor(
    message: string,
    readonly code: "host_protocol" | "protocol_version" = "host_protocol",
    readonly id?: number,
  ) {
    super(message);
    this.name = "HostProtocolError";
  }
}

/** One message as one frame (core/framing.ts), with this side's HOST_PROTOCOL. */
export function encodeHostMessage(message: HostRequest | ListingRequest | HostReply): Uint8Array {
  return encodeFrame({ v: HOST_PROTOCOL, ...message });
}

/** A frame's message without its `v`; throws HostProtocolError for a non-object or another protocol version. */
function unversioned(value: unknown, kind: string): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new HostProtocolError(`not a ${kind}: ${excerpt(value)}`);
  const { v, ...message } = value as Record<string, unknown>;
  if (v === HOST_PROTOCOL) return message;
  const id = Id.safeParse(message.id);
  throw new HostProtocolError(
    `a ${kind} of host protocol ${JSON.stringify(v) ?? "none"}; this side speaks ${HOST_PROTOCOL}`,
    "protocol_version",
    id.success ? id.data : undefined,
  );
}

function validated<T>(schema: z.ZodType<T>, kind: string, value: unknown): T {
  const parsed = schema.safeParse(unversioned(value, kind));
  if (!parsed.success) throw new HostProtocolError(`not a ${kind} (${parsed.error.issues[0]?.message ?? "invalid"}): ${excerpt(value)}`);
  return parsed.data;
}

/** A request as the host reads it from a frame; throws HostProtocolError for anything else. */
export function readRequest(value: unknown): HostRequest | ListingRequest {
  return validated(AnyRequestSchema, "host request", value);
}

/** A reply as the server reads it from a frame; throws HostProtocolError for anything else. */
export function readReply(value: unknown): HostReply {
  return validated(ReplySchema, "host reply", value);
}

/** The host's answer to a request of another protocol version: unsupported, so the server's command line answers. */
export function versionRefusal(id: number, reason: string, rssBytes: number): HostReply {
  return { id, ok: false, unsupported: true, error: reason, rssBytes, code: "protocol_version" };
}

/** A reply made in the server's own process (see one-shot-answer.ts), held to the same shape as one read from a host. */
export function checkReply(value: unknown): HostReply {
  const parsed = ReplySchema.safeParse(value);
  if (!parsed.success) throw new HostProtocolError(`not a host reply (${parsed.error.issues[0]?.message ?? "invalid"})`);
  return parsed.data;
}

/** At most 200 characters of an offending message's JSON, for a message. */
function excerpt(value: unknown): string {
  const json = JSON.stringify(value) ?? String(value);
  return json.length > 200 ? `${json.slice(0, 200)}…` : json;
}
