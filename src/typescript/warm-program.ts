// A warm TypeScript 5.x/6.x program kept between checks, built on the checked project's own compiler API.
// The TS API is synchronous and does its own file I/O, so this module reads file metadata with node:fs directly
// (it runs under Node, inside the binary and under Deno's node: compatibility alike).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type * as TS from "typescript";
import { exactStamp, fileStamp } from "../engines/file-stamp.ts";
import type { ChangeHint } from "./change-hint.ts";
import { formatTsconfigDiagnostics, WatchedTsconfig } from "./tsconfig.ts";
import { diskFiles, WarmBuilder, type WarmCheckInfo } from "./warm-builder.ts";
import { parseStoredState, PersistedBuildInfo, type PersistTarget, StoredAnswerGate, type StoredState } from "./persisted-state.ts";
import { hashText, sameStrings } from "./host-questions.ts";
import { namedDiagnostics } from "./named-first.ts";

type Ts = typeof TS;

const loaded = new Map<string, Ts | null>();

/** A build whose answer is still to be collected: how it reused the last one, and the files it found changed. */
interface Begun {
  reuse: "incremental" | "full";
  restored: boolean;
  changed: number;
  /** The options and global diagnostics were empty before any file was checked (see collect). */
  earlyEmpty: boolean;
}

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
    // TypeScript prints with sys.write to stdout (resolution traces, listings): never here, where stdout is a channel.
    if (ts) ts.sys.write = () => {};
  }
  loaded.set(identity, ts);
  return ts;
}

/**
 * `copy` with the parsed config file of `options`, a non-enumerable property (a spread drops it): without it, option
 * diagnostics (TypeScript 6's deprecations) lose their location in the tsconfig.
 */
function withConfigFile(copy: TS.CompilerOptions, options: TS.CompilerOptions): TS.CompilerOptions {
  if (options.configFile) Object.defineProperty(copy, "configFile", { value: options.configFile, enumerable: false, writable: false });
  return copy;
}

/** What a program's owner does around its builds (a vue-tsc program's plugins: warm-host.ts). */
export interface ProgramHooks {
  /** After each parse, before anything is built or reused: the config files it read, with their hashes. May throw. */
  parsed?(reads: readonly [string, string][]): void;
  /** Before each build: `fresh` when it redoes module resolutions (or starts from nothing). May throw. */
  beforeBuild?(fresh: boolean): void;
  /** Each program as it is made, before the builder takes it over (and before anything asks it for a file). */
  programMade?(program: TS.Program): void;
  /** A kept source whose text changed (`text`: now; undefined: gone), before anything is rebuilt. May throw. */
  sourceChanged?(before: TS.SourceFile, text: string | undefined): void;
}

/**
 * One tsconfig's warm program (`tsc --noEmit -p`): the config parsed again when it or a directory its include patterns
 * cover changed (so added, removed and renamed files and option changes are seen), every file the last program read
 * re-stat'ed (including .d.ts in node_modules and lib files) and its SourceFile reused while its content hash is
 * unchanged, every recorded file-system answer asked again (see WarmBuilder); the builder then re-checks only what
 * the edits affect.
 */
export class WarmTsProgram extends WarmBuilder<TS.SemanticDiagnosticsBuilderProgram> {
  private readonly config: WatchedTsconfig;
  /** Why the last check could not be served warm (the config cannot be read, or it has references). */
  unserved = "";
  lastUsed = Date.now();
  /** A named-files answer's build, whose whole answer the next check collects (see checkFirst). */
  private unfinished: Begun | null = null;
  /** The program's build info on disk (null: not persisted); `stateKey` is the key of the options it was built with. */
  private readonly persisted: PersistedBuildInfo | null;
  private stateKey = "";
  /** Why persisted state was not used (one line for the server), once. */
  private notice: string | undefined;
  /** The stored state as read (undefined: not read yet; null: none to trust), and the options key it was read for. */
  private stored: StoredState | null | undefined;
  private storedKey = "";
  /** The stored answer, looked at once per host (nothing built while an answer from disk is the last). */
  private readonly storedGate = new StoredAnswerGate();
  /** The first build took the stored build info (or found none): later builds never do. */
  private restoredOnce = false;
  /** The config files the current parse read, with their hashes (what a persisted answer rests on). */
  private configReads: [string, string][] = [];
  /** The builder and config reads the state on disk was last written from (a reused check has nothing new). */
  private saved: { builder: TS.SemanticDiagnosticsBuilderProgram; configReads: [string, string][] } | undefined;
  /** The last options copied for the builder, and what they were copied from (see ownCopy). */
  private copied: { from: TS.CompilerOptions; copy: TS.CompilerOptions } | undefined;

  constructor(
    ts: Ts,
    configPath: string,
    persist: { target: PersistTarget; compiler: string } | null = null,
    private readonly hooks: ProgramHooks = {},
  ) {
    super(ts, configPath, diskFiles(ts, fileStamp));
    this.config = new WatchedTsconfig(ts, configPath, { noEmit: true });
    this.persisted = persist ? new PersistedBuildInfo(persist.target, `project\0${configPath}`, persist.compiler) : null;
  }

  protected override sourceChanged(before: TS.SourceFile, text: string | undefined): void {
    this.hooks.sourceChanged?.(before, text);
  }

  /** Re-check and return diagnostics exactly as `tsc --noEmit -p <config>` reports them; null when unsupported. */
  check(hint?: ChangeHint | null): { diagnostics: readonly TS.Diagnostic[]; info: WarmCheckInfo } | null {
    const begun = this.begin(hint);
    return !begun || "diagnostics" in begun ? begun : this.finish(begun);
  }

  /**
   * The named files first: rebuild as `check` does, then only these files' diagnostics (`pending`: how many other files
   * are still to be re-checked, at most), leaving the rest for the next check — which finishes this one, or rebuilds on
   * it when something changed meanwhile. The whole answer when it is as near (nothing to re-check, an early error) and
   * for a first or full build (every file is checked then, not what an edit affects).
   */
  checkFirst(hint: ChangeHint | null, files: readonly string[]): { diagnostics: readonly TS.Diagnostic[]; info: WarmCheckInfo; pending?: number } | null {
    const begun = this.begin(hint);
    if (!begun || "diagnostics" in begun) return begun;
    if (begun.reuse !== "incremental" || begun.restored) return this.finish(begun);
    const program = this.builder?.getProgram();
    const named = program && namedDiagnostics(this.ts, program, files);
    if (!named) return this.finish(begun);
    // The named files are every file to check: the whole answer now (asked once more, the global diagnostics could differ).
    if (named.pendingFiles === 0) return this.finish({ ...begun, earlyEmpty: true });
    this.unfinished = { ...begun, earlyEmpty: true };
    this.forgetUnused();
    return { diagnostics: named.diagnostics, info: this.infoOf(begun, begun.changed), pending: named.pendingFiles };
  }

  /** Parse, reconcile and (re)build: the last answer when nothing changed, else what `finish` completes. */
  private begin(hint?: ChangeHint | null): { diagnostics: readonly TS.Diagnostic[]; info: WarmCheckInfo } | Begun | null {
    const ts = this.ts;
    this.lastUsed = Date.now();
    const parse = this.config.current(hint);
    const parsed = parse.commandLine;
    this.configReads = parse.reads;
    this.hooks.parsed?.(parse.reads);
    // Unreadable configs and configs with references and files of their own stay with the command line. A config with
    // references and no files (a solution's root, run `-p` by vue-tsc) checks only its options and references (a
    // reference's config missing, say): the same program here. With files it would read the references' outputs.
    const referencing = parsed?.projectReferences?.length && parsed.fileNames.length > 0;
    this.unserved = !parsed ? formatTsconfigDiagnostics(ts, parse) || "the config cannot be read" : referencing ? "it has references" : "";
    const unfinished = this.unfinished;
    this.unfinished = null;
    if (!parsed || this.unserved) return null;
    const { reuse, changed } = this.reconcile(parsed, hint, true);
    // A named-files answer left the rest of its check to this one.
    if (reuse === "reused") return unfinished ?? this.reused();
    // `tsc -p` reports the config file's own parse diagnostics as well as the parser's errors.
    const configDiagnostics = ts.getConfigFileParsingDiagnostics(parsed);
    const options = this.persistedOptions(parsed.options);
    let restored: TS.SemanticDiagnosticsBuilderProgram | undefined;
    this.rebuild(parsed, reuse, (host, old) => {
      this.hooks.beforeBuild?.(!old || this.resolutionsSuspect);
      restored = old ? undefined : this.restore(options);
      if (!this.hooks.programMade)
        return ts.createSemanticDiagnosticsBuilderProgram(parsed.fileNames, options, host, old ?? restored, configDiagnostics, parsed.projectReferences);
      // The same builder, its program made first: the owner sees it before the builder asks it anything.
      const oldProgram = old?.getProgram();
      const program = ts.createProgram({
        rootNames: parsed.fileNames,
        options,
        host,
        ...(oldProgram ? { oldProgram } : {}),
        configFileParsingDiagnostics: configDiagnostics,
        ...(parsed.projectReferences ? { projectReferences: parsed.projectReferences } : {}),
      });
      this.hooks.programMade(program);
      return ts.createSemanticDiagnosticsBuilderProgram(program, host, old ?? restored);
    });
    // After an unfinished check (always incremental), this build re-checks what that one left too: its builder is the old one.
    return { reuse, restored: !!restored, changed: changed + (unfinished?.changed ?? 0), earlyEmpty: false };
  }

  /** Re-check what the build affects and collect the whole answer. */
  private finish(begun: Begun): { diagnostics: readonly TS.Diagnostic[]; info: WarmCheckInfo } {
    // Built on persisted state: only the files whose content (or whose dependencies' shape) changed are checked.
    const rechecked = begun.restored ? this.checkAffected() : begun.changed;
    this.lastDiagnostics = this.collect(begun.earlyEmpty);
    this.forgetUnused();
    return { diagnostics: this.lastDiagnostics, info: this.infoOf(begun, rechecked) };
  }

  private infoOf(begun: Begun, rechecked: number): WarmCheckInfo {
    const info: WarmCheckInfo = { reuse: begun.restored ? "restored" : begun.reuse, changedFiles: rechecked, programFiles: this.sourceFiles().length };
    const notice = this.notice;
    this.notice = undefined;
    return notice ? { ...info, notice } : info;
  }

  /**
   * The options the builder gets: the user's, plus build info in the cache directory when state is persisted. Not
   * persisted (the user's options exactly) when adding them could change what tsc reports: a tsBuildInfoFile without
   * incremental or composite is the user's own error (TS5069), so is `incremental: false` with `composite` (TS6379),
   * and outFile programs keep a different kind of state. A plain `incremental: false` (the user wants no build info
   * written by their tsc) is persisted: ours goes to the cache directory and changes nothing tsc reports.
   */
  private persistedOptions(options: TS.CompilerOptions): TS.CompilerOptions {
    const userBuildInfo = options.tsBuildInfoFile !== undefined && !options.incremental && !options.composite;
    if (!this.persisted || userBuildInfo || (options.incremental === false && options.composite) || options.outFile) {
      this.stateKey = "";
      return this.ownCopy(options);
    }
    this.stateKey = hashText(`${this.configPath}\0${JSON.stringify(options)}`);
    return withConfigFile({ ...options, incremental: true, tsBuildInfoFile: this.persisted.buildInfoPath }, options);
  }

  /**
   * The options as the builder gets them when nothing is added: a copy, one per parse, so what the compiler writes into
   * its options (Volar's `allowArbitraryExtensions` under vue-tsc) changes neither the parse nor the next build's options.
   */
  private ownCopy(options: TS.CompilerOptions): TS.CompilerOptions {
    if (this.copied?.from === options) return this.copied.copy;
    const copy = withConfigFile({ ...options }, options);
    this.copied = { from: options, copy };
    return copy;
  }

  /** The builder state persisted for these options, if any can be trusted (TypeScript checks its own version too). */
  private restore(options: TS.CompilerOptions): TS.SemanticDiagnosticsBuilderProgram | undefined {
    // Read once per host: later full builds (a package install, options changed) start from nothing, as before.
    if (this.restoredOnce) return undefined;
    this.restoredOnce = true;
    const text = this.readStored()?.buildInfo;
    this.stored = null;
    if (!this.persisted || text === undefined) return undefined;
    const path = this.persisted.buildInfoPath;
    if (this.filesGone(text, path)) return undefined;
    const host = { useCaseSensitiveFileNames: () => this.ts.sys.useCaseSensitiveFileNames, getCurrentDirectory: () => this.ts.sys.getCurrentDirectory() };
    try {
      return this.ts.readBuilderProgram(options, { ...host, readFile: (file) => (file === path ? text : undefined) });
    } catch (error) {
      this.notice = `persisted TypeScript state for ${this.configPath} ignored (${(error as Error).message.split("\n", 1)[0]}); building afresh`;
      return undefined;
    }
  }

  /** Check every file the builder finds affected (the rest keep their persisted diagnostics); their count. */
  private checkAffected(): number {
    const builder = this.builder as TS.SemanticDiagnosticsBuilderProgram;
    const total = this.sourceFiles().length;
    let count = 0;
    for (let next = builder.getSemanticDiagnosticsOfNextAffectedFile(); next; next = builder.getSemanticDiagnosticsOfNextAffectedFile()) {
      // The whole program at once (options changed): every file.
      count += "kind" in next.affected && next.affected.kind === this.ts.SyntaxKind.SourceFile ? 1 : total;
    }
    return Math.min(count, total);
  }

  /** The stored state for the current key, read once (a notice when it cannot be trusted). */
  private readStored(): StoredState | null {
    if (this.stored !== undefined && this.storedKey === this.stateKey) return this.stored;
    this.storedKey = this.stateKey;
    if (!this.persisted || !this.stateKey) return (this.stored = null);
    const { text, notice } = this.persisted.load(this.stateKey);
    this.notice = notice;
    this.stored = text === null ? null : parseStoredState(text);
    if (text !== null && !this.stored) this.notice = `persisted TypeScript state for ${this.configPath} ignored (unexpected shape); building afresh`;
    return this.stored;
  }

  /**
   * A new host's first check: the answer stored by an earlier host, when the tsconfig parses to the same options and
   * root files and every input of that answer (each file's content, the configs, every recorded file-system answer)
   * is unchanged — exactly when a live program would reuse its last answer. Null: build (on the stored build info).
   * `keep`: a prewarm's look — the answer stays for the first check (which looks again), and no build follows it.
   */
  storedAnswer(keep = false): unknown {
    if (this.builder || !this.persisted) return null;
    // A stored answer that does not hold is not looked at again: the program is built (on the stored build info).
    return this.storedGate.take(keep, () => {
      const parsed = this.config.current(null).commandLine;
      if (!parsed || parsed.projectReferences?.length) return undefined;
      this.persistedOptions(parsed.options);
      const state = this.readStored();
      const holds = !!state && state.answer !== undefined && sameStrings(state.roots, parsed.fileNames) && this.inputsUnchanged(state.inputs);
      return holds ? state.answer : undefined;
    });
  }

  /** After an answer from disk: build the program (on the stored build info) for the checks that follow. */
  warmUp(): void {
    this.storedGate.afterAnswer(() => this.check(null));
  }

  /** Write the build info, the answer given and its inputs to the cache directory (nothing when not persisted). */
  persist(answer: unknown): void {
    const builder = this.builder;
    if (!this.persisted || !this.stateKey || !builder || this.storedGate.fromDisk || !this.builtFrom) return;
    // A reused answer rests on what was written last: serializing the whole build info again only to find it equal
    // would cost every unchanged check (tens of ms on a few hundred files) before the next could start.
    if (this.saved?.builder === builder && this.saved.configReads === this.configReads) return this.persisted.touch();
    let buildInfo: string | undefined;
    const program = builder.getProgram() as TS.Program & { emitBuildInfo?: (write: TS.WriteFileCallback) => unknown };
    program.emitBuildInfo?.((_name, data) => (buildInfo = data));
    if (buildInfo === undefined) return;
    const state: StoredState = { buildInfo, answer, roots: [...this.builtFrom.fileNames], inputs: this.inputsRecord(this.configReads) };
    this.persisted.save(this.stateKey, JSON.stringify(state));
    this.saved = { builder, configReads: this.configReads };
  }

  /** The current program (for the causes of its diagnostics), or undefined before the first build. */
  currentProgram(): TS.Program | undefined {
    return this.builder?.getProgram();
  }

  /** True once a program has been built and can answer incrementally. */
  get isWarm(): boolean {
    return this.builder !== undefined;
  }

  /**
   * The same diagnostics, in the same order of precedence, as tsc's emitFilesAndReportErrors with --noEmit.
   * `earlyEmpty`: the options and global diagnostics were asked before any file was checked (the named files' answer)
   * and there were none; asked again now, the global ones could hold what checking those files added, which tsc's own
   * order (global before semantic) never reports.
   */
  private collect(earlyEmpty = false): readonly TS.Diagnostic[] {
    const program = this.builder as TS.SemanticDiagnosticsBuilderProgram;
    const options = program.getCompilerOptions();
    const all: TS.Diagnostic[] = [...program.getConfigFileParsingDiagnostics()];
    const configCount = all.length;
    all.push(...program.getSyntacticDiagnostics());
    if (all.length === configCount) {
      if (!earlyEmpty) all.push(...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics());
      if (all.length === configCount) all.push(...program.getSemanticDiagnostics());
      if (options.noEmit && (options.declaration || options.composite) && all.length === configCount) {
        all.push(...program.getDeclarationDiagnostics());
      }
    }
    return this.ts.sortAndDeduplicateDiagnostics(all);
  }
}
