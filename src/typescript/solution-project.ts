// One referenced project of a warm `tsc -b` solution: its own emit-and-semantic builder program, fed the declarations
// its references produced (from memory, see warm-solution.ts) and kept fresh the way WarmTsProgram is.
import type * as TS from "typescript";
import { fileStamp } from "../engines/file-stamp.ts";
import { hashText, type Observation, recordQuestions, sameStrings } from "./host-questions.ts";
import type { WarmCheckInfo } from "./warm-program.ts";

type Ts = typeof TS;

/** `tsc -b`'s per-project report: present in TypeScript 5.x/6.x (an internal export of the compiler). */
export type EmitAndReport = (
  program: TS.EmitAndSemanticDiagnosticsBuilderProgram,
  reportDiagnostic: (diagnostic: TS.Diagnostic) => void,
  write: undefined,
  reportSummary: undefined,
  writeFile: TS.WriteFileCallback,
  cancellationToken: undefined,
  emitOnlyDtsFiles: boolean,
) => { emitResult: TS.EmitResult; diagnostics: readonly TS.Diagnostic[] };

/**
 * The file system as the solution's programs see it: the declarations the references emitted live in memory, and
 * every output path of the solution's projects is hidden on disk (a cold `tsc -b` writes them before any
 * downstream project reads them; whatever the user's own builds left there is never read).
 */
export interface SolutionFiles {
  readFile(path: string): string | undefined;
  fileExists(path: string): boolean;
  directoryExists(path: string): boolean;
  /** A stamp of the file's current state: a memory output's content hash, or the disk stamp (null: missing). */
  stamp(path: string): string | null;
  /** Record an output a project emitted (declarations only; JavaScript and build info are not kept). */
  emitted(project: string, path: string, text: string): void;
  /** Drop a project's outputs that are not in `keep` (all of them without it). */
  prune(project: string, keep?: ReadonlySet<string>): void;
  /** A referenced config as the solution parsed it (tsc -b hands its programs the same parse). */
  parsedConfig(path: string): TS.ParsedCommandLine | undefined;
  /**
   * Declaration files parsed by any project (lib files, node_modules, the references' outputs), shared as tsc -b
   * shares them within a build; a declaration file is bound the same way whatever the options.
   */
  readonly declarations: Map<string, CachedSource>;
}

export interface CachedSource {
  stamp: string | null;
  hash: string;
  sourceFile: TS.SourceFile;
}

/** One project's warm builder program: reused SourceFiles, recorded file-system answers, in-memory declarations. */
export class SolutionProject {
  private readonly sources = new Map<string, CachedSource>();
  private builder: TS.EmitAndSemanticDiagnosticsBuilderProgram | undefined;
  private optionsKey = "";
  private builtFrom: TS.ParsedCommandLine | undefined;
  private builtReferences: readonly (TS.ParsedCommandLine | undefined)[] = [];
  private observations = new Map<string, string>();
  private lastDiagnostics: readonly TS.Diagnostic[] = [];
  /** The next build starts from no builder (emit was skipped: a cold build has no outputs to build on). */
  private coldNext = false;
  /** Module resolutions may have changed in ways a reused program would not see (or the emit state is not a cold one). */
  resolutionsSuspect = true;

  constructor(
    private readonly ts: Ts,
    readonly configPath: string,
    private readonly files: SolutionFiles,
    private readonly emitAndReport: EmitAndReport,
  ) {}

  /** Diagnostics exactly as `tsc -b` reports this project (emitFilesAndReportErrors), rebuilding only what changed. */
  check(
    parsed: TS.ParsedCommandLine,
    references: readonly (TS.ParsedCommandLine | undefined)[],
  ): { diagnostics: readonly TS.Diagnostic[]; info: WarmCheckInfo } {
    const optionsKey = JSON.stringify(parsed.options);
    if (optionsKey !== this.optionsKey) {
      this.sources.clear();
      this.builder = undefined;
      this.optionsKey = optionsKey;
    }
    let changed = 0;
    for (const [key, cached] of this.sources) {
      const stamp = this.files.stamp(cached.sourceFile.fileName);
      if (stamp !== null && stamp === cached.stamp) continue;
      const text = stamp === null ? undefined : this.files.readFile(cached.sourceFile.fileName);
      if (text === undefined || hashText(text) !== cached.hash) {
        this.sources.delete(key);
        changed++;
      } else {
        cached.stamp = stamp;
      }
    }
    if (!this.resolutionsSuspect && this.observationsChanged()) this.resolutionsSuspect = true;
    const previous = this.builder?.getProgram();
    const sameRoots = previous && sameStrings(previous.getRootFileNames(), parsed.fileNames);
    // A referenced config parsed anew (its outputs may have moved) rebuilds the program too.
    const sameReferences = references.length === this.builtReferences.length && references.every((ref, i) => ref === this.builtReferences[i]);
    if (previous && changed === 0 && sameRoots && sameReferences && !this.resolutionsSuspect && this.builtFrom === parsed) {
      return { diagnostics: this.lastDiagnostics, info: { reuse: "reused", changedFiles: 0, programFiles: previous.getSourceFiles().length } };
    }
    const reuse = this.builder && !this.resolutionsSuspect && !this.coldNext ? "incremental" : "full";
    if (reuse === "full") {
      this.observations = new Map();
      // A cold build starts without outputs: nothing emitted before may survive into this build's results.
      this.files.prune(this.configPath);
    }
    try {
      return this.build(parsed, references, reuse, changed);
    } catch (error) {
      // Whatever state the builder was left in, it is not one to continue from.
      this.builder = undefined;
      this.builtFrom = undefined;
      this.resolutionsSuspect = true;
      throw error;
    }
  }

  private build(
    parsed: TS.ParsedCommandLine,
    references: readonly (TS.ParsedCommandLine | undefined)[],
    reuse: "incremental" | "full",
    changed: number,
  ): { diagnostics: readonly TS.Diagnostic[]; info: WarmCheckInfo } {
    const host = this.createHost(parsed.options);
    this.coldNext = false;
    this.builder = this.ts.createEmitAndSemanticDiagnosticsBuilderProgram(
      parsed.fileNames,
      parsed.options,
      host,
      reuse === "incremental" ? this.builder : undefined,
      this.ts.getConfigFileParsingDiagnostics(parsed),
      parsed.projectReferences,
    );
    this.builtFrom = parsed;
    this.builtReferences = references;
    this.resolutionsSuspect = false;
    const writeFile: TS.WriteFileCallback = (name, text) => this.files.emitted(this.configPath, name, text);
    // JavaScript emit reports nothing tsc -b would not: only declarations are emitted (into memory).
    const { emitResult, diagnostics } = this.emitAndReport(this.builder, () => {}, undefined, undefined, writeFile, undefined, true);
    this.lastDiagnostics = diagnostics;
    const program = this.builder.getProgram();
    if (emitResult.emitSkipped && program.getCompilerOptions().noEmitOnError) {
      // A cold build of this state emits nothing; the next build must emit everything again (not only the edits).
      this.files.prune(this.configPath);
      this.coldNext = true;
    } else {
      this.files.prune(this.configPath, this.expectedOutputs(program, parsed));
    }
    this.forgetUnused();
    return { diagnostics, info: { reuse, changedFiles: changed, programFiles: program.getSourceFiles().length } };
  }

  /** The current program (for the causes of its diagnostics). */
  program(): TS.Program | undefined {
    return this.builder?.getProgram();
  }

  /** The SourceFiles of the current program. */
  sourceFiles(): readonly TS.SourceFile[] {
    return this.builder?.getProgram().getSourceFiles() ?? [];
  }

  /** Every file of the current program, as TypeScript names them. */
  fileNames(): string[] {
    return (
      this.builder
        ?.getProgram()
        .getSourceFiles()
        .map((file) => file.fileName) ?? []
    );
  }

  /** The declaration outputs the program's own source files have now (a deleted file's output goes away). */
  private expectedOutputs(program: TS.Program, parsed: TS.ParsedCommandLine): Set<string> {
    const ignoreCase = !this.ts.sys.useCaseSensitiveFileNames;
    const sources = program.getSourceFiles().filter((file) => !file.isDeclarationFile && !program.isSourceFileFromExternalLibrary(file));
    // Files the program reached but the config does not list (an error tsc reports) are emitted too.
    const listed = new Set(parsed.fileNames);
    const commandLine = { ...parsed, fileNames: [...parsed.fileNames, ...sources.map((file) => file.fileName).filter((name) => !listed.has(name))] };
    const keep = new Set<string>();
    for (const file of sources) for (const output of this.ts.getOutputFileNames(commandLine, file.fileName, ignoreCase)) keep.add(output);
    return keep;
  }

  private observationsChanged(): boolean {
    for (const [key, answer] of this.observations) {
      const split = key.indexOf("\0");
      if (this.answer(key.slice(0, split) as Observation, key.slice(split + 1)) !== answer) return true;
    }
    return false;
  }

  private answer(kind: Observation, path: string): string {
    const sys = this.ts.sys;
    switch (kind) {
      case "fileExists":
      case "missing":
        return this.files.fileExists(path) ? "1" : "0";
      case "directoryExists":
        return this.files.directoryExists(path) ? "1" : "0";
      case "realpath":
        return sys.realpath?.(path) ?? path;
      case "getDirectories":
        return sys.directoryExists(path) ? sys.getDirectories(path).join("\n") : "-";
      default: {
        const text = this.files.readFile(path);
        return text === undefined ? "-" : hashText(text);
      }
    }
  }

  private observe(kind: Observation, path: string, answer: string): void {
    this.observations.set(`${kind}\0${path}`, answer);
  }

  private createHost(options: TS.CompilerOptions): TS.CompilerHost {
    const host = this.ts.createCompilerHost(options);
    host.readFile = (path) => this.files.readFile(path);
    host.fileExists = (path) => this.files.fileExists(path);
    host.directoryExists = (path) => this.files.directoryExists(path);
    host.getParsedCommandLine = (path) => this.files.parsedConfig(path);
    const original = host.getSourceFile.bind(host);
    let readingSource = false;
    host.getSourceFile = (fileName, languageVersionOrOptions, onError, shouldCreate) => {
      const key = `${fileName}\0${JSON.stringify(languageVersionOrOptions)}`;
      const cached = this.sources.get(key);
      if (cached) return cached.sourceFile;
      const stamp = this.files.stamp(fileName);
      const shared = this.files.declarations.get(key);
      if (shared && stamp !== null && shared.stamp === stamp) {
        this.sources.set(key, { ...shared });
        return shared.sourceFile;
      }
      readingSource = true;
      let sourceFile: TS.SourceFile | undefined;
      try {
        sourceFile = original(fileName, languageVersionOrOptions, onError, shouldCreate);
      } finally {
        readingSource = false;
      }
      if (sourceFile) {
        const hash = hashText(sourceFile.text);
        // The builder compares versions to find changed files; the content hash is the version.
        (sourceFile as TS.SourceFile & { version?: string }).version = hash;
        this.sources.set(key, { stamp, hash, sourceFile });
        if (sourceFile.isDeclarationFile) this.files.declarations.set(key, { stamp, hash, sourceFile });
      } else {
        this.observe("missing", fileName, "0");
      }
      return sourceFile;
    };
    recordQuestions(
      host,
      (kind, path, answer) => this.observe(kind, path, answer),
      () => readingSource,
      (path) => !this.ts.sys.directoryExists(path),
    );
    host.hasInvalidatedResolutions = () => this.resolutionsSuspect;
    return host;
  }

  private forgetUnused(): void {
    const used = new Set(this.builder?.getProgram().getSourceFiles() ?? []);
    for (const [key, cached] of this.sources) if (!used.has(cached.sourceFile)) this.sources.delete(key);
  }
}
