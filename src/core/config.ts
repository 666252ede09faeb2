import { z } from "zod";
import { ConfigError, quoteInput } from "./errors.ts";
import { parseJsonc } from "./jsonc.ts";
import { ENGINE_NAMES, type EngineName } from "./contracts.ts";
import { envValue, type EnvReader, PAYLOAD_MODES, type PayloadMode, parseBooleanEnv, resolveServerSettings } from "./server-settings.ts";

export { PAYLOAD_MODES, type PayloadMode } from "./server-settings.ts";

/** What makes the editor hook exit 2 (its output fed to the agent): errors the edit leaves, or warnings too. */
export const HOOK_FAIL_ON = ["error", "warning"] as const;

/** A strict object with one optional key per engine name: config keys follow ENGINE_NAMES. */
function perEngine<T extends z.ZodType>(value: T) {
  const shape = Object.fromEntries(ENGINE_NAMES.map((engine) => [engine, value.optional()]));
  return z.object(shape as Record<EngineName, z.ZodOptional<T>>).strict();
}

const engineFlags = perEngine(z.boolean());

const timeout = z.number().int().min(100).max(3_600_000);

/** The shape of signalint.config.json. */
export const ConfigFileSchema = z
  .object({
    $schema: z.string().optional(),
    engines: engineFlags.optional(),
    ignore: z.array(z.string().min(1)).optional(),
    timeoutsMs: perEngine(timeout).optional(),
    mcpPayload: z.enum(PAYLOAD_MODES).optional(),
    compact: z.boolean().optional(),
    maxClusters: z.number().int().min(1).max(100).optional(),
    maxRemainingIssues: z.number().int().min(0).max(1000).optional(),
    structuredMaxBytes: z.number().int().positive().optional(),
    artifactRetentionSeconds: z.number().int().min(1).max(604_800).optional(),
    warmTypeScript: z.boolean().optional(),
    warmEslint: z.boolean().optional(),
    warmTypeScriptMemoryMB: z.number().int().min(64).optional(),
    daemonIdleMinutes: z.number().min(0).max(10_080).optional(),
    oxlintTypeAware: z.boolean().optional(),
    pendingAfterMs: z.number().int().min(0).max(3_600_000).optional(),
    typedLintDependents: z.number().int().min(0).max(100_000).optional(),
    readOnly: z.boolean().optional(),
    typescript: z
      .object({ projects: z.array(z.string().min(1)).optional() })
      .strict()
      .optional(),
    hook: z
      .object({ failOn: z.enum(HOOK_FAIL_ON).optional(), budgetSeconds: z.number().min(0).max(3600).optional() })
      .strict()
      .optional(),
  })
  .strict();
export type ConfigFile = z.infer<typeof ConfigFileSchema>;

export const DEFAULT_TIMEOUTS_MS: Record<EngineName, number> = { oxlint: 120_000, tsc: 300_000, biome: 60_000, eslint: 300_000, deno: 120_000 };
/** Bound on one warm TypeScript program's host process, in MB, when the machine's memory is unknown. */
export const DEFAULT_WARM_MEMORY_MB = 2048;

/**
 * The default bound on one warm program (warmTypeScriptMemoryMB unset): a quarter of the machine's memory, at least
 * 1,024 MB (a large program on a large machine stays warm; a small machine keeps room for its other work).
 */
export function machineWarmMemoryMB(totalMemoryBytes: number | null): number {
  if (!totalMemoryBytes) return DEFAULT_WARM_MEMORY_MB;
  return Math.max(1024, Math.floor(totalMemoryBytes / 1024 ** 2 / 4));
}
/** How long check_files waits for tsc's whole re-check before it answers the named files and leaves the rest pending. */
export const DEFAULT_PENDING_AFTER_MS = 1500;
/** Files importing the named ones that an edit's check lints with ESLint's typed rules, at most (typedLintDependents). */
export const DEFAULT_TYPED_LINT_DEPENDENTS = 50;
/** How long an oversized result stays readable through artifact_read, by default. */
export const DEFAULT_ARTIFACT_RETENTION_SECONDS = 3600;
export const STRUCTURED_MAX_BYTES = { default: 262_144, min: 16_384, max: 16_777_216 };

/** Settings after applying precedence: non-empty environment → config file → default. */
export interface Settings {
  /** Explicit engine switches from the config; undefined means "decide from what the project has". */
  engines: Partial<Record<EngineName, boolean>>;
  ignore: string[];
  timeoutsMs: Record<EngineName, number>;
  payloadMode: PayloadMode;
  compact: boolean;
  maxClusters: number;
  maxRemainingIssues: number;
  structuredMaxBytes: number;
  artifactRetentionSeconds: number;
  /** Keep warm TypeScript programs in host processes (default true; SIGNALINT_WARM_TYPESCRIPT=0 turns it off). */
  warmTypeScript: boolean;
  /** Keep the project's ESLint loaded in a long-lived server (default true; SIGNALINT_WARM_ESLINT=0 turns it off). */
  warmEslint: boolean;
  /** Bound on one warm program's host process (resident MB after a check); over it, tsc runs cold for that config. */
  /** null: unset, the machine's default (machineWarmMemoryMB). */
  warmTypeScriptMemoryMB: number | null;
  /** Whether clients share the project's daemon, how long it idles before it exits, and why it is off. */
  daemon: { enabled: boolean; idleMinutes: number; off?: string };
  /** Run oxlint with --type-aware when the project has oxlint-tsgolint installed (default true). */
  oxlintTypeAware: boolean;
  /**
   * check_files / after_edit_check (and the hook): after this many ms, answer the named files' complete answer and
   * leave the rest of what tsc re-checks `pending` (it goes on in the background); default DEFAULT_PENDING_AFTER_MS.
   */
  pendingAfterMs: number;
  /**
   * check_files / after_edit_check with ESLint's typed rules: at most this many files that import the named ones are
   * linted with them (nearest first); the rest are a note (default DEFAULT_TYPED_LINT_DEPENDENTS).
   */
  typedLintDependents: number;
  /** tsconfigs checked besides the ones the project's root config and scripts name (root-relative; typescript.projects). */
  typescriptProjects: string[];
  /**
   * A read-only MCP server (readOnly, --read-only, SIGNALINT_READ_ONLY): the fix tools (preview, apply, discard) are
   * neither listed nor served, so nothing it offers writes the project's files.
   */
  readOnly: boolean;
  /** How long a request with a progressToken goes without a notification before a heartbeat (the front's setting). */
  progressHeartbeatMs: number;
  /** The bound on all projects' persisted TypeScript state, in MB (SIGNALINT_CACHE_MAX_MB); 0: not persisted. */
  persistMaxMB: number;
  /**
   * How long a new server (daemon, MCP server) waits for a first check before it builds the warm programs of the
   * project's last checks (SIGNALINT_PREWARM_DELAY_MS); null: it never does.
   */
  prewarmDelayMs: number | null;
  /** The hook exits 2 on errors the edit leaves (default) or on warnings too (config `hook.failOn`). */
  hookFailOn: (typeof HOOK_FAIL_ON)[number];
  /** How long the hook waits for its check before it says what it could not check (config `hook.budgetSeconds`). */
  hookBudgetMs: number;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const key = issue.path.map(String).join(".");
  if (issue.code === "unrecognized_keys") {
    const prefix = key ? `${key}.` : "";
    return issue.keys.map((name) => `unknown key '${prefix}${name}'`).join(", ");
  }
  return `key '${key || "(root)"}': ${issue.message}`;
}

/**
 * Parse the text of signalint.config.json (JSON; a UTF-8 BOM, comments and trailing commas are tolerated, as in
 * tsconfig.json); a bad file throws ConfigError naming the key, or the syntax error with its line and column.
 */
export function parseConfigFile(text: string, fileName = "signalint.config.json"): ConfigFile {
  let raw: unknown;
  try {
    raw = parseJsonc(text);
  } catch (error) {
    throw new ConfigError(`${fileName}: not valid JSON (${(error as Error).message})`);
  }
  const parsed = ConfigFileSchema.safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError(`${fileName}: ${parsed.error.issues.map(describeIssue).join("; ")}`);
  }
  return parsed.data;
}

function parseBytesEnv(value: string): number {
  if (!/^\d+$/.test(value)) throw new ConfigError(`SIGNALINT_STRUCTURED_MAX_BYTES: expected a whole number of bytes, got ${quoteInput(value)}`);
  return Number(value);
}

/** Clamp the structured size bound into 16 KiB … 16 MiB. */
export function clampStructuredMaxBytes(value: number): number {
  return Math.min(STRUCTURED_MAX_BYTES.max, Math.max(STRUCTURED_MAX_BYTES.min, value));
}

/**
 * Without news for this long, a request in progress sends a heartbeat naming what is still running: clients that
 * reset their request timeout on progress (MCP Inspector, the SDK's resetTimeoutOnProgress) keep waiting through a
 * long tsc run. Half of the 10 s the issue promises, so timer delays under load stay within it.
 */
export const DEFAULT_HEARTBEAT_MS = 5000;

/** SIGNALINT_PROGRESS_HEARTBEAT_MS, clamped to 10–10000 ms (tests shorten it). */
function parseHeartbeatEnv(value: string): number {
  if (!/^\d{1,9}$/.test(value)) throw new ConfigError(`SIGNALINT_PROGRESS_HEARTBEAT_MS: expected a whole number of milliseconds, got ${quoteInput(value)}`);
  return Math.min(10_000, Math.max(10, Number(value)));
}

/** The default bound on persisted TypeScript state per user, in MB (SIGNALINT_CACHE_MAX_MB overrides it). */
export const DEFAULT_PERSIST_MAX_MB = 512;

function parseCacheMaxEnv(value: string): number {
  if (!/^\d{1,7}$/.test(value)) throw new ConfigError(`SIGNALINT_CACHE_MAX_MB must be a whole number of megabytes, not ${JSON.stringify(value)}`);
  return Number(value);
}

/**
 * How long a new server waits before it builds the last checks' warm programs: a first check asked at once (a CLI's, a
 * script's) builds what it needs itself, without a prewarm in its way; an agent's first check comes later.
 */
export const DEFAULT_PREWARM_DELAY_MS = 1000;

function parsePrewarmEnv(value: string): number | null {
  if (/^off$/i.test(value)) return null;
  if (!/^\d{1,7}$/.test(value)) throw new ConfigError(`SIGNALINT_PREWARM_DELAY_MS must be a whole number of milliseconds or off, not ${quoteInput(value)}`);
  return Number(value);
}

/** Default idle time of the project's daemon before it exits, in minutes. */
export const DEFAULT_DAEMON_IDLE_MINUTES = 30;

/** The daemon is off in CI (`CI` set to anything but false/0), with SIGNALINT_DAEMON=0, or daemonIdleMinutes 0. */
function daemonSettings(config: ConfigFile, readEnv: EnvReader): Settings["daemon"] {
  const idleMinutes = config.daemonIdleMinutes ?? DEFAULT_DAEMON_IDLE_MINUTES;
  const switchEnv = envValue(readEnv, "SIGNALINT_DAEMON");
  const ci = envValue(readEnv, "CI");
  const off =
    switchEnv !== undefined && !parseBooleanEnv("SIGNALINT_DAEMON", switchEnv)
      ? "SIGNALINT_DAEMON=0"
      : switchEnv === undefined && ci !== undefined && !/^(0|false)$/i.test(ci)
        ? "CI is set"
        : idleMinutes === 0
          ? "daemonIdleMinutes is 0"
          : undefined;
  return { enabled: off === undefined, idleMinutes, ...(off ? { off } : {}) };
}

/** Resolve settings from the config file and the environment (environment wins when non-empty). */
export function resolveSettings(config: ConfigFile, readEnv: EnvReader, overrides: { compact?: boolean; readOnly?: boolean } = {}): Settings {
  const bytesEnv = envValue(readEnv, "SIGNALINT_STRUCTURED_MAX_BYTES");
  const heartbeatEnv = envValue(readEnv, "SIGNALINT_PROGRESS_HEARTBEAT_MS");
  const cacheMaxEnv = envValue(readEnv, "SIGNALINT_CACHE_MAX_MB");
  const prewarmEnv = envValue(readEnv, "SIGNALINT_PREWARM_DELAY_MS");
  // Payload mode, compact keys and read-only: one resolution, shared with the stdio front (core/server-settings.ts).
  const { payloadMode, compact, readOnly } = resolveServerSettings(config, readEnv, overrides);
  return {
    engines: { ...config.engines },
    ignore: config.ignore ?? [],
    timeoutsMs: { ...DEFAULT_TIMEOUTS_MS, ...config.timeoutsMs },
    payloadMode,
    compact,
    maxClusters: config.maxClusters ?? 10,
    maxRemainingIssues: config.maxRemainingIssues ?? 30,
    artifactRetentionSeconds: config.artifactRetentionSeconds ?? DEFAULT_ARTIFACT_RETENTION_SECONDS,
    warmTypeScript: envValue(readEnv, "SIGNALINT_WARM_TYPESCRIPT")
      ? parseBooleanEnv("SIGNALINT_WARM_TYPESCRIPT", envValue(readEnv, "SIGNALINT_WARM_TYPESCRIPT") as string)
      : (config.warmTypeScript ?? true),
    warmEslint: envValue(readEnv, "SIGNALINT_WARM_ESLINT")
      ? parseBooleanEnv("SIGNALINT_WARM_ESLINT", envValue(readEnv, "SIGNALINT_WARM_ESLINT") as string)
      : (config.warmEslint ?? true),
    warmTypeScriptMemoryMB: config.warmTypeScriptMemoryMB ?? null,
    oxlintTypeAware: config.oxlintTypeAware ?? true,
    pendingAfterMs: config.pendingAfterMs ?? DEFAULT_PENDING_AFTER_MS,
    typedLintDependents: config.typedLintDependents ?? DEFAULT_TYPED_LINT_DEPENDENTS,
    readOnly,
    daemon: daemonSettings(config, readEnv),
    typescriptProjects: config.typescript?.projects ?? [],
    progressHeartbeatMs: heartbeatEnv ? parseHeartbeatEnv(heartbeatEnv) : DEFAULT_HEARTBEAT_MS,
    persistMaxMB: cacheMaxEnv ? parseCacheMaxEnv(cacheMaxEnv) : DEFAULT_PERSIST_MAX_MB,
    prewarmDelayMs: prewarmEnv ? parsePrewarmEnv(prewarmEnv) : DEFAULT_PREWARM_DELAY_MS,
    hookFailOn: config.hook?.failOn ?? "error",
    // Below a client's own hook timeout (often 60 s): the hook answers before the client kills it.
    hookBudgetMs: (config.hook?.budgetSeconds ?? 50) * 1000,
    structuredMaxBytes: clampStructuredMaxBytes(bytesEnv ? parseBytesEnv(bytesEnv) : (config.structuredMaxBytes ?? STRUCTURED_MAX_BYTES.default)),
  };
}
