// The one way a tsconfig is parsed with the project's own compiler API — by warm programs, warm solutions and the
// coverage listing alike — and a parse kept between checks, redone only when one of its inputs changed.
import { dirname } from "node:path";
import type * as TS from "typescript";
import { fileStamp } from "../engines/file-stamp.ts";
import { type ChangeHint, HintClock } from "./change-hint.ts";
import { hashText, subdirectories } from "./host-questions.ts";

type Ts = typeof TS;

/** One parse of a tsconfig: the command line, or undefined with tsc's report when the config cannot be read. */
export interface TsconfigParse {
  commandLine: TS.ParsedCommandLine | undefined;
  /** What tsc reports for a config it cannot read at all (e.g. TS5083); undefined when it was read. */
  failure: TS.Diagnostic | undefined;
  /** Each file the parse read (the config, the configs it extends) with its text's hash ("-": none), as read then. */
  reads: [string, string][];
}

/**
 * Parse a tsconfig as tsc does (`existingOptions`: what the command line adds, e.g. `--noEmit` for `tsc -p`). The
 * host is TypeScript's own file system, never its `write`: nothing a parse does reaches stdout.
 */
export function parseTsconfig(ts: Ts, configPath: string, existingOptions: TS.CompilerOptions = {}): TsconfigParse {
  let failure: TS.Diagnostic | undefined;
  const reads: [string, string][] = [];
  const readFile = (path: string) => {
    const text = ts.sys.readFile(path);
    reads.push([path, text === undefined ? "-" : hashText(text)]);
    return text;
  };
  const host: TS.ParseConfigFileHost = { ...ts.sys, readFile, onUnRecoverableConfigFileDiagnostic: (diagnostic) => (failure = diagnostic) };
  const commandLine = ts.getParsedCommandLineOfConfigFile(configPath, existingOptions, host);
  return { commandLine, failure, reads };
}

/** What a config covers: its root files (null: it cannot be read; tsc says why when it runs) and its references' configs. */
export interface TsconfigListing {
  files: string[] | null;
  references: string[];
}

/** A config's listing as its compiler parses it (what `tsc -p <config> --showConfig` lists). */
export function listTsconfig(ts: Ts, configPath: string): TsconfigListing {
  const commandLine = parseTsconfig(ts, configPath).commandLine;
  if (!commandLine) return { files: null, references: [] };
  return { files: [...commandLine.fileNames], references: (commandLine.projectReferences ?? []).map((reference) => ts.resolveProjectReferencePath(reference)) };
}

/** A parse's diagnostics as tsc prints them (`--pretty false`): its failure, or the config's own errors. */
export function formatTsconfigDiagnostics(ts: Ts, parse: TsconfigParse): string {
  const diagnostics = parse.commandLine ? ts.getConfigFileParsingDiagnostics(parse.commandLine) : parse.failure ? [parse.failure] : [];
  const host = { getCurrentDirectory: () => ts.sys.getCurrentDirectory(), getCanonicalFileName: (name: string) => name, getNewLine: () => "\n" };
  return ts.formatDiagnostics(diagnostics, host).trim();
}

/**
 * Every path whose change can change a parse: the config and the configs it extends, each directory its include
 * patterns cover (recursively for `**`: adding, removing or renaming a file changes its directory's mtime) and the
 * directory of each listed file.
 */
function watchedInputs(ts: Ts, configPath: string, commandLine: TS.ParsedCommandLine | undefined): Set<string> {
  const watched = new Set<string>([configPath]);
  const extended = (commandLine?.options.configFile as { extendedSourceFiles?: string[] } | undefined)?.extendedSourceFiles ?? [];
  for (const file of extended) watched.add(file);
  for (const [dir, flags] of Object.entries(commandLine?.wildcardDirectories ?? {})) {
    watched.add(dir);
    if (flags & ts.WatchDirectoryFlags.Recursive) for (const sub of subdirectories(dir)) watched.add(sub);
  }
  for (const file of commandLine?.fileNames ?? []) watched.add(dirname(file));
  return watched;
}

/** What can tell two parses apart for a program: files, options, references and the config's own diagnostics. */
function signature(ts: Ts, commandLine: TS.ParsedCommandLine): string {
  const diagnostics = ts.getConfigFileParsingDiagnostics(commandLine).map((d) => [d.code, d.start, d.messageText]);
  return JSON.stringify([commandLine.fileNames, commandLine.options, commandLine.projectReferences, diagnostics]);
}

/**
 * A tsconfig parse kept between checks: parsed again only when a watched input's stamp changed (with a change hint,
 * only inputs it names or cannot see are stat'ed). A new parse equal to the last (a touched but unchanged config)
 * hands back the same ParsedCommandLine object, so a program built from it is kept.
 */
export class WatchedTsconfig {
  private last: { parse: TsconfigParse; stamps: Map<string, string | null>; signature: string | null } | null = null;
  private readonly clock = new HintClock();

  constructor(
    private readonly ts: Ts,
    readonly configPath: string,
    private readonly existingOptions: TS.CompilerOptions = {},
  ) {}

  /** The config as tsc would parse it now. */
  current(hint?: ChangeHint | null): TsconfigParse {
    const recheck = this.clock.advance(hint);
    const last = this.last;
    if (last && [...last.stamps].every(([path, stamp]) => (recheck && !recheck(path)) || fileStamp(path) === stamp)) return last.parse;
    const parse = parseTsconfig(this.ts, this.configPath, this.existingOptions);
    const stamps = new Map([...watchedInputs(this.ts, this.configPath, parse.commandLine)].map((path) => [path, fileStamp(path)]));
    const next = parse.commandLine ? signature(this.ts, parse.commandLine) : null;
    if (next !== null && next === last?.signature) parse.commandLine = last.parse.commandLine;
    this.last = { parse, stamps, signature: next };
    return parse;
  }
}
