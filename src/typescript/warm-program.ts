// A warm TypeScript 5.x/6.x program kept between checks, built on the checked project's own compiler API.
// The TS API is synchronous and does its own file I/O, so this module reads file metadata with node:fs directly
// (it runs under Node, inside the binary and under Deno's node: compatibility alike).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type * as TS from "typescript";
import { exactStamp, fileStamp } from "../engines/file-stamp.ts";
import { type ChangeHint, recheckFilter } from "./change-hint.ts";
import { hashText, type Observation, recordQuestions, sameStrings, subdirectories } from "./host-questions.ts";

type Ts = typeof TS;

/** Freshness facts about one file the program read: its stat stamp and the hash of the text TypeScript read. */
interface FileStamp {
  stamp: string;
  hash: string;
}

interface CachedSource {
  stamp: FileStamp;
  key: string;
  sourceFile: TS.SourceFile;
}

/** How one warm check went (reported in stats). */
export interface WarmCheckInfo {
  /** "reused": nothing the program reads changed; "incremental": only changed files re-checked; "full": no reuse. */
  reuse: "reused" | "incremental" | "full";
  changedFiles: number;
  programFiles: number;
}

const loaded = new Map<string, Ts | null>();

/**
 * Identity of the TypeScript package installed at a directory: its location plus the stamps of its package.json and
 * compiler entry, so an in-place upgrade (same directory, new files) is a different compiler.
 */
export function typescriptIdentity(packageDir: string): string {
  return `${packageDir}\0${exactStamp(join(packageDir, "package.json")) ?? "-"}\0${exactStamp(join(packageDir, "lib", "typescript.js")) ?? "-"}`;
}

/**
 * Load the project's own `typescript` package (CommonJS) from its directory; null for TS 7 (no compiler API). Cached
 * by the package's identity: after an in-place upgrade the new compiler is loaded, never the old one.
 */
export function loadTypeScript(packageDir: string): Ts | null {
  const identity = typescriptIdentity(packageDir);
  if (loaded.has(identity)) return loaded.get(identity) ?? null;
  for (const key of loaded.keys()) if (key.startsWith(`${packageDir}\0`)) loaded.delete(key);
  const version = (JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as { version: string }).version;
  let ts: Ts | null = null;
  if (Number(version.split(".")[0]) < 7) {
    const require = createRequire(join(packageDir, "package.json"));
    const entry = require.resolve("./lib/typescript.js");
    // Node caches modules by file name: drop the old compiler so an upgraded one is really loaded.
    if (require.cache) delete require.cache[entry];
    const candidate = require(entry) as Ts;
    if (typeof candidate.createSemanticDiagnosticsBuilderProgram === "function") ts = candidate;
  }
  loaded.set(identity, ts);
  return ts;
}

/**
 * One tsconfig's warm program. Each check re-parses the config (so added/removed files and option changes are
 * seen), re-stats every file the last program read (including .d.ts in node_modules and lib files) and reuses the
 * SourceFile of each file whose content hash is unchanged; the builder then re-checks only what the edits affect.
 * Module resolution is kept fresh by recording every question the compiler host answered while building (file and
 * directory existence — which covers every failed lookup location —, package.json reads, directory listings, real
 * paths, missing files): when any answer would differ now, the program is rebuilt with fresh resolutions.
 */
export class WarmTsProgram {
  private readonly sources = new Map<string, CachedSource>();
  private builder: TS.SemanticDiagnosticsBuilderProgram | undefined;
  private optionsKey = "";
  private lastDiagnostics: readonly TS.Diagnostic[] = [];
  /** Set when module resolutions may have changed in ways a reused program would not see. */
  private resolutionsSuspect = true;
  /** Every file-system answer the programs built since the last full build relied on, keyed by kind and path. */
  private observations = new Map<string, string>();
  /** The parsed config the current program was built from (a re-parse can change only its diagnostics). */
  private builtFrom: TS.ParsedCommandLine | undefined;
  /** The last parsed config, with stamps of every config file and directory whose change could alter it. */
  private parsed: { commandLine: TS.ParsedCommandLine; stamps: Map<string, string | null>; signature: string } | null = null;
  /** The change-hint sequence number everything recorded is known fresh at (null: re-stat it all). */
  private hintSeq: number | null = null;
  /** Which paths this check looks at again (null: all); see change-hint.ts. */
  private recheck: ((path: string) => boolean) | null = null;
  lastUsed = Date.now();

  constructor(
    readonly ts: Ts,
    readonly configPath: string,
  ) {}

  /** Re-check and return diagnostics exactly as `tsc --noEmit -p <config>` reports them; null when unsupported. */
  check(hint?: ChangeHint | null): { diagnostics: readonly TS.Diagnostic[]; info: WarmCheckInfo } | null {
    const ts = this.ts;
    this.lastUsed = Date.now();
    // With a change hint only what it names (or what the watch cannot see) is stat'ed again.
    this.recheck = recheckFilter(hint, this.hintSeq);
    this.hintSeq = hint?.seq ?? null;
    const parsed = this.parseConfig();
    // Unreadable configs, solution-style references and build mode stay with the command line.
    if (!parsed || parsed.projectReferences?.length) return null;
    const optionsKey = JSON.stringify(parsed.options);
    if (optionsKey !== this.optionsKey) {
      this.sources.clear();
      this.builder = undefined;
      this.optionsKey = optionsKey;
    }
    let changed = 0;
    for (const [key, cached] of this.sources) {
      if (this.recheck && !this.recheck(cached.sourceFile.fileName)) continue;
      const stamp = fileStamp(cached.sourceFile.fileName);
      if (stamp === cached.stamp.stamp) continue;
      // Touched: compare the text TypeScript would read now with the text the SourceFile was made from.
      const text = stamp === null ? undefined : ts.sys.readFile(cached.sourceFile.fileName);
      if (text === undefined || hashText(text) !== cached.stamp.hash) {
        this.sources.delete(key);
        changed++;
      } else {
        cached.stamp = { stamp: stamp as string, hash: cached.stamp.hash };
      }
    }
    if (!this.resolutionsSuspect && this.observationsChanged()) this.resolutionsSuspect = true;
    const previous = this.builder?.getProgram();
    const sameRoots = previous && sameStrings(previous.getRootFileNames(), parsed.fileNames);
    if (previous && changed === 0 && sameRoots && !this.resolutionsSuspect && this.builtFrom === parsed) {
      return { diagnostics: this.lastDiagnostics, info: { reuse: "reused", changedFiles: 0, programFiles: previous.getSourceFiles().length } };
    }
    const reuse = this.builder && !this.resolutionsSuspect ? "incremental" : "full";
    // A full build starts a new record; an incremental one keeps the answers its reused resolutions relied on.
    if (reuse === "full") this.observations = new Map();
    const host = this.createHost(parsed.options);
    // `tsc -p` reports the config file's own parse diagnostics as well as the parser's errors.
    const configDiagnostics = ts.getConfigFileParsingDiagnostics(parsed);
    this.builder = ts.createSemanticDiagnosticsBuilderProgram(
      parsed.fileNames,
      parsed.options,
      host,
      reuse === "incremental" ? this.builder : undefined,
      configDiagnostics,
      parsed.projectReferences,
    );
    this.builtFrom = parsed;
    this.resolutionsSuspect = false;
    this.lastDiagnostics = this.collect();
    this.forgetUnused();
    return { diagnostics: this.lastDiagnostics, info: { reuse, changedFiles: changed, programFiles: this.builder.getProgram().getSourceFiles().length } };
  }

  /** Ask the file system each recorded question again: true when any answer differs. */
  private observationsChanged(): boolean {
    for (const [key, answer] of this.observations) {
      const split = key.indexOf("\0");
      if (this.recheck && !this.recheck(key.slice(split + 1))) continue;
      if (this.answer(key.slice(0, split) as Observation, key.slice(split + 1)) !== answer) return true;
    }
    return false;
  }

  /** The current answer to one recorded question (stamps for reads and listings: any change counts). */
  private answer(kind: Observation, path: string): string {
    const sys = this.ts.sys;
    switch (kind) {
      case "fileExists":
      case "missing":
        return sys.fileExists(path) ? "1" : "0";
      case "directoryExists":
        return sys.directoryExists(path) ? "1" : "0";
      case "realpath":
        return sys.realpath?.(path) ?? path;
      case "getDirectories":
        return sys.directoryExists(path) ? sys.getDirectories(path).join("\n") : "-";
      default: {
        const text = sys.readFile(path);
        return text === undefined ? "-" : hashText(text);
      }
    }
  }

  private observe(kind: Observation, path: string, answer: string): void {
    this.observations.set(`${kind}\0${path}`, answer);
  }

  /**
   * Parse the tsconfig, or reuse the last parse when neither the config files (including extended ones) nor any
   * directory its include patterns cover changed: adding, removing or renaming a file changes its directory's mtime.
   */
  private parseConfig(): TS.ParsedCommandLine | undefined {
    const recheck = this.recheck ?? (() => true);
    if (this.parsed && [...this.parsed.stamps].every(([path, stamp]) => !recheck(path) || fileStamp(path) === stamp)) return this.parsed.commandLine;
    const ts = this.ts;
    const commandLine = ts.getParsedCommandLineOfConfigFile(this.configPath, { noEmit: true }, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
    if (!commandLine) {
      this.parsed = null;
      return undefined;
    }
    const watched = new Set<string>([this.configPath]);
    const extended = (commandLine.options.configFile as { extendedSourceFiles?: string[] } | undefined)?.extendedSourceFiles ?? [];
    for (const file of extended) watched.add(file);
    for (const [dir, flags] of Object.entries(commandLine.wildcardDirectories ?? {})) {
      watched.add(dir);
      if (flags & ts.WatchDirectoryFlags.Recursive) for (const sub of subdirectories(dir)) watched.add(sub);
    }
    for (const file of commandLine.fileNames) watched.add(dirname(file));
    const stamps = new Map([...watched].map((path) => [path, fileStamp(path)]));
    // The same files, options and diagnostics as the last parse (a touched but unchanged config): keep the program.
    const signature = JSON.stringify([
      commandLine.fileNames,
      commandLine.options,
      ts.getConfigFileParsingDiagnostics(commandLine).map((d) => [d.code, d.start, d.messageText]),
    ]);
    const same = this.parsed?.signature === signature;
    this.parsed = { commandLine: same ? (this.parsed?.commandLine as TS.ParsedCommandLine) : commandLine, stamps, signature };
    return this.parsed.commandLine;
  }

  /** True once a program has been built and can answer incrementally. */
  /** Every file of the current program (roots and what they import), as TypeScript names them. */
  fileNames(): string[] {
    return (
      this.builder
        ?.getProgram()
        .getSourceFiles()
        .map((file) => file.fileName) ?? []
    );
  }

  /** The current program (for the causes of its diagnostics), or undefined before the first build. */
  currentProgram(): TS.Program | undefined {
    return this.builder?.getProgram();
  }

  get isWarm(): boolean {
    return this.builder !== undefined;
  }

  /** After a package install or lockfile change, module resolutions are redone (a cheap extra safety net). */
  invalidateResolutions(): void {
    this.resolutionsSuspect = true;
  }

  private createHost(options: TS.CompilerOptions): TS.CompilerHost {
    const ts = this.ts;
    const host = ts.createCompilerHost(options);
    const original = host.getSourceFile.bind(host);
    let readingSource = false;
    host.getSourceFile = (fileName, languageVersionOrOptions, onError, shouldCreate) => {
      const key = `${fileName}\0${JSON.stringify(languageVersionOrOptions)}`;
      const cached = this.sources.get(key);
      if (cached) return cached.sourceFile;
      // Stamped before reading: a write in between makes the next check compare contents.
      const stamp = fileStamp(fileName);
      readingSource = true;
      let sourceFile: TS.SourceFile | undefined;
      try {
        sourceFile = original(fileName, languageVersionOrOptions, onError, shouldCreate);
      } finally {
        readingSource = false;
      }
      if (sourceFile && stamp) {
        const hash = hashText(sourceFile.text);
        // The builder compares versions to find changed files; the content hash is the version.
        (sourceFile as TS.SourceFile & { version?: string }).version = hash;
        this.sources.set(key, { stamp: { stamp, hash }, key, sourceFile });
      } else if (!sourceFile) {
        // A root or referenced file that does not exist (yet): its creation must rebuild the program.
        this.observe("missing", fileName, "0");
      }
      return sourceFile;
    };
    recordQuestions(
      host,
      (kind, path, answer) => this.observe(kind, path, answer),
      () => readingSource,
      (path) => host.directoryExists?.(path) === false,
    );
    // Resolutions of unchanged files are reused unless this says otherwise.
    host.hasInvalidatedResolutions = () => this.resolutionsSuspect;
    return host;
  }

  /** The same diagnostics, in the same order of precedence, as tsc's emitFilesAndReportErrors with --noEmit. */
  private collect(): readonly TS.Diagnostic[] {
    const program = this.builder as TS.SemanticDiagnosticsBuilderProgram;
    const options = program.getCompilerOptions();
    const all: TS.Diagnostic[] = [...program.getConfigFileParsingDiagnostics()];
    const configCount = all.length;
    all.push(...program.getSyntacticDiagnostics());
    if (all.length === configCount) {
      all.push(...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics());
      if (all.length === configCount) all.push(...program.getSemanticDiagnostics());
      if (options.noEmit && (options.declaration || options.composite) && all.length === configCount) {
        all.push(...program.getDeclarationDiagnostics());
      }
    }
    return this.ts.sortAndDeduplicateDiagnostics(all);
  }

  /** Drop cached SourceFiles the current program no longer uses (deleted or no longer imported files). */
  private forgetUnused(): void {
    const used = new Set(this.builder?.getProgram().getSourceFiles() ?? []);
    for (const [key, cached] of this.sources) if (!used.has(cached.sourceFile)) this.sources.delete(key);
  }
}
