import { VERSION } from "../version.ts";
import { checkCommand } from "./check.ts";
import { daemonCommand } from "./daemon.ts";
import { fixCommand } from "./fix.ts";
import type { Command } from "./command.ts";
import { hookCommand } from "./hook.ts";
import { doctorCommand, statsCommand } from "./info.ts";
import { initCommand } from "./init.ts";
import { serveCommand } from "./serve.ts";

/** Every verb, in the order the top-level help lists them. */
export const COMMANDS: readonly Command[] = [serveCommand, checkCommand, fixCommand, initCommand, hookCommand, daemonCommand, doctorCommand, statsCommand];

/** The words that are not verbs but still Signalint's own (not a script for the embedded runtime). */
export const TOP_LEVEL_FLAGS = ["help", "--help", "-h", "--version", "-v"] as const;

/** The environment variables a user may set, with what each does (the top-level help lists them). */
export const ENVIRONMENT: readonly [string, string][] = [
  ["SIGNALINT_PROJECT_ROOT", "the project to check (default: found from the working directory)"],
  ["SIGNALINT_STATE_DIR", "where state goes (default: the project's directory in the per-user state home, outside the tree)"],
  ["SIGNALINT_CACHE_DIR", "where generated tsc files and persisted TypeScript state go (default: the OS cache directory)"],
  ["SIGNALINT_CACHE_MAX_MB", "the bound on all projects' persisted TypeScript state (default 512; 0: not persisted)"],
  ["SIGNALINT_MCP_PAYLOAD", "both, text or structured"],
  ["SIGNALINT_COMPACT", "1: compact keys in check responses"],
  ["SIGNALINT_STRUCTURED_MAX_BYTES", "the size above which a result becomes an artifact"],
  ["SIGNALINT_WARM_TYPESCRIPT", "0: always run tsc's command line (no warm programs)"],
  ["SIGNALINT_WARM_ESLINT", "0: always start ESLint's command line (no warm ESLint in a long-lived server)"],
  ["SIGNALINT_DAEMON", "0: no daemon, every process checks on its own (default: on, except when CI is set); 1: on, also in CI"],
  ["SIGNALINT_READ_ONLY", "1: the MCP server offers no tool that writes the project's files (no fix tools)"],
  ["SIGNALINT_PROGRESS_HEARTBEAT_MS", "how often a long engine run reports progress to MCP clients (default 5000)"],
  [
    "SIGNALINT_PREWARM_DELAY_MS",
    "how long a new server waits for a first check before it builds the last checks' TypeScript programs (default 1000; off: never)",
  ],
];

/** Variables read for tests and measurements only, deliberately left out of the help. */
export const INTERNAL_ENVIRONMENT = ["SIGNALINT_TEST_JOURNAL", "SIGNALINT_DEBUG_TIMING", "SIGNALINT_FRONT"] as const;

/** The top-level help (`--help`, and a bare invocation on a terminal), generated from the verbs. */
export function topLevelHelp(): string {
  const width = Math.max(...COMMANDS.map((command) => `${command.name} ${command.positionals ?? ""}`.length)) + 2;
  const verbs = COMMANDS.map((command) => `  signalint-mcp ${`${command.name} ${command.positionals ?? ""}`.padEnd(width)}${command.summary}`);
  const envWidth = Math.max(...ENVIRONMENT.map(([name]) => name.length)) + 2;
  return [
    `signalint-mcp ${VERSION} — fresh, compact JS/TS diagnostics for AI coding agents (MCP over stdio)`,
    "",
    "Usage:",
    `  signalint-mcp ${"".padEnd(width)}start the MCP server on stdio (when stdin is not a terminal)`,
    ...verbs,
    `  signalint-mcp ${"VERB --help".padEnd(width)}options of one command`,
    "  signalint-mcp --version | --help",
    "",
    "Exit codes (check): 0 no errors, 1 errors (or too many warnings, or an incomplete check), 2 usage or configuration error.",
    "",
    "Environment (a non-empty value wins over signalint.config.json):",
    ...ENVIRONMENT.map(([name, help]) => `  ${name.padEnd(envWidth)}${help}`),
    "",
  ].join("\n");
}
