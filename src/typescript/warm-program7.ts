// A warm TypeScript 7 (native) process, driven through the package's own synchronous API
// (`typescript/unstable/sync`): one tsgo process per tsconfig keeps the program between checks, and each check tells
// it which files changed — or to invalidate everything when anything else it looked at changed — so no result can be
// stale.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { IssueCause, RawIssue } from "../core/issues.ts";
import { exactStamp, isRacyStamp } from "../engines/file-stamp.ts";
import { isConfigDiagnosticFile } from "../engines/tsc.ts";
import { type ChangeHint, HintClock } from "./change-hint.ts";
import { changedAnswers } from "./host-questions.ts";
import type { WarmCheckInfo } from "./warm-builder.ts";
import { PersistedBuildInfo, type PersistTarget, StoredAnswerGate } from "./persisted-state.ts";
import { answer, contentHash, lastingRecord, parseStoredTs7, type Question, recordHolds } from "./warm-state7.ts";

/** The subset of the TypeScript 7 API used here (it is marked unstable; any mismatch falls back to the CLI). */
interface Ts7Diagnostic {
  fileName?: string;
  pos: number;
  code: number;
  category: number;
  text: string;
  messageChain?: readonly Ts7Diagnostic[];
}
interface Ts7Program {
  getSourceFileNames(): readonly string[];
  getConfigFileParsingDiagnostics(): readonly Ts7Diagnostic[];
  getSyntacticDiagnostics(): readonly Ts7Diagnostic[];
  getProgramDiagnostics(): readonly Ts7Diagnostic[];
  getGlobalDiagnostics(): readonly Ts7Diagnostic[];
  getSemanticDiagnostics(): readonly Ts7Diagnostic[];
  getDeclarationDiagnostics(): readonly Ts7Diagnostic[];
  getCompilerOptions(): Record<string, unknown>;
}
interface Ts7Snapshot {
  getProject(config: string): { program: Ts7Program; rootFiles: readonly string[] } | undefined;
  dispose(): void;
}
interface Ts7Api {
  updateSnapshot(params: Record<string, unknown>): Ts7Snapshot;
  close(): void;
}
export type Ts7ApiClass = new (options: { cwd: string; fs?: Record<string, (path: string) => undefined> }) => Ts7Api;

const modules = new Map<string, Ts7ApiClass | null>();

/**
 * Load the API class of a TypeScript 7 package: require(esm) where the runtime has it, import() otherwise. Cached by
 * the package's identity (location and package.json stamp); an ES module cannot be unloaded, so after an in-place
 * upgrade a fresh import is made under a cache-busting query.
 */
export async function loadTs7Api(packageDir: string): Promise<Ts7ApiClass | null> {
  const identity = `${packageDir}\0${exactStamp(join(packageDir, "package.json")) ?? "-"}`;
  if (modules.has(identity)) return modules.get(identity) ?? null;
  const upgraded = [...modules.keys()].some((key) => key.startsWith(`${packageDir}\0`));
  const entry = join(packageDir, "dist", "api", "sync", "api.js");
  let api: Ts7ApiClass | null = null;
  try {
    if (upgraded) throw new Error("load the upgraded module afresh");
    api = (createRequire(join(packageDir, "package.json"))(entry) as { API?: Ts7ApiClass }).API ?? null;
  } catch {
    // Not loadable with require (ESM only), or asked afresh: imported instead.
    try {
      const url = `${pathToFileURL(entry).href}${upgraded ? `?${encodeURIComponent(identity)}` : ""}`;
      api = ((await import(url)) as { API?: Ts7ApiClass }).API ?? null;
    } catch (error) {
      modules.set(identity, null);
      throw error;
    }
  }
  modules.set(identity, api);
  return api;
}

/**
 * A TypeScript 7 compiler's identity for stored state: its version and its package's manifest (an npm version is
 * immutable; the native executable is in a platform package of the same version).
 */
export function ts7Identity(packageDir: string): string {
  try {
    const manifest = readFileSync(join(packageDir, "package.json"), "utf8");
    return `${(JSON.parse(manifest) as { version?: string }).version ?? "?"}+${createHash("sha256").update(manifest).digest("hex").slice(0, 16)}`;
  } catch {
    // No readable package.json: an identity that matches no stored one.
    return "unknown";
  }
}

/** One state per program: what it rests on is in the record itself (the config's reads among it). */
const STATE_KEY = "tsgo";

/**
 * One tsconfig's warm tsgo server. tsgo keeps what it read between snapshots and re-reads only what it is told
 * changed, so every file-system question it asks (reads, file and directory existence — every failed lookup
 * location —, directory listings, real paths) goes through the API's callbacks and is recorded with our answer. A
 * check asks each recorded question again: program files edited, files created or deleted go incremental (tsgo is
 * told exactly those); any other difference (a package.json or tsconfig edited, a directory or symlink created,
 * moved or removed) starts a new tsgo, so module resolution and the config are redone from scratch.
 */
export class WarmTs7Program {
  private api: Ts7Api | null = null;
  private snapshot: Ts7Snapshot | null = null;
  private readonly observations = new Map<string, string>();
  private programFiles = new Set<string>();
  private diagnostics: readonly Ts7Diagnostic[] = [];
  private resolutionsSuspect = false;
  private readonly clock = new HintClock();
  lastUsed = Date.now();
  /** The program's stored answer on disk (null: not persisted); see warm-state7.ts. */
  private readonly persisted: PersistedBuildInfo | null;
  /** The stored answer, looked at once per host (tsgo not started while an answer from disk is the last). */
  private readonly stored = new StoredAnswerGate();
  /** Why stored state was not used (one line for the server), once. */
  private notice: string | undefined;
  /** Bumped by every tsgo answer: what was last written is not written again. */
  private version = 0;
  private savedVersion = -1;
  /** Content hashes of files read while their stamps were racy (see recorder): what the stored record says of them. */
  private readonly racyReads = new Map<string, string>();
  /** Content hashes of the files the stored records named, with the stamps they were taken at (see lastingRecord). */
  private readonly lastingHashes = new Map<string, [string, string]>();

  /** The package's API class: loaded only when tsgo is to start (an answer from disk needs none; see useApi). */
  private Api: Ts7ApiClass | null = null;

  constructor(
    readonly configPath: string,
    private readonly cwd: string,
    persist: { target: PersistTarget; compiler: string } | null = null,
  ) {
    this.persisted = persist ? new PersistedBuildInfo(persist.target, `project7\0${configPath}`, persist.compiler) : null;
  }

  /**
   * A new host's first check: the answer stored by an earlier host when every question its tsgo asked (the config's
   * reads and directory walk, every lookup and read — reads by content) still has the same answer; null: start tsgo.
   * `keep`: a prewarm's look — the answer stays for the first check, and no build follows it.
   */
  storedAnswer(keep = false): unknown {
    const persisted = this.persisted;
    if (this.api || !persisted) return null;
    return this.stored.take(keep, () => {
      const { text, notice } = persisted.load(STATE_KEY);
      this.notice = notice;
      const state = text === null ? null : parseStoredTs7(text);
      if (text !== null && !state) this.notice = `persisted TypeScript state for ${this.configPath} ignored (unexpected shape); building afresh`;
      return state && recordHolds(state.record) ? state.answer : undefined;
    });
  }

  /** The last answer came from disk: warmUp builds the program (the API is needed then, and only then). */
  get answeredFromDisk(): boolean {
    return this.stored.fromDisk;
  }

  /** True until useApi: tsgo cannot start before. */
  get needsApi(): boolean {
    return this.Api === null;
  }

  useApi(Api: Ts7ApiClass): void {
    this.Api = Api;
  }

  /** Why the stored answer was not used, when it could not be trusted (said once: the next answer carries it too). */
  get storedNotice(): string | undefined {
    return this.notice;
  }

  /** The server looked already (storedLooked): this host's first check does not look again. */
  skipStoredAnswer(): void {
    this.stored.take(false, () => undefined);
  }

  /** After an answer from disk: start tsgo on the project for the checks that follow. */
  warmUp(): void {
    this.stored.afterAnswer(() => this.check(null));
  }

  /** Write the answer and what it rests on to the cache directory (nothing new since the last write: nothing). */
  persist(stored: unknown): void {
    if (!this.persisted || !this.api || this.stored.fromDisk) return;
    if (this.savedVersion === this.version) return this.persisted.touch();
    const record = lastingRecord(this.observations, this.racyReads, this.lastingHashes);
    // A file written since tsgo read it: this answer is already old; the next check stores its own.
    if (!record) return;
    this.persisted.save(STATE_KEY, JSON.stringify({ answer: stored, record }));
    this.savedVersion = this.version;
  }

  /** Every file of the current program (roots and what they import). */
  fileNames(): string[] {
    // Every file tsgo read through our callbacks (the tsconfig and the configs it extends, package.json files) too:
    // a quiet check stamps them all.
    const reads = [...this.observations.keys()].filter((key) => key.startsWith("readFile\0")).map((key) => key.slice("readFile\0".length));
    return [...new Set([...this.programFiles, ...reads])];
  }

  /** The current snapshot's project (its program and checker name the causes of its diagnostics), if any. */
  currentProject(): unknown {
    return this.snapshot?.getProject(this.configPath);
  }

  /** True once tsgo has loaded the project and can answer incrementally. */
  get isWarm(): boolean {
    return this.snapshot !== null;
  }

  /** After a package install or lockfile change, start a new tsgo (module resolutions redone). */
  invalidateResolutions(): void {
    this.resolutionsSuspect = true;
  }

  /**
   * Re-check. With a change hint (see change-hint.ts) only the questions about paths it names, or the watch cannot
   * see, are asked again; without one, every question.
   */
  check(hint?: ChangeHint | null): { diagnostics: readonly Ts7Diagnostic[]; info: WarmCheckInfo } {
    this.lastUsed = Date.now();
    const recheck = this.clock.advance(hint);
    if (!this.api) return this.start();
    const changes = { changed: new Set<string>(), created: new Set<string>(), deleted: new Set<string>() };
    const differences: [string, string][] = [];
    let restart = this.resolutionsSuspect;
    for (const { key, kind, path, previous, now } of changedAnswers<Question>(this.observations, recheck, answer)) {
      differences.push([key, now]);
      if (!this.classify(kind, path, previous, now, changes)) restart = true;
    }
    if (restart) return this.start();
    if (differences.length === 0) return { diagnostics: this.diagnostics, info: { reuse: "reused", changedFiles: 0, programFiles: this.programFiles.size } };
    // Answers taken before tsgo looks again: a write during the update shows up as a difference next time.
    for (const [key, now] of differences) this.observations.set(key, now);
    this.snapshot?.dispose();
    const fileChanges = { changed: [...changes.changed], created: [...changes.created], deleted: [...changes.deleted] };
    const result = this.open({ fileChanges }, "incremental");
    result.info.changedFiles = Math.min(fileChanges.changed.length + fileChanges.created.length + fileChanges.deleted.length, result.info.programFiles);
    return result;
  }

  /**
   * Sort one changed answer into the file changes tsgo is told about: edits of program files, files created where
   * one was looked for or listed, files deleted. False for anything else (a package.json, tsconfig or other
   * non-program file edited, a directory created or removed, a symlink moved): then only a new tsgo is sure to agree
   * with a cold run.
   */
  private classify(kind: Question, path: string, previous: string, now: string, changes: Record<"changed" | "created" | "deleted", Set<string>>): boolean {
    if (kind === "readFile" && this.programFiles.has(path)) {
      (now === "-" ? changes.deleted : changes.changed).add(path);
      return true;
    }
    if (kind === "fileExists") {
      (now === "1" ? changes.created : changes.deleted).add(path);
      return true;
    }
    if (kind !== "getAccessibleEntries" || previous === "-" || now === "-") return false;
    const before = new Set(previous.split("\n").filter(Boolean));
    const after = new Set(now.split("\n").filter(Boolean));
    for (const name of after) if (!before.has(name)) changes.created.add(join(path, name));
    for (const name of before) if (!after.has(name)) changes.deleted.add(join(path, name));
    return ![...changes.created, ...changes.deleted].some((file) => file.endsWith("/"));
  }

  /** A new tsgo server (the first check, or after a change only a fresh start is sure to see). */
  private start(): { diagnostics: readonly Ts7Diagnostic[]; info: WarmCheckInfo } {
    this.close();
    this.observations.clear();
    this.racyReads.clear();
    this.resolutionsSuspect = false;
    if (!this.Api) throw new Error("the TypeScript 7 API was not loaded before tsgo was started");
    this.api = new this.Api({ cwd: this.cwd, fs: this.recorder() });
    const result = this.open({}, "full");
    // A tsgo without file-system callbacks could not tell us what it read: no warm answers from it.
    if (this.observations.size === 0) throw new Error("this TypeScript 7 API does not report file-system access");
    return result;
  }

  /** File-system callbacks that record our answer to each question and let tsgo use the real file system. */
  private recorder(): Record<Question, (path: string) => undefined> {
    const record = (kind: Question) => (path: string) => {
      const now = answer(kind, path);
      this.observations.set(`${kind}\0${path}`, now);
      // A file written within the last second cannot be vouched for by its stamp later: its content is hashed now,
      // just before tsgo reads it, for the stored record (a write in between leaves a hash the file will not match).
      if (kind === "readFile" && isRacyStamp(now)) this.racyReads.set(path, contentHash(path));
      else if (kind === "readFile") this.racyReads.delete(path);
      return undefined;
    };
    return {
      readFile: record("readFile"),
      fileExists: record("fileExists"),
      directoryExists: record("directoryExists"),
      getAccessibleEntries: record("getAccessibleEntries"),
      realpath: record("realpath"),
    };
  }

  private open(extra: Record<string, unknown>, reuse: WarmCheckInfo["reuse"]): { diagnostics: readonly Ts7Diagnostic[]; info: WarmCheckInfo } {
    const api = this.api as Ts7Api;
    this.snapshot = api.updateSnapshot({ openProjects: [this.configPath], ...extra });
    const project = this.snapshot.getProject(this.configPath);
    if (!project) throw new Error(`tsgo did not load ${this.configPath}`);
    const program = project.program;
    this.diagnostics = collect(program);
    this.programFiles = new Set(program.getSourceFileNames());
    this.version++;
    const info: WarmCheckInfo = { reuse, changedFiles: 0, programFiles: this.programFiles.size };
    const notice = this.notice;
    this.notice = undefined;
    return { diagnostics: this.diagnostics, info: notice ? { ...info, notice } : info };
  }

  /** Stop the tsgo server. */
  close(): void {
    try {
      this.snapshot?.dispose();
      this.api?.close();
    } catch {
      // Already gone.
    }
    this.api = null;
    this.snapshot = null;
  }
}

/** Diagnostics in the precedence tsc's command line uses with --noEmit. */
function collect(program: Ts7Program): readonly Ts7Diagnostic[] {
  const all = [...program.getConfigFileParsingDiagnostics()];
  const configCount = all.length;
  all.push(...program.getSyntacticDiagnostics());
  if (all.length === configCount) {
    all.push(...program.getProgramDiagnostics(), ...program.getGlobalDiagnostics());
    if (all.length === configCount) all.push(...program.getSemanticDiagnostics());
    const options = program.getCompilerOptions();
    if ((options.declaration || options.composite) && all.length === configCount) all.push(...program.getDeclarationDiagnostics());
  }
  return all;
}

/** The message chain as tsc prints it: one line per link, indented two spaces per level. */
function flatten(diagnostic: Ts7Diagnostic, depth = 0): string {
  return [`${"  ".repeat(depth)}${diagnostic.text}`, ...(diagnostic.messageChain ?? []).map((link) => flatten(link, depth + 1))].join("\n");
}

/** Convert TypeScript 7 API diagnostics (UTF-16 offsets) into raw issues with 1-based line and column. */
export function ts7DiagnosticsToIssues(
  diagnostics: readonly Ts7Diagnostic[],
  toRelative: (path: string) => string | null,
  configFile: string,
  causesOf?: (diagnostic: Ts7Diagnostic) => IssueCause[] | undefined,
): RawIssue[] {
  const texts = new Map<string, string>();
  const seen = new Set<string>();
  const issues: RawIssue[] = [];
  for (const diagnostic of diagnostics) {
    const base = {
      engine: "tsc" as const,
      rule: `TS${diagnostic.code}`,
      severity: (diagnostic.category === 1 ? "error" : "warning") as RawIssue["severity"],
      message: flatten(diagnostic),
      fixable: false,
    };
    let issue: RawIssue;
    if (!diagnostic.fileName) {
      issue = { ...base, file: configFile, line: 1, col: 1, programWide: true };
    } else {
      const file = toRelative(diagnostic.fileName);
      if (file === null) continue;
      const text = texts.get(diagnostic.fileName) ?? readFileSync(diagnostic.fileName, "utf8");
      texts.set(diagnostic.fileName, text);
      const before = text.slice(0, diagnostic.pos);
      const line = before.split("\n").length;
      issue = { ...base, file, line, col: diagnostic.pos - before.lastIndexOf("\n"), ...(isConfigDiagnosticFile(file) ? { programWide: true } : {}) };
      const causes = causesOf?.(diagnostic);
      if (causes) issue.causes = causes;
    }
    const key = `${issue.file}\0${issue.line}\0${issue.col}\0${issue.rule}\0${issue.message}`;
    if (!seen.has(key)) issues.push(issue);
    seen.add(key);
  }
  return issues;
}
