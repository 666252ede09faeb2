// The machinery of a warm `tsc -b` (warm-solution.ts): the build order, the configs as tsc -b parses them, each
// referenced project a warm builder program (solution-project.ts), the declarations they emit kept in memory, and the
// build's state on disk (solution-state.ts).
import { basename, dirname } from "node:path";
import type * as TS from "typescript";
import { fileStamp } from "../engines/file-stamp.ts";
import type { ChangeHint } from "./change-hint.ts";
import { sameStrings } from "./host-questions.ts";
import type { StoredSolution } from "./persisted-state.ts";
import { EmittedDeclarations } from "./solution-outputs.ts";
import { type EmitAndReport, SolutionProject, type SolutionFiles } from "./solution-project.ts";
import { type SolutionPersist, SolutionState } from "./solution-state.ts";
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
  /** `ms`: the project's own check (reconcile, build, emit of declarations, diagnostics), for profiling. */
  projects: { config: string; reuse: WarmCheckInfo["reuse"] | "config-only"; changedFiles: number; ms: number }[];
}

/** A config of the build, kept between checks, and its parse in the current check. */
interface BuildConfig {
  watched: WatchedTsconfig;
  parse: TsconfigParse;
  /** The check (see SolutionBuild.checks) `parse` is from: within one check a config is looked at once. */
  checked: number;
}

/** The projects, parsed configs and in-memory declarations a solution and its views share. */
export class SolutionBuild {
  private readonly configs = new Map<string, BuildConfig>();
  private readonly projects = new Map<string, SolutionProject>();
  private readonly orders = new Map<string, string[]>();
  private readonly outputs = new EmittedDeclarations();
  readonly programs = new WeakMap<TS.Diagnostic, TS.Program>();
  /** During a check, the projects built before the one building now (whose outputs it sees); null: not building. */
  private builtBefore: Set<string> | null = null;
  /** Directories with their links resolved, in the current check (see `linked`). */
  private realDirs = { checks: -1, dirs: new Map<string, string>() };
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
  /** The build's state on disk (null: not persisted). */
  private readonly disk: SolutionState | null;
  /** Roots whose last answer came from disk (nothing built yet). */
  private readonly fromDisk = new Set<string>();
  /** What each root's state on disk was written from (its projects' programs and configs' parses). */
  private readonly saved = new Map<string, readonly unknown[]>();

  constructor(
    private readonly ts: Ts,
    owner: string,
    persist: SolutionPersist | null = null,
  ) {
    this.owner = owner.replace(/\\/g, "/");
    this.internals = ts as unknown as BuildInternals;
    this.files = this.createFiles();
    this.disk = persist && new SolutionState(persist);
  }

  /** See WarmTsSolution.storedAnswer (`keep`: a prewarm's look, which leaves the state for the first check). */
  storedAnswer(rootConfig: string, keep = false): unknown {
    const root = rootConfig.replace(/\\/g, "/");
    const isSolutionConfig = this.internals.isSolutionConfig;
    if (!this.disk || !isSolutionConfig || this.orders.has(root) || this.disk.wasRead(root)) return null;
    const state = this.disk.load(root, (config) => this.projects.has(config), keep);
    if (!state || state.answer === undefined) return this.disk.forget(root);
    this.hint = null;
    this.checks++;
    const { order, cycles } = this.buildOrder(root);
    const roots = new Map(state.roots);
    const rootsOf = (config: string) => {
      const commandLine = this.parse(config).commandLine;
      return commandLine && !isSolutionConfig(commandLine) ? commandLine.fileNames : [];
    };
    const holds = !cycles.length && sameStrings(order, state.order) && order.every((config) => sameStrings(roots.get(config) ?? [], rootsOf(config)));
    if (!holds || !inputsUnchanged(this.ts, this.files, state.inputs)) return this.disk.forget(root);
    if (!keep) this.fromDisk.add(root);
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
    const order = this.orders.get(root);
    const isSolutionConfig = this.internals.isSolutionConfig;
    if (!this.disk || !order || !isSolutionConfig || this.fromDisk.has(root)) return;
    const marks = order.flatMap((config) => [this.projects.get(config)?.program(), this.configs.get(config)?.parse]);
    const last = this.saved.get(root);
    if (last && sameItems(last, marks)) return this.disk.touch(root);
    // The in-memory declarations (and their directories) and the output paths hidden on disk now follow from the
    // rest: not inputs. A path that was one once (an outDir since moved, a project since dropped) is read from disk.
    const memoryDirectories = this.outputs.directories();
    const output = (path: string) => this.outputs.has(path) || this.hidden.has(path) || memoryDirectories.has(path);
    // An output reached through a link to its project is one too.
    const derived = (path: string) => output(path) || output(this.linked(path));
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
      if (persisted) state.projects.push({ config, ...persisted, outputs: this.outputs.of(config) });
    }
    state.inputs = { hashes: [...hashes], observations: [...observations] };
    this.disk.save(root, state);
    this.saved.set(root, marks);
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
    this.disk?.load(root, (config) => this.projects.has(config));
    // Without references this is a plain project: the warm program serves it.
    if (!this.parse(root).commandLine?.projectReferences?.length) return null;
    const { order, cycles } = this.buildOrder(root);
    this.orders.set(root, order);
    const info: SolutionCheckInfo = { reuse: "reused", changedFiles: 0, programFiles: 0, projects: [] };
    const notice = this.disk?.takeNotice();
    if (notice) info.notice = notice;
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
    const reuses = new Set<WarmCheckInfo["reuse"]>();
    for (const config of order) {
      const { commandLine, failure } = this.parse(config);
      if (!commandLine || isSolutionConfig(commandLine) || commandLine.fileNames.length === 0) {
        // tsc -b reports an unreadable config's failure, and only the config's own errors for one without files.
        diagnostics.push(...(commandLine ? this.ts.getConfigFileParsingDiagnostics(commandLine) : failure ? [failure] : []));
        info.projects.push({ config, reuse: "config-only", changedFiles: 0, ms: 0 });
        continue;
      }
      let project = this.projects.get(config);
      if (!project) {
        this.projects.set(config, (project = new SolutionProject(this.ts, config, this.files, emitFilesAndReportErrors)));
        project.restore = this.disk?.takeRestore(config);
      }
      const started = performance.now();
      const result = project.check(commandLine, this.referenced(commandLine), this.hint);
      const ms = performance.now() - started;
      diagnostics.push(...result.diagnostics);
      const program = project.program();
      if (program) for (const diagnostic of result.diagnostics) this.programs.set(diagnostic, program);
      info.projects.push({ config, reuse: result.info.reuse, changedFiles: result.info.changedFiles, ms });
      // A project built from scratch checked all of its files, whatever the others reused.
      info.changedFiles += result.info.reuse === "full" ? result.info.programFiles : result.info.changedFiles;
      info.programFiles += result.info.programFiles;
      reuses.add(result.info.reuse);
      this.builtBefore?.add(config);
    }
    info.reuse = solutionReuse(reuses);
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
    const inputs = new Set<string>();
    for (const commandLine of parsed) {
      if (!commandLine) continue;
      for (const file of commandLine.fileNames) for (const output of this.ts.getOutputFileNames(commandLine, file, ignoreCase)) hidden.add(output);
      for (const file of commandLine.fileNames) inputs.add(file);
      const buildInfo = this.ts.getTsBuildInfoEmitOutputFilePath(commandLine.options);
      if (buildInfo) hidden.add(buildInfo);
    }
    // A project's input is never hidden as an output: tsc refuses to write over it (TS5055: an allowJs project without
    // an outDir) and reads the source.
    for (const input of inputs) hidden.delete(input);
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
    // An output is also reached through a link to its project (node_modules/@scope/pkg -> packages/pkg): by the
    // path with the links of its directory resolved, as tsc finds the file it wrote there.
    const output = (path: string) => this.outputs.visible(path, this.builtBefore) ?? this.outputs.visible(this.linked(path), this.builtBefore);
    const hidden = (path: string) => this.hiddenNow(path) || this.hiddenNow(this.linked(path));
    return {
      readFile: (path) => output(path)?.text ?? (hidden(path) ? undefined : sys.readFile(path)),
      fileExists: (path) => !!output(path) || (!hidden(path) && sys.fileExists(path)),
      directoryExists: (path) =>
        sys.directoryExists(path) ||
        this.outputs.visibleDirectory(path, this.builtBefore) ||
        this.outputs.visibleDirectory(this.linked(path), this.builtBefore),
      stamp: (path) => {
        const found = output(path);
        if (found) return `memory:${found.hash}`;
        return hidden(path) ? null : fileStamp(path);
      },
      emitted: (project, path, text) => {
        // Declarations are what downstream projects read; JavaScript, maps and build info are dropped.
        if (!/\.d\.[cm]?ts$/.test(path)) return;
        this.outputs.set(project, path, text);
        this.unwatched.add(path);
        for (let dir = dirname(path); !this.unwatched.has(dir) && dir !== dirname(dir); dir = dirname(dir)) this.unwatched.add(dir);
      },
      prune: (project, keep) => this.outputs.prune(project, keep),
      parsedConfig: (path) => this.parse(path).commandLine,
      declarations: new Map(),
      unwatched: (path) => this.unwatched.has(path),
    };
  }

  /** `path` with the links of its deepest existing directory resolved (cached per directory within a check). */
  private linked(path: string): string {
    const dir = this.realDirectory(dirname(path));
    return dir === dirname(path) ? path : `${dir}/${basename(path)}`;
  }

  private realDirectory(dir: string): string {
    if (this.realDirs.checks !== this.checks) this.realDirs = { checks: this.checks, dirs: new Map() };
    let real = this.realDirs.dirs.get(dir);
    if (real !== undefined) return real;
    const { sys } = this.ts;
    if (sys.directoryExists(dir)) real = (sys.realpath?.(dir) ?? dir).replace(/\\/g, "/");
    else real = dirname(dir) === dir ? dir : `${this.realDirectory(dirname(dir))}/${basename(dir)}`;
    this.realDirs.dirs.set(dir, real);
    return real;
  }

  /** An output path nothing may read from disk: hidden, or held in memory for a project not visible now. */
  private hiddenNow(path: string): boolean {
    return this.hidden.has(path) || this.outputs.has(path);
  }
}

const sameItems = (a: readonly unknown[], b: readonly unknown[]) => a.length === b.length && a.every((item, i) => item === b[i]);

/**
 * A solution's mode from its projects': "full" only when every project built from scratch. A new host that restored
 * some projects and built the rest (a root project that is not composite has no build info) is "restored"; a warm
 * one that rebuilt a project from scratch is "incremental". The projects built from scratch count all their files.
 */
function solutionReuse(reuses: ReadonlySet<WarmCheckInfo["reuse"]>): WarmCheckInfo["reuse"] {
  if (reuses.has("restored")) return "restored";
  if (reuses.has("full")) return reuses.size === 1 ? "full" : "incremental";
  return reuses.has("incremental") ? "incremental" : "reused";
}
