// One referenced project of a warm `tsc -b` solution: its own emit-and-semantic builder program, fed the declarations
// its references produced (from memory, see warm-solution.ts) and kept fresh as every warm program is (warm-builder.ts).
import type * as TS from "typescript";
import type { ChangeHint } from "./change-hint.ts";
import { hashText } from "./host-questions.ts";
import { type CachedSource, type ProgramFiles, WarmBuilder, type WarmCheckInfo } from "./warm-builder.ts";

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
export interface SolutionFiles extends ProgramFiles {
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
  /** Every path an output of the solution's projects is or was at, and the directories holding one (in memory). */
  unwatched(path: string): boolean;
}

/**
 * Persisted state a project's first build may start from (persisted-state.ts): TypeScript's build info for the
 * options keyed `key`, and the declarations the project had emitted then (what tsc -b would find on disk).
 */
export interface ProjectRestore {
  key: string;
  buildInfo: string;
  outputs: [string, string][];
}

/** One project's warm builder program: reused SourceFiles, recorded file-system answers, in-memory declarations. */
export class SolutionProject extends WarmBuilder<TS.EmitAndSemanticDiagnosticsBuilderProgram> {
  /** Every config the program was built with a reference to, directly or through other references (their parses). */
  private builtReferences: readonly (TS.ParsedCommandLine | undefined)[] = [];
  /** The next build starts from no builder (emit was skipped: a cold build has no outputs to build on). */
  private coldNext = false;
  /** Persisted state for the next full build (a new host's first), used once. */
  restore: ProjectRestore | undefined;
  /** The key of the options the current program was built with (see ProjectRestore). */
  private stateKey = "";

  constructor(
    ts: Ts,
    configPath: string,
    private readonly solution: SolutionFiles,
    private readonly emitAndReport: EmitAndReport,
  ) {
    super(ts, configPath, solution);
  }

  /**
   * Diagnostics exactly as `tsc -b` reports this project (emitFilesAndReportErrors), rebuilding only what changed.
   * `references`: the parses of every config it references, transitively (a program resolves them all).
   */
  check(
    parsed: TS.ParsedCommandLine,
    references: readonly (TS.ParsedCommandLine | undefined)[],
    hint?: ChangeHint | null,
  ): { diagnostics: readonly TS.Diagnostic[]; info: WarmCheckInfo } {
    // A referenced config parsed anew (its outputs may have moved, its own references changed) rebuilds the program.
    const sameReferences = references.length === this.builtReferences.length && references.every((ref, i) => ref === this.builtReferences[i]);
    const { reuse, changed } = this.reconcile(parsed, hint, sameReferences, !this.coldNext);
    if (reuse === "reused") return this.reused();
    // A cold build starts without outputs: nothing emitted before may survive into this build's results — unless it
    // builds on persisted state, whose outputs are those of the build it records (restored after it: see build).
    if (reuse === "full") this.solution.prune(this.configPath);
    const restored = reuse === "full" ? this.restored(parsed) : undefined;
    try {
      return this.build(parsed, references, reuse, changed, restored);
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
    restored: { builder: TS.EmitAndSemanticDiagnosticsBuilderProgram; outputs: [string, string][] } | undefined,
  ): { diagnostics: readonly TS.Diagnostic[]; info: WarmCheckInfo } {
    const ts = this.ts;
    this.coldNext = false;
    const configDiagnostics = ts.getConfigFileParsingDiagnostics(parsed);
    const builder = this.rebuild(parsed, reuse, (host, old) =>
      ts.createEmitAndSemanticDiagnosticsBuilderProgram(
        parsed.fileNames,
        parsed.options,
        host,
        old ?? restored?.builder,
        configDiagnostics,
        parsed.projectReferences,
      ),
    );
    this.stateKey = stateKey(this.configPath, parsed.options);
    this.builtReferences = references;
    // On persisted state only the files whose content (or whose dependencies' shape) changed are checked again.
    const rechecked = restored ? this.checkAffected(builder) : changed;
    const written = new Set<string>();
    const writeFile: TS.WriteFileCallback = (name, text) => {
      written.add(name);
      this.solution.emitted(this.configPath, name, text);
    };
    // JavaScript emit reports nothing tsc -b would not: only declarations are emitted (into memory).
    const { emitResult, diagnostics } = this.emitAndReport(builder, () => {}, undefined, undefined, writeFile, undefined, true);
    this.lastDiagnostics = diagnostics;
    const program = builder.getProgram();
    if (emitResult.emitSkipped && program.getCompilerOptions().noEmitOnError) {
      // A cold build of this state emits nothing; the next build must emit everything again (not only the edits).
      this.solution.prune(this.configPath);
      this.coldNext = true;
    } else {
      // The persisted declarations of the files not emitted again, put back only now: in a cold build the project's
      // own program never sees them (a deleted file's declaration next to its importer would resolve the import).
      for (const [output, text] of restored?.outputs ?? []) if (!written.has(output)) this.solution.emitted(this.configPath, output, text);
      this.solution.prune(this.configPath, this.expectedOutputs(program, parsed));
    }
    this.forgetUnused();
    return { diagnostics, info: { reuse: restored ? "restored" : reuse, changedFiles: rechecked, programFiles: program.getSourceFiles().length } };
  }

  /**
   * The builder state persisted for this parse and the declarations it had emitted (put back after the build);
   * undefined when there is none, it was written for other options, or TypeScript cannot read it. Used once.
   */
  private restored(parsed: TS.ParsedCommandLine): { builder: TS.EmitAndSemanticDiagnosticsBuilderProgram; outputs: [string, string][] } | undefined {
    const restore = this.restore;
    this.restore = undefined;
    const path = this.ts.getTsBuildInfoEmitOutputFilePath(parsed.options);
    if (!restore || !path || restore.key !== stateKey(this.configPath, parsed.options)) return undefined;
    if (this.filesGone(restore.buildInfo, path)) return undefined;
    const sys = this.ts.sys;
    const host = { useCaseSensitiveFileNames: () => sys.useCaseSensitiveFileNames, getCurrentDirectory: () => sys.getCurrentDirectory() };
    let builder: TS.EmitAndSemanticDiagnosticsBuilderProgram | undefined;
    try {
      builder = this.ts.readBuilderProgram(parsed.options, { ...host, readFile: (file) => (file === path ? restore.buildInfo : undefined) }) as
        | TS.EmitAndSemanticDiagnosticsBuilderProgram
        | undefined;
    } catch {
      // A build info this compiler cannot read: the project is built afresh.
      return undefined;
    }
    return builder && { builder, outputs: restore.outputs };
  }

  /** Check every file the builder finds affected (the rest keep their persisted diagnostics); their count. */
  private checkAffected(builder: TS.EmitAndSemanticDiagnosticsBuilderProgram): number {
    const total = builder.getProgram().getSourceFiles().length;
    let count = 0;
    for (let next = builder.getSemanticDiagnosticsOfNextAffectedFile(); next; next = builder.getSemanticDiagnosticsOfNextAffectedFile()) {
      // The whole program at once (options changed): every file.
      count += "kind" in next.affected && next.affected.kind === this.ts.SyntaxKind.SourceFile ? 1 : total;
    }
    return Math.min(count, total);
  }

  /**
   * What a new host may start this project from (see ProjectRestore), without its outputs (the solution holds them);
   * null when there is nothing to keep: no build yet, no build info for these options, or the next build is cold.
   */
  persisted(): { key: string; buildInfo: string } | null {
    const program = this.builder?.getProgram() as (TS.Program & { emitBuildInfo?: (write: TS.WriteFileCallback) => unknown }) | undefined;
    if (!program || this.coldNext || !this.ts.getTsBuildInfoEmitOutputFilePath(program.getCompilerOptions())) return null;
    let buildInfo: string | undefined;
    program.emitBuildInfo?.((_name, data) => (buildInfo = data));
    return buildInfo === undefined ? null : { key: this.stateKey, buildInfo };
  }

  /** The current program (for the causes of its diagnostics). */
  program(): TS.Program | undefined {
    return this.builder?.getProgram();
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
}

/** The key persisted state of a project is kept under: its config and the options it was built with. */
function stateKey(config: string, options: TS.CompilerOptions): string {
  return hashText(`${config}\0${JSON.stringify(options)}`);
}
