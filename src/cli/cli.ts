import { quoteInput, SignalintError } from "../core/errors.ts";
import { VERSION } from "../version.ts";
import { commandHelp, parseCommand } from "./command.ts";
import { COMMANDS, topLevelHelp } from "./commands.ts";
import type { CliIo } from "./io.ts";
import { serve } from "./serve.ts";
import { UsageError } from "./usage.ts";

/** Run one verb: `--help` prints its declaration's help; anything else is parsed against that declaration. */
async function runVerb(io: CliIo, verb: string, argv: string[]): Promise<number | null> {
  const command = COMMANDS.find((candidate) => candidate.name === verb);
  if (!command) throw new UsageError(`unknown command ${quoteInput(verb)}; see signalint-mcp --help`);
  if (argv.includes("--help") || argv.includes("-h")) {
    io.stdout(commandHelp(command));
    return 0;
  }
  const { values, positionals } = parseCommand(command, argv);
  return command.run(io, values as never, positionals);
}

/** Dispatch a command line. Returns the exit code, or null when a server keeps running. */
export async function runCli(io: CliIo, argv: readonly string[]): Promise<number | null> {
  const [verb, ...rest] = argv;
  try {
    if (verb === "--version" || verb === "-v") {
      io.stdout(`${VERSION}\n`);
      return 0;
    }
    if (verb === "--help" || verb === "-h" || verb === "help") {
      io.stdout(topLevelHelp());
      return 0;
    }
    if (verb === undefined) {
      if (!io.stdinIsTty) return await serve(io, { front: io.front });
      io.stdout(topLevelHelp());
      return 0;
    }
    return await runVerb(io, verb, rest);
  } catch (error) {
    if (error instanceof SignalintError) {
      io.runtime.writeStderr(`signalint-mcp: ${error.message}\n`);
      return 2;
    }
    if (error instanceof Error && "code" in error && String(error.code).startsWith("ERR_PARSE_ARGS")) {
      io.runtime.writeStderr(`signalint-mcp: ${verb}: ${error.message}; see signalint-mcp ${verb} --help\n`);
      return 2;
    }
    throw error;
  }
}
