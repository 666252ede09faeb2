// A warm `tsc -b`: the project-references graph of one tsconfig, each referenced project a warm builder program
// (solution-project.ts), built in tsc -b's order with the declarations they emit kept in memory.
import { dirname } from "node:path";
import type * as TS from "typescript";
import { fileStamp } from "../engines/file-stamp.ts";
import type { ChangeHint } from "./change-hint.ts";
import { hashText, sameStrings } from "./host-questions.ts";
import { parseStoredSolution, PersistedBuildInfo, type PersistTarget, type StoredSolution } from "./persisted-state.ts";
import { type EmitAndReport, type ProjectRestore, SolutionProject, type SolutionFiles } from "./solution-project.ts";
import { type TsconfigParse, WatchedTsconfig } from "./tsconfig.ts";
import { inputsUnchanged, type WarmCheckInfo } from "./warm-builder.ts";

type Ts = typeof TS;

/** Compiler internals tsc -b itself uses (exported by TypeScript 5.x and 6.x; absent: the command line serves). */
interface BuildInternals {
  emitFilesAndReportErrors?: EmitAndReport;
  createCompilerDiagnostic?: (message: unknown, ...args: string[]) => TS.Diagnostic;
  Diagnostics?: { Project_references_may_not_form_a_circular_graph_Cycle_detected_Colon_0?: unknown };
  isSolutionConfig?: (config: TS.ParsedCommandLine) => boolean;
}

/** How a warm solution check went: the totals, and each project in build order. */
export interface SolutionCheckInfo extends WarmCheckInfo {
  projects: { config: string; reuse: WarmCheckInfo["reuse"] | "config-only"; changedFiles: number }[];
}

/** Where a solution keeps its state between hosts, and the compiler identity it is written for. */
export interface SolutionPersist {
  target: PersistTarget;
  compiler: string;
}

/** A config of the build, kept between checks, and its parse in the current check. */
interface BuildConfig {
  watched: WatchedTsconfig;
  parse: TsconfigParse;
  /** The check (see SolutionBuild.checks) `parse` is from: within one check a config is looked at once. */
  checked: number;
}

/**
 * The warm equivalent of `tsc -b <config>` (TypeScript 5.x/6.x): the same build order (references first, cycles
 * reported as tsc -b reports them and nothing built), the same per-project report (tsc -b's own
 * emitFilesAndReportErrors), each project a warm builder program re-checking only the files its edits affect. The
 * declarations each project emits live in memory and every output path of the solution is hidden on disk, so
 * nothing is written and no earlier build's outputs are read; a project whose inputs (its files and the
 * declarations its references emitted) did not change is not re-checked. A referenced project's own config (a
 * `check_files` in one package) is served by a view sharing the same projects: `view(config)`.
 */
export class WarmTsSolution {
  lastUsed = Date.now();
  private readonly build: SolutionBuild;

  /** `persist`: where the build keeps its state for the next host (none: every new host builds afresh). */
  constructor(
    readonly ts: Ts,
    readonly configPath: string,
    persist: SolutionPersist | SolutionBuild | null = null,
  ) {
    this.build = persist instanceof SolutionBuild ? persist : new SolutionBuild(ts, configPath, persist);
  }

  /**
   * Re-check and return diagnostics exactly as a cold `tsc -b <config>` reports them; null when unsupported. With a
   * change hint only what it names (or what the watch cannot see, or what lives in memory) is looked at again.
   */
  check(hint?: ChangeHint | null): { diagnostics: readonly TS.Diagnostic[]; info: SolutionCheckInfo } | null {
    this.lastUsed = Date.now();
    return this.build.check(this.configPath, hint ?? null);
  }

  /**
   * A new host's first check of this config: the answer an earlier host stored, when the build order, every project's
   * root files and every input that answer rests on are unchanged — exactly when a live build would reuse every
   * project. Null: build (each project on its persisted build info and declarations, where they can be trusted).
   */
  storedAnswer(): unknown {
    return this.build.storedAnswer(this.configPath);
  }

  /** After an answer from disk: build the projects (on their persisted state) for the checks that follow. */
  warmUp(): void {
    if (this.build.answeredFromDisk(this.configPath)) this.check(null);
  }

  /** Keep the build's state and this answer on disk for the next host (nothing when not persisted). */
  persist(answer: unknown): void {
    this.build.persist(this.configPath, answer);
  }

  /** Every file of the programs this config builds (each project's roots and what they import). */
  fileNames(): string[] {
    return this.build.fileNames(this.configPath);
  }

  /** The project program that reported a diagnostic of the last check (for its causes). */
  programOf(diagnostic: TS.Diagnostic): TS.Program | undefined {
    return this.build.programs.get(diagnostic);
  }

  /** After a package install or lockfile change, every project redoes its module resolutions. */
  invalidateResolutions(): void {
    this.build.invalidateResolutions();
  }

  /** Every config a check of this build (from any root) built: a view of the solution serves each of them. */
  coveredConfigs(): string[] {
    return this.build.coveredConfigs();
  }

  /** `tsc -b <config>` for a project of this solution, sharing its warm projects and their declarations. */
  view(config: string): WarmTsSolution {
    return new WarmTsSolution(this.ts, config, this.build);
  }
}

/** The key a solution's state is stored under: one state per root config (a view's too). */
const solutionKey = (root: string) => hashText(`solution\0${root}`);

/** The projects, parsed configs and in-memory declarations a solution and its views share. */
class SolutionBuild {
  private readonly configs = new Map<string, BuildConfig>();
  private readonly projects = new Map<string, SolutionProject>();
  private readonly orders = new Map<string, string[]>();
  private readonly outputs = new Map<string, { text: string; hash: string; project: string }>();
  readonly programs = new WeakMap<TS.Diagnostic, TS.Program>();
  private outputDirs: Map<string, Set<string>> | null = null;
  /** During a check, the projects built before the one building now (whose outputs it sees); null: not building. */
  private builtBefore: Set<string> | null = null;
  private hidden = new Set<string>();
  /** Every output path hidden or held in memory so far, and the directories of the latter: no watch sees them. */
  private readonly unwatched = new Set<string>();
  /** The current check's hint, and its number (parses are reused within a check). */
  private hint: ChangeHint | null = null;
  private checks = 0;
  private hiddenFrom: (TS.ParsedCommandLine | undefined)[] = [];
  private readonly internals: BuildInternals;
  private readonly files: SolutionFiles;
  private readonly owner: string;
  /** Each root config's persisted state (see persisted-state.ts), read at most once per host. */
  private readonly stores = new Map<string, PersistedBuildInfo>();
  private readonly loaded = new Set<string>();
  /** Persisted project states read and not yet used: each project's first build starts from its own. */
  private readonly restores = new Map<string, ProjectRestore>();
  /** Roots whose last answer came from disk (nothing built yet). */
  private readonly fromDisk = new Set<string>();
  /** What each root's state on disk was written from (its projects' programs and configs' parses). */
  private readonly saved = new Map<string, readonly unknown[]>();
  /** Why persisted state was not used (one line for the server), once. */
  private notice: string | undefined;

  constructor(
    private readonly ts: Ts,
    owner: string,
    private readonly persistTo: SolutionPersist | null = null,
  ) {
    this.owner = owner.replace(/\\/g, "/");
    this.internals = ts as unknown as BuildInternals;
    this.files = this.createFiles();
  }

  /** See WarmTsSolution.storedAnswer. */
  storedAnswer(rootConfig: string): unknown {
    const root = rootConfig.replace(/\\/g, "/");
    const isSolutionConfig = this.internals.isSolutionConfig;
    if (!this.persistTo || !isSolutionConfig || this.orders.has(root) || this.loaded.has(root)) return null;
    const state = this.load(root);
    if (!state || state.answer === undefined) return null;
    this.hint = null;
    this.checks++;
    const { order, cycles } = this.buildOrder(root);
    if (cycles.length || !sameStrings(order, state.order)) return null;
    const roots = new Map(state.roots);
    for (const config of order) {
      const commandLine = this.parse(config).commandLine;
      if (!sameStrings(roots.get(config) ?? [], commandLine && !isSolutionConfig(commandLine) ? commandLine.fileNames : [])) return null;
    }
    if (!inputsUnchanged(this.ts, this.files, state.inputs)) return null;
    this.fromDisk.add(root);
    return state.answer;
  }

  answeredFromDisk(rootConfig: string): boolean {
    return this.fromDisk.delete(rootConfig.replace(/\\/g, "/"));
  }

  /**
   * Write the state of the last check of `rootConfig` for the next host: the answer, what it rests on, and each
   * project's build info and declarations. Nothing new since the last write (every project reused): its use time only.
   */
  persist(rootConfig: string, answer: unknown): void {
    const root = rootConfig.replace(/\\/g, "/");
    const store = this.store(root);
    const order = this.orders.get(root);
    const isSolutionConfig = this.internals.isSolutionConfig;
    if (!store || !order || !isSolutionConfig || this.fromDisk.has(root)) return;
    const marks = order.flatMap((config) => [this.projects.get(config)?.program(), this.configs.get(config)?.parse]);
    const last = this.saved.get(root);
    if (last && sameItems(last, marks)) return store.touch();
    // The in-memory declarations (and their directories) and the output paths hidden on disk now follow from the
    // rest: not inputs. A path that was one once (an outDir since moved, a project since dropped) is read from disk.
    const memoryDirectories = this.memoryDirectories();
    const derived = (path: string) => this.outputs.has(path) || this.hidden.has(path) || memoryDirectories.has(path);
    const hashes = new Map<string, string>();
    const observations = new Map<string, string>();
    const state: StoredSolution = { answer, order, roots: [], inputs: { hashes: [], observations: [] }, projects: [] };
    for (const config of order) {
      const parse = this.configs.get(config)?.parse;
      for (const [path, hash] of parse?.reads ?? []) hashes.set(path, hash);
      const commandLine = parse?.commandLine;
      state.roots.push([config, commandLine && !isSolutionConfig(commandLine) ? [...commandLine.fileNames] : []]);
      const project = this.projects.get(config);
      if (!project) continue;
      const inputs = project.inputsRecord([], derived);
      for (const [path, hash] of inputs.hashes) hashes.set(path, hash);
      for (const [key, answer] of inputs.observations) observations.set(key, answer);
      const persisted = project.persisted();
      if (persisted) state.projects.push({ config, ...persisted, outputs: this.outputsOf(config) });
    }
    state.inputs = { hashes: [...hashes], observations: [...observations] };
    store.save(solutionKey(root), JSON.stringify(state));
    this.saved.set(root, marks);
  }

  /** The persisted state of `root`, read once per host: its projects' states wait for their first builds. */
  private load(root: string): StoredSolution | null {
    if (this.loaded.has(root)) return null;
    this.loaded.add(root);
    const store = this.store(root);
    if (!store) return null;
    const { text, notice } = store.load(solutionKey(root));
    const state = text === null ? null : parseStoredSolution(text);
    this.notice ??= text !== null && !state ? `persisted TypeScript state for ${root} ignored (unexpected shape); building afresh` : notice;
    if (!state) return null;
    for (const project of state.projects)
      if (!this.projects.has(project.config) && !this.restores.has(project.config)) this.restores.set(project.config, project);
    return state;
  }

  private store(root: string): PersistedBuildInfo | null {
    if (!this.persistTo) return null;
    let store = this.stores.get(root);
    if (!store) this.stores.set(root, (store = new PersistedBuildInfo(this.persistTo.target, `solution\0${root}`, this.persistTo.compiler)));
    return store;
  }

  /** The declarations a project emitted (held in memory), by path. */
  private outputsOf(config: string): [string, string][] {
    return [...this.outputs].filter(([, output]) => output.project === config).map(([path, output]) => [path, output.text]);
  }

  check(rootConfig: string, hint: ChangeHint | null): { diagnostics: readonly TS.Diagnostic[]; info: SolutionCheckInfo } | null {
    this.hint = hint;
    this.checks++;
    const { emitFilesAndReportErrors, createCompilerDiagnostic, Diagnostics, isSolutionConfig } = this.internals;
    const circularMessage = Diagnostics?.Project_references_may_not_form_a_circular_graph_Cycle_detected_Colon_0;
    if (!emitFilesAndReportErrors || !createCompilerDiagnostic || !circularMessage || !isSolutionConfig) return null;
    // Before 5.6, tsc -b skipped the projects downstream of one with errors: those keep the command line.
    const [major = 0, minor = 0] = this.ts.versionMajorMinor.split(".").map(Number);
    if (major < 5 || (major === 5 && minor < 6)) return null;
    const root = rootConfig.replace(/\\/g, "/");
    if (this.persistTo) this.load(root);
    // Without references this is a plain project: the warm program serves it.
    if (!this.parse(root).commandLine?.projectReferences?.length) return null;
    const { order, cycles } = this.buildOrder(root);
    this.orders.set(root, order);
    const info: SolutionCheckInfo = { reuse: "reused", changedFiles: 0, programFiles: 0, projects: [] };
    if (this.notice) info.notice = this.notice;
    this.notice = undefined;
    if (cycles.length) return { diagnostics: cycles.map((stack) => createCompilerDiagnostic(circularMessage, stack)), info };
    this.hideOutputs();
    this.builtBefore = new Set();
    try {
      return this.buildAll(root, order, info);
    } finally {
      this.builtBefore = null;
    }
  }

  /** Check every project of `order` in turn, each seeing only the outputs of those before it. */
  private buildAll(root: string, order: string[], info: SolutionCheckInfo): { diagnostics: readonly TS.Diagnostic[]; info: SolutionCheckInfo } {
    const { emitFilesAndReportErrors, isSolutionConfig } = this.internals as Required<BuildInternals>;
    const diagnostics: TS.Diagnostic[] = [];
    const reuses = new Set<string>();
    for (const config of order) {
      const { commandLine, failure } = this.parse(config);
      if (!commandLine || isSolutionConfig(commandLine) || commandLine.fileNames.length === 0) {
        // tsc -b reports an unreadable config's failure, and only the config's own errors for one without files.
        diagnostics.push(...(commandLine ? this.ts.getConfigFileParsingDiagnostics(commandLine) : failure ? [failure] : []));
        info.projects.push({ config, reuse: "config-only", changedFiles: 0 });
        continue;
      }
      let project = this.projects.get(config);
      if (!project) {
        this.projects.set(config, (project = new SolutionProject(this.ts, config, this.files, emitFilesAndReportErrors)));
        project.restore = this.restores.get(config);
        this.restores.delete(config);
      }
      const result = project.check(commandLine, this.referenced(commandLine), this.hint);
      diagnostics.push(...result.diagnostics);
      const program = project.program();
      if (program) for (const diagnostic of result.diagnostics) this.programs.set(diagnostic, program);
      info.projects.push({ config, reuse: result.info.reuse, changedFiles: result.info.changedFiles });
      info.changedFiles += result.info.changedFiles;
      info.programFiles += result.info.programFiles;
      reuses.add(result.info.reuse);
      this.builtBefore?.add(config);
    }
    info.reuse = reuses.has("full") ? "full" : reuses.has("restored") ? "restored" : reuses.has("incremental") ? "incremental" : "reused";
    if (root === this.owner) this.forgetProjects(new Set(order));
    // Shared declarations no project uses any more (an old version of an output, a file no longer imported) go.
    const used = new Set([...this.projects.values()].flatMap((project) => project.sourceFiles()));
    for (const [key, cached] of this.files.declarations) if (!used.has(cached.sourceFile)) this.files.declarations.delete(key);
    return { diagnostics, info };
  }

  fileNames(root: string): string[] {
    const order = this.orders.get(root.replace(/\\/g, "/")) ?? [];
    return [...new Set(order.flatMap((config) => this.projects.get(config)?.fileNames() ?? []))];
  }

  coveredConfigs(): string[] {
    return [...new Set([...this.orders.values()].flat())];
  }

  invalidateResolutions(): void {
    for (const project of this.projects.values()) project.resolutionsSuspect = true;
  }

  /** tsc -b's build order: a depth-first walk of the references from the config, each project after its references. */
  private buildOrder(root: string): { order: string[]; cycles: string[] } {
    const order: string[] = [];
    const cycles: string[] = [];
    const done = new Set<string>();
    const visiting = new Set<string>();
    const stack: string[] = [];
    const visit = (config: string, inCircularContext: boolean) => {
      if (done.has(config)) return;
      if (visiting.has(config)) {
        if (!inCircularContext) cycles.push(stack.join("\r\n"));
        return;
      }
      visiting.add(config);
      stack.push(config);
      for (const ref of this.parse(config).commandLine?.projectReferences ?? []) {
        visit(this.ts.resolveProjectReferencePath(ref), inCircularContext || !!ref.circular);
      }
      stack.pop();
      done.add(config);
      order.push(config);
    };
    visit(root, false);
    return { order, cycles };
  }

  /** A config as tsc -b parses it, parsed again only when one of its inputs changed (see WatchedTsconfig). */
  private parse(config: string): TsconfigParse {
    let entry = this.configs.get(config);
    if (!entry)
      this.configs.set(
        config,
        (entry = { watched: new WatchedTsconfig(this.ts, config), parse: { commandLine: undefined, failure: undefined, reads: [] }, checked: 0 }),
      );
    if (entry.checked !== this.checks) {
      entry.parse = entry.watched.current(this.hint);
      entry.checked = this.checks;
    }
    return entry.parse;
  }

  /**
   * The parses of every config `commandLine` references, directly or through other references, in a fixed order: a
   * program resolves them all (their errors and outputs are part of it), so a change in any of them rebuilds it.
   */
  private referenced(commandLine: TS.ParsedCommandLine): (TS.ParsedCommandLine | undefined)[] {
    const seen = new Set<string>();
    const out: (TS.ParsedCommandLine | undefined)[] = [];
    const visit = (from: TS.ParsedCommandLine | undefined) => {
      for (const ref of from?.projectReferences ?? []) {
        const path = this.ts.resolveProjectReferencePath(ref);
        if (seen.has(path)) continue;
        seen.add(path);
        const parsed = this.parse(path).commandLine;
        out.push(parsed);
        visit(parsed);
      }
    };
    visit(commandLine);
    return out;
  }

  /** Hide every output path of every project parsed so far on disk (recomputed when a config was parsed anew). */
  private hideOutputs(): void {
    const parsed = [...this.configs.values()].map((config) => config.parse.commandLine);
    if (parsed.length === this.hiddenFrom.length && parsed.every((commandLine, i) => commandLine === this.hiddenFrom[i])) return;
    const ignoreCase = !this.ts.sys.useCaseSensitiveFileNames;
    const hidden = new Set<string>();
    for (const commandLine of parsed) {
      if (!commandLine) continue;
      for (const file of commandLine.fileNames) for (const output of this.ts.getOutputFileNames(commandLine, file, ignoreCase)) hidden.add(output);
      const buildInfo = this.ts.getTsBuildInfoEmitOutputFilePath(commandLine.options);
      if (buildInfo) hidden.add(buildInfo);
    }
    this.hidden = hidden;
    this.hiddenFrom = parsed;
    for (const path of hidden) this.unwatched.add(path);
  }

  private forgetProjects(inOrder: ReadonlySet<string>): void {
    for (const config of this.projects.keys()) {
      if (inOrder.has(config)) continue;
      this.projects.delete(config);
      this.files.prune(config);
    }
    for (const config of this.configs.keys()) if (!inOrder.has(config)) this.configs.delete(config);
    for (const root of this.orders.keys()) if (!inOrder.has(root)) this.orders.delete(root);
  }

  private createFiles(): SolutionFiles {
    const sys = this.ts.sys;
    return {
      readFile: (path) => this.visible(path)?.text ?? (this.hiddenNow(path) ? undefined : sys.readFile(path)),
      fileExists: (path) => !!this.visible(path) || (!this.hiddenNow(path) && sys.fileExists(path)),
      directoryExists: (path) => sys.directoryExists(path) || this.visibleDirectory(path),
      stamp: (path) => {
        const output = this.visible(path);
        if (output) return `memory:${output.hash}`;
        return this.hiddenNow(path) ? null : fileStamp(path);
      },
      emitted: (project, path, text) => {
        // Declarations are what downstream projects read; JavaScript, maps and build info are dropped.
        if (!/\.d\.[cm]?ts$/.test(path)) return;
        this.outputs.set(path, { text, hash: hashText(text), project });
        this.outputDirs = null;
        this.unwatched.add(path);
        for (let dir = dirname(path); !this.unwatched.has(dir) && dir !== dirname(dir); dir = dirname(dir)) this.unwatched.add(dir);
      },
      prune: (project, keep) => {
        for (const [path, output] of this.outputs) if (output.project === project && !keep?.has(path)) this.outputs.delete(path);
        this.outputDirs = null;
      },
      parsedConfig: (path) => this.parse(path).commandLine,
      declarations: new Map(),
      unwatched: (path) => this.unwatched.has(path),
    };
  }

  /**
   * An in-memory output the project being built may read: in a cold build only the projects built before it have
   * written theirs (not itself, not one built later, not one outside this root's build). Outside a build: any.
   */
  private visible(path: string): { text: string; hash: string; project: string } | undefined {
    const output = this.outputs.get(path);
    return output && (!this.builtBefore || this.builtBefore.has(output.project)) ? output : undefined;
  }

  /** An output path nothing may read from disk: hidden, or held in memory for a project not visible now. */
  private hiddenNow(path: string): boolean {
    return this.hidden.has(path) || this.outputs.has(path);
  }

  /** Directories holding in-memory outputs, by whose (they exist for module resolution, as after a real build). */
  private memoryDirectories(): Map<string, Set<string>> {
    if (this.outputDirs) return this.outputDirs;
    const dirs = new Map<string, Set<string>>();
    for (const [path, { project }] of this.outputs) {
      for (let dir = dirname(path); !dirs.get(dir)?.has(project) && dir !== dirname(dir); dir = dirname(dir)) {
        const projects = dirs.get(dir) ?? new Set<string>();
        dirs.set(dir, projects.add(project));
      }
    }
    this.outputDirs = dirs;
    return dirs;
  }

  /** A directory that holds an in-memory output the project being built may see (see `visible`). */
  private visibleDirectory(path: string): boolean {
    const projects = this.memoryDirectories().get(path);
    return !!projects && (!this.builtBefore || [...projects].some((project) => this.builtBefore?.has(project)));
  }
}

const sameItems = (a: readonly unknown[], b: readonly unknown[]) => a.length === b.length && a.every((item, i) => item === b[i]);
