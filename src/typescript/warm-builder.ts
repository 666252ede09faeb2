// What every warm TypeScript 5.x/6.x builder program shares — a single tsconfig's (warm-program.ts) and each project
// of a warm solution (solution-project.ts): SourceFiles reused by stamp, then by content hash; every file-system
// question the compiler host asked recorded and asked again; and the choice between reusing the last answer,
// re-checking incrementally and building afresh.
import { dirname, resolve } from "node:path";
import type * as TS from "typescript";
import { buildInfoFiles } from "./build-info-files.ts";
import { dependentsOf } from "./dependents.ts";
import { type ChangeHint, HintClock } from "./change-hint.ts";
import { changedAnswers, hashText, type Observation, recordQuestions, sameStrings } from "./host-questions.ts";

type Ts = typeof TS;

/** How one warm check went (reported in stats). */
export interface WarmCheckInfo {
  /**
   * "reused": nothing the program reads changed; "incremental": only changed files re-checked; "full": no reuse;
   * "restored": built on persisted state (a new host), `changedFiles` the files it re-checked.
   */
  reuse: "reused" | "incremental" | "full" | "restored";
  changedFiles: number;
  programFiles: number;
  /** One line for the server's stderr (persisted state that could not be trusted). */
  notice?: string;
  /** The answer a previous host stored, given as it was (no program behind it yet). */
  stored?: true;
}

/** The inputs one answer rests on: file contents by hash, and file-system answers keyed `kind\0path`. */
export interface InputsRecord {
  hashes: [string, string][];
  observations: [string, string][];
}

/** A SourceFile kept between checks: the stamp of its file when read (null: unknown) and the hash of its text. */
export interface CachedSource {
  stamp: string | null;
  hash: string;
  sourceFile: TS.SourceFile;
}

/**
 * The file system as a program sees it: the disk for a single program; for a solution's projects, the disk with the
 * declarations their references emitted in memory (see warm-solution.ts).
 */
export interface ProgramFiles {
  readFile(path: string): string | undefined;
  fileExists(path: string): boolean;
  directoryExists(path: string): boolean;
  /** A stamp of the file's current state (null: missing). */
  stamp(path: string): string | null;
  /** Paths whose answers no file watch can vouch for (in memory): asked again at every check, whatever the hint. */
  unwatched?(path: string): boolean;
  /** A referenced config as the build parsed it (tsc -b hands its programs the same parse). */
  parsedConfig?(path: string): TS.ParsedCommandLine | undefined;
  /** Declaration files shared between programs (a solution's projects), as tsc -b shares them within a build. */
  readonly declarations?: Map<string, CachedSource>;
}

/** The disk as TypeScript's own `sys` reads it, stamped with `stamp`. */
export function diskFiles(ts: Ts, stamp: (path: string) => string | null): ProgramFiles {
  return {
    readFile: (path) => ts.sys.readFile(path),
    fileExists: (path) => ts.sys.fileExists(path),
    directoryExists: (path) => ts.sys.directoryExists(path),
    stamp,
  };
}

/**
 * A warm builder program. A check first reconciles with the file system (`reconcile`): a SourceFile whose file's
 * stamp changed is dropped when its text's hash changed too; every recorded question (file and directory existence —
 * which covers every failed lookup location —, non-source reads, listings, real paths, missing files) is asked again,
 * and any different answer rebuilds with fresh module resolutions. With a change hint only the paths it names, or
 * that no watch can see, are looked at again.
 */
export abstract class WarmBuilder<B extends TS.BuilderProgram> {
  protected readonly sources = new Map<string, CachedSource>();
  protected builder: B | undefined;
  protected lastDiagnostics: readonly TS.Diagnostic[] = [];
  /** The parsed config the current program was built from. */
  protected builtFrom: TS.ParsedCommandLine | undefined;
  /** Module resolutions may have changed in ways a reused program would not see. */
  resolutionsSuspect = true;
  private optionsKey = "";
  /** Versions given to files marked changed though their text is not (see rebuild): each one new. */
  private resalted = 0;
  /** Every file-system answer the programs built since the last full build relied on, keyed `kind\0path`. */
  private observations = new Map<string, string>();
  private readonly clock = new HintClock();
  /** Which paths this check looks at again (null: all); see change-hint.ts. */
  private recheck: ((path: string) => boolean) | null = null;
  /** Paths the file watch reported written since the last check (null: no hint): their content decides, not stamps. */
  private reported: ((path: string) => boolean) | null = null;

  constructor(
    readonly ts: Ts,
    readonly configPath: string,
    protected readonly files: ProgramFiles,
  ) {}

  /**
   * Bring the kept SourceFiles and recorded answers up to date for a check of `parsed`: "reused" when nothing the
   * last program read changed, it was built from this very parse and `sameInputs` (the caller's own inputs, such as
   * referenced configs) holds; else "incremental" (when `incrementalAllowed`) or "full", with the changed file count.
   */
  protected reconcile(
    parsed: TS.ParsedCommandLine,
    hint: ChangeHint | null | undefined,
    sameInputs: boolean,
    incrementalAllowed = true,
  ): { reuse: "reused" | "incremental" | "full"; changed: number } {
    const { recheck: filter, reported } = this.clock.advanceReported(hint);
    const unwatched = this.files.unwatched?.bind(this.files);
    this.recheck = filter && unwatched ? (path) => unwatched(path) || filter(path) : filter;
    // Only what the watch reported: files it cannot see (node_modules, lib files outside the root) keep their stamps.
    this.reported = reported;
    const optionsKey = JSON.stringify(parsed.options);
    if (optionsKey !== this.optionsKey) {
      this.sources.clear();
      this.builder = undefined;
      this.optionsKey = optionsKey;
    }
    const changed = this.dropChangedSources();
    if (!this.resolutionsSuspect && this.observationsChanged()) this.resolutionsSuspect = true;
    const previous = this.builder?.getProgram();
    const sameRoots = previous && sameStrings(previous.getRootFileNames(), parsed.fileNames);
    if (previous && changed === 0 && sameRoots && sameInputs && !this.resolutionsSuspect && this.builtFrom === parsed) return { reuse: "reused", changed };
    // A changed file-system answer (a file deleted or created, a package installed) redoes every module resolution
    // (`hasInvalidatedResolutions`), but still builds on the last builder: its per-file versions are content hashes
    // and its references are compared with the new program's, so only the files whose content, resolved imports or
    // dependencies' shape changed are checked again — as `tsc --incremental` does on build info with a fresh program
    // (and as a restored program does here). A deleted file's importers were re-checked with every other file before.
    const reuse = this.builder && incrementalAllowed ? "incremental" : "full";
    // A full build starts a new record; an incremental one keeps the answers its reused resolutions relied on, with
    // the changed ones as they are now (the new program asks what it still needs again).
    if (reuse === "full") this.observations = new Map();
    else if (this.resolutionsSuspect) this.refreshObservations();
    return { reuse, changed };
  }

  /** Forget each kept SourceFile whose file's text changed (a new stamp with the same content only updates the stamp). */
  private dropChangedSources(): number {
    let changed = 0;
    for (const [key, cached] of this.sources) {
      const name = cached.sourceFile.fileName;
      if (this.recheck && !this.recheck(name)) continue;
      const stamp = this.files.stamp(name);
      // A write the watch reported is looked at even when the stamp is unchanged (same size, mtime set back).
      if (stamp !== null && stamp === cached.stamp && !this.reported?.(name)) continue;
      const text = stamp === null ? undefined : this.files.readFile(name);
      if (text === undefined || hashText(text) !== cached.hash) {
        this.sourceChanged(cached.sourceFile, text);
        this.sources.delete(key);
        changed++;
      } else {
        cached.stamp = stamp;
      }
    }
    return changed;
  }

  /** A kept SourceFile whose file's text changed (`text`: its text now; undefined: gone). May throw (the check fails). */
  protected sourceChanged(_before: TS.SourceFile, _text: string | undefined): void {}

  /** The last answer again, for a check that `reconcile` found nothing to re-check for. */
  protected reused(): { diagnostics: readonly TS.Diagnostic[]; info: WarmCheckInfo } {
    return { diagnostics: this.lastDiagnostics, info: { reuse: "reused", changedFiles: 0, programFiles: this.sourceFiles().length } };
  }

  /** Build the next program of `parsed` with a recording host (`create` gets the old builder for an incremental build). */
  protected rebuild(parsed: TS.ParsedCommandLine, reuse: "incremental" | "full", create: (host: TS.CompilerHost, old: B | undefined) => B): B {
    const host = this.createHost(parsed.options);
    const old = reuse === "incremental" ? this.builder : undefined;
    this.builder = create(host, old);
    // A file gone from the program (deleted, or no longer resolved) changes what its importers export — `export *
    // from './gone'` exports nothing now — while their text, and so their shape to the builder, stays the same: TypeScript's
    // builder (and `tsc --incremental` itself) would keep the stale answers of the files importing them. They are
    // marked changed, as a cold build checks them.
    const stale = old ? staleImporters(this.ts, old.getProgram(), this.builder.getProgram()) : [];
    if (stale.length) {
      for (const sourceFile of stale) (sourceFile as TS.SourceFile & { version?: string }).version = `${hashText(sourceFile.text)}#${++this.resalted}`;
      // The first builder redid the resolutions: the second keeps them.
      this.resolutionsSuspect = false;
      this.builder = create(host, this.builder);
    }
    this.builtFrom = parsed;
    this.resolutionsSuspect = false;
    return this.builder;
  }

  /**
   * What the current program's answer rests on, to be checked by another host (persisted-state.ts): every
   * SourceFile's content hash, the `configs` hashes (the tsconfig and what it extends, as their parse read them:
   * a config written since is not what this answer rests on), every recorded answer. Paths `derived` says are
   * outputs of the programs themselves (a solution's in-memory declarations) are left out: they follow from the rest.
   */
  inputsRecord(configs: readonly [string, string][], derived?: (path: string) => boolean): InputsRecord {
    const hashes = new Map<string, string>(configs);
    for (const cached of this.sources.values()) hashes.set(cached.sourceFile.fileName, cached.hash);
    const kept = (path: string) => !derived?.(path);
    return {
      hashes: [...hashes].filter(([path]) => kept(path)),
      observations: [...this.observations].filter(([key]) => kept(key.slice(key.indexOf("\0") + 1))),
    };
  }

  /**
   * Whether a file the persisted builder state was built from is gone (TypeScript's build info lists them relative to
   * itself; true when it lists none it can read). Its importers' stored answers rest on what it exported, and a
   * restored builder would keep them (see rebuild, which has the last program to tell them by): built afresh instead.
   */
  protected filesGone(buildInfo: string, buildInfoPath: string): boolean {
    const names = buildInfoFiles(buildInfo);
    return names === null || names.some((name) => !this.files.fileExists(resolve(dirname(buildInfoPath), name)));
  }

  /** True when every input of `record` still has its recorded content and answer (read and hashed now). */
  inputsUnchanged(record: InputsRecord): boolean {
    return inputsUnchanged(this.ts, this.files, record);
  }

  /** Ask the file system each recorded question again: true when any answer differs. */
  private observationsChanged(): boolean {
    for (const _ of changedAnswers(this.observations, this.recheck, (kind: Observation, path) => this.answer(kind, path))) return true;
    return false;
  }

  /** Record each answer that differs now as it is now (a question no new program asks again would stay changed). */
  private refreshObservations(): void {
    for (const { key, now } of [...changedAnswers(this.observations, this.recheck, (kind: Observation, path) => this.answer(kind, path))])
      this.observations.set(key, now);
  }

  private answer(kind: Observation, path: string): string {
    return currentAnswer(this.ts, this.files, kind, path);
  }

  private observe(kind: Observation, path: string, answer: string): void {
    this.observations.set(`${kind}\0${path}`, answer);
  }

  /** A compiler host over `files` that reuses kept SourceFiles and records every other question it answers. */
  private createHost(options: TS.CompilerOptions): TS.CompilerHost {
    const host = this.ts.createCompilerHost(options);
    // As tsc's own command line and build parse (5.3+): JSDoc in .ts/.tsx only where it holds @see/@link; every
    // comment in JavaScript. Diagnostics are tsc's exactly, and parsing costs less.
    const parsing = (this.ts as Ts & { JSDocParsingMode?: { ParseForTypeErrors?: number } }).JSDocParsingMode?.ParseForTypeErrors;
    if (parsing !== undefined) (host as TS.CompilerHost & { jsDocParsingMode?: number }).jsDocParsingMode = parsing;
    host.readFile = (path) => this.files.readFile(path);
    host.fileExists = (path) => this.files.fileExists(path);
    host.directoryExists = (path) => this.files.directoryExists(path);
    if (this.files.parsedConfig) host.getParsedCommandLine = this.files.parsedConfig.bind(this.files);
    // `traceResolution` would have TypeScript print every lookup with sys.write: nothing here is traced.
    host.trace = undefined;
    let readingSource = false;
    const original = host.getSourceFile.bind(host);
    host.getSourceFile = (fileName, languageVersionOrOptions, onError, shouldCreate) => {
      const key = `${fileName}\0${JSON.stringify(languageVersionOrOptions)}`;
      const cached = this.sources.get(key);
      if (cached) return cached.sourceFile;
      // Stamped before reading: a write in between makes the next check compare contents.
      const stamp = this.files.stamp(fileName);
      const shared = this.files.declarations?.get(key);
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
        if (sourceFile.isDeclarationFile) this.files.declarations?.set(key, { stamp, hash, sourceFile });
      } else {
        // A root or referenced file that does not exist (yet): its creation must rebuild the program.
        this.observe("missing", fileName, "0");
      }
      return sourceFile;
    };
    const directoryGone = (path: string) => !this.ts.sys.directoryExists(path);
    recordQuestions(
      host,
      (kind, path, answer) => this.observe(kind, path, answer),
      () => readingSource,
      directoryGone,
    );
    // Resolutions of unchanged files are reused unless this says otherwise.
    host.hasInvalidatedResolutions = () => this.resolutionsSuspect;
    return host;
  }

  /**
   * Drop kept SourceFiles the current program no longer uses (deleted or no longer imported files), by name: a
   * program may hold another SourceFile made from the one read (vue-tsc's generated code of a .vue file).
   */
  protected forgetUnused(): void {
    const used = new Set(this.sourceFiles().map((file) => file.fileName));
    // The configs of its project references (and theirs), read as JSON SourceFiles: what they say is checked too.
    const references = [...(this.builder?.getProgram().getResolvedProjectReferences() ?? [])];
    while (references.length) {
      const reference = references.pop();
      if (!reference) continue;
      used.add(reference.sourceFile.fileName);
      references.push(...(reference.references ?? []));
    }
    for (const [key, cached] of this.sources) if (!used.has(cached.sourceFile.fileName)) this.sources.delete(key);
  }

  /** The SourceFiles of the current program (none before the first build). */
  sourceFiles(): readonly TS.SourceFile[] {
    return this.builder?.getProgram().getSourceFiles() ?? [];
  }

  /**
   * Every file of the current program (roots and what they import), as TypeScript names them, and the configs its
   * tsconfig extends (one in node_modules is read like a declaration: a quiet check stamps both).
   */
  fileNames(): string[] {
    const config = this.builder?.getProgram().getCompilerOptions().configFile as { extendedSourceFiles?: string[] } | undefined;
    return [...this.sourceFiles().map((file) => file.fileName), ...(config?.extendedSourceFiles ?? [])];
  }

  /** After a package install or lockfile change, module resolutions are redone (a cheap extra safety net). */
  invalidateResolutions(): void {
    this.resolutionsSuspect = true;
  }
}

/** True when every input of `record` still has its recorded content and answer in `files` (read and hashed now). */
export function inputsUnchanged(ts: Ts, files: ProgramFiles, record: InputsRecord): boolean {
  for (const [path, hash] of record.hashes) {
    // A missing file is recorded as "-" (a config's parse read nothing there).
    const text = files.readFile(path);
    if ((text === undefined ? "-" : hashText(text)) !== hash) return false;
  }
  for (const [key, answer] of record.observations) {
    const split = key.indexOf("\0");
    if (currentAnswer(ts, files, key.slice(0, split) as Observation, key.slice(split + 1)) !== answer) return false;
  }
  return true;
}

/** The current answer to one recorded question (hashes for reads, listings as text: any change counts). */
function currentAnswer(ts: Ts, files: ProgramFiles, kind: Observation, path: string): string {
  const sys = ts.sys;
  switch (kind) {
    case "fileExists":
    case "missing":
      return files.fileExists(path) ? "1" : "0";
    case "directoryExists":
      return files.directoryExists(path) ? "1" : "0";
    case "realpath":
      return sys.realpath?.(path) ?? path;
    case "getDirectories":
      return sys.directoryExists(path) ? sys.getDirectories(path).join("\n") : "-";
    default: {
      const text = files.readFile(path);
      return text === undefined ? "-" : hashText(text);
    }
  }
}

/**
 * The files of `next` (not declaration files) that depended in `previous` on a file `next` no longer holds: every file
 * importing it, directly or through others (dependents.ts), as the builder would re-check them had their importers'
 * exports changed shape. A gone file that is no module, or augments one, changed what every file sees: every file
 * then. Also when only an import of it was removed (the last import of a package): more is checked than needed then,
 * never less.
 */
function staleImporters(ts: Ts, previous: TS.Program, next: TS.Program): TS.SourceFile[] {
  const gone = previous.getSourceFiles().filter((file) => !next.getSourceFile(file.fileName));
  if (gone.length === 0) return [];
  const names = gone.map((file) => file.fileName);
  return dependentsOf(ts, previous, names).files.flatMap((file) => next.getSourceFile(file) ?? []);
}
