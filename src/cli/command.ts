import { parseArgs } from "node:util";
import type { CliIo } from "./io.ts";

/** One option of a verb: how it parses and the line its help shows. */
export interface OptionSpec {
  type: "string" | "boolean";
  /** The value's name in the help (`--format FORMAT`); string options only. */
  value?: string;
  short?: string;
  /** The help text; wrapped lines are indented under it. */
  help: string;
}

/** Parsed option values: booleans are always set (false by default), strings are undefined when absent. */
export type OptionValues<O extends Record<string, OptionSpec>> = {
  [K in keyof O]: O[K]["type"] extends "boolean" ? boolean : string | undefined;
};

/**
 * A verb declared once: its arguments are both what the parser accepts and what `--help` prints, so the two cannot
 * drift apart.
 */
export interface Command<O extends Record<string, OptionSpec> = Record<string, OptionSpec>> {
  name: string;
  /** One line for the top-level help. */
  summary: string;
  /** The positional arguments' usage (`[paths…]`), or absent when the verb takes none. */
  positionals?: string;
  /** What the verb does (the paragraph under its usage line). */
  description: string;
  options: O;
  /** Anything the help shows after the options (exit codes, notes). */
  notes?: string;
  run(io: CliIo, values: OptionValues<O>, positionals: string[]): Promise<number | null>;
}

/** Declare a verb with its option types checked against its handler. */
export function defineCommand<const O extends Record<string, OptionSpec>>(command: Command<O>): Command {
  return command;
}

/** `--root`, shared by the verbs that open a project. */
export const ROOT_OPTION = {
  type: "string",
  value: "DIR",
  help:
    "project root (default: SIGNALINT_PROJECT_ROOT, else the nearest directory at or above the working directory " +
    "with signalint.config.json, else with package.json or .git)",
} as const satisfies OptionSpec;

const HELP_OPTION: OptionSpec = { type: "boolean", short: "h", help: "this help" };

/** Every option a verb accepts, `--help` included. */
function allOptions(command: Command): Record<string, OptionSpec> {
  return { ...command.options, help: HELP_OPTION };
}

/** Parse a verb's arguments strictly (unknown options and unexpected positionals are usage errors). */
export function parseCommand(command: Command, argv: string[]): { values: Record<string, string | boolean | undefined>; positionals: string[] } {
  const options = Object.fromEntries(
    Object.entries(allOptions(command)).map(([name, spec]) => [
      name,
      { type: spec.type, ...(spec.short ? { short: spec.short } : {}), ...(spec.type === "boolean" ? { default: false } : {}) },
    ]),
  );
  const { values, positionals } = parseArgs({ args: argv, options, allowPositionals: command.positionals !== undefined, strict: true });
  return { values: values as Record<string, string | boolean | undefined>, positionals };
}

const WIDTH = 118;
const COLUMN = 25;

/** Wrap `text` to the help's width, continuation lines indented to `indent`. */
function wrap(text: string, indent: number, first: number): string[] {
  const lines: string[] = [];
  let line = "";
  let room = WIDTH - first;
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > room) {
      lines.push(line);
      line = "";
      room = WIDTH - indent;
    }
    line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.map((text, index) => (index === 0 ? text : `${" ".repeat(indent)}${text}`));
}

/** The option's left column: `-h, --help` or `--format FORMAT`. */
function optionLabel(name: string, spec: OptionSpec): string {
  const long = `--${name}${spec.type === "string" ? ` ${spec.value ?? "VALUE"}` : ""}`;
  return spec.short ? `-${spec.short}, ${long}` : long;
}

/** A verb's `--help`, generated from its declaration. */
export function commandHelp(command: Command): string {
  const usage = `Usage: signalint-mcp ${command.name}${Object.keys(command.options).length ? " [options]" : ""}${command.positionals ? ` ${command.positionals}` : ""}`;
  const options = Object.entries(allOptions(command)).map(([name, spec]) => {
    const label = `  ${optionLabel(name, spec)}`;
    const help = wrap(spec.help, COLUMN, COLUMN).join("\n");
    return label.length < COLUMN - 1 ? `${label.padEnd(COLUMN)}${help}` : `${label}\n${" ".repeat(COLUMN)}${help}`;
  });
  const sections = [usage, wrap(command.description, 0, 0).join("\n"), `Options:\n${options.join("\n")}`];
  if (command.notes) sections.push(command.notes.trimEnd());
  return `${sections.join("\n\n")}\n`;
}
