import { ConfigError, quoteInput } from "./errors.ts";

// The settings an MCP server's tools/list and initialize depend on (payload mode, compact keys, read-only), kept apart
// from config.ts's zod schema: the stdio front (cli/front.ts) answers those two requests before zod is loaded.

export const PAYLOAD_MODES = ["both", "text", "structured"] as const;
export type PayloadMode = (typeof PAYLOAD_MODES)[number];

/** What tools/list and initialize depend on. */
export interface ServerSettings {
  payloadMode: PayloadMode;
  compact: boolean;
  readOnly: boolean;
}

/** The config file's keys behind ServerSettings (config.ts's ConfigFileSchema validates them with the rest). */
export interface ServerConfigKeys {
  mcpPayload?: PayloadMode;
  compact?: boolean;
  readOnly?: boolean;
}

/** Reads one environment variable (undefined when unset). */
export type EnvReader = (name: string) => string | undefined;

/** A variable's trimmed value; empty counts as unset. */
export function envValue(readEnv: EnvReader, name: string): string | undefined {
  const value = readEnv(name)?.trim();
  return value ? value : undefined;
}

/** A boolean variable: 1/true/yes/on or 0/false/no/off; anything else is a ConfigError naming it. */
export function parseBooleanEnv(name: string, value: string): boolean {
  if (/^(1|true|yes|on)$/i.test(value)) return true;
  if (/^(0|false|no|off)$/i.test(value)) return false;
  throw new ConfigError(`${name}: expected 1/true/yes/on or 0/false/no/off, got ${quoteInput(value)}`);
}

function parsePayloadEnv(value: string): PayloadMode {
  if ((PAYLOAD_MODES as readonly string[]).includes(value)) return value as PayloadMode;
  throw new ConfigError(`SIGNALINT_MCP_PAYLOAD: expected one of ${PAYLOAD_MODES.join(", ")}, got ${quoteInput(value)}`);
}

/** Payload mode, compact keys and read-only, after precedence: non-empty environment → option → config file → default. */
export function resolveServerSettings(config: ServerConfigKeys, readEnv: EnvReader, overrides: { compact?: boolean; readOnly?: boolean } = {}): ServerSettings {
  const payloadEnv = envValue(readEnv, "SIGNALINT_MCP_PAYLOAD");
  const compactEnv = envValue(readEnv, "SIGNALINT_COMPACT");
  const readOnlyEnv = envValue(readEnv, "SIGNALINT_READ_ONLY");
  return {
    payloadMode: payloadEnv ? parsePayloadEnv(payloadEnv) : (config.mcpPayload ?? "both"),
    compact: compactEnv ? parseBooleanEnv("SIGNALINT_COMPACT", compactEnv) : (overrides.compact ?? config.compact ?? false),
    // A server option only turns it on (`--read-only`); the config file and a non-empty variable decide either way.
    readOnly: readOnlyEnv ? parseBooleanEnv("SIGNALINT_READ_ONLY", readOnlyEnv) : overrides.readOnly || (config.readOnly ?? false),
  };
}

/**
 * The ServerSettings keys of a parsed config file, or null when one of them has a type the schema refuses (the full
 * validation, with its message, is config.ts's). Other keys are not looked at.
 */
export function serverConfigKeys(raw: unknown): ServerConfigKeys | null {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return null;
  const { mcpPayload, compact, readOnly } = raw as Record<string, unknown>;
  if (mcpPayload !== undefined && !(PAYLOAD_MODES as readonly unknown[]).includes(mcpPayload)) return null;
  if ((compact !== undefined && typeof compact !== "boolean") || (readOnly !== undefined && typeof readOnly !== "boolean")) return null;
  return { mcpPayload: mcpPayload as PayloadMode | undefined, compact, readOnly } as ServerConfigKeys;
}
