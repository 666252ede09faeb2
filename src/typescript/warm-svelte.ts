// A warm svelte-check (issue 33): the project's own svelte-check checker kept in a warm host between checks. It is
// told what changed as `svelte-check --watch` tells it (the changed file's text, upsertDocument), and answers in the
// command line's own machine-verbose output, written by svelte-check's own writer, so the server parses it as it parses
// a run of the command line. Freshness is this host's, not svelte-check's: every file-system question the checker's
// TypeScript asked is recorded and asked again at the next check (the watch's hint narrows them, as for warm
// programs); a changed source text in the tree is handed over, anything else (a file created or deleted, a config, a
// package) builds the checker again, and what TypeScript does not read (svelte.config.js, loaded by import) or a
// package install sends the check to the command line and this host away.
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { createRequire, Module } from "node:module";
import { dirname, join, sep } from "node:path";
import type * as TS from "typescript";
import { fileStamp, isRacyStamp } from "../engines/file-stamp.ts";
import { recheckFilter, type ChangeHint } from "./change-hint.ts";
import { hashText } from "./host-questions.ts";

/** The svelte-check class's instance, as its command line and watch mode use it. */
interface Checker {
  upsertDocument(doc: { uri: string; text: string }, isNew: boolean): Promise<void>;
  getDiagnostics(): Promise<unknown[]>;
}

/** svelte-check's writer; its stream is replaced by a buffer here. */
interface Writer {
  stream: { write(text: string): boolean };
}

/** What this host uses of svelte-check's bundle (its command line's own parts; the package exports none of them). */
interface SvelteCheckParts {
  SvelteCheck: new (workspace: string, options: Record<string, unknown>) => Checker;
  instantiateWriter(options: Record<string, unknown>): Writer;
  writeDiagnostics(workspaceUri: unknown, writer: Writer, diagnostics: unknown[]): unknown;
  URI: { file(path: string): { fsPath: string; toString(): string } };
}

/** Node's module internals used to load a bundle file from text (not in its public types). */
interface LoadedModule {
  filename: string;
  paths: string[];
  loaded: boolean;
  exports: Record<string, unknown>;
  _compile(code: string, file: string): void;
}
const Internals = Module as unknown as {
  new (id: string): LoadedModule;
  _cache: Record<string, LoadedModule>;
  _nodeModulePaths(dir: string): string[];
};

/** Why a svelte-check is not kept warm: its bundle is not laid out as this host knows (the command line serves). */
export class SvelteLayoutError extends Error {}

/** The statement that runs svelte-check's command line when its entry is loaded (left out here). */
const COMMAND_LINE = "\nparseOptions(async";
/** Where its command line makes the checker and the workspace's URI: the names of the class's module and of URI. */
const CLI_CHECKER = /new ([\w$]+)\.SvelteCheck\(opts\.workspaceUri\.fsPath/;
const CLI_URI = /workspaceUri = ([\w$]+)\.file\(/;

function compiled(file: string, code: string): LoadedModule {
  const module = new Internals(file);
  module.filename = file;
  module.paths = Internals._nodeModulePaths(dirname(file));
  module._compile(code, file);
  module.loaded = true;
  return module;
}

/** The bundle file that makes the checker: dist/src/ts6.js from svelte-check 4.7.9 on, else its entry, index.js. */
function checkerFile(packageDir: string): string {
  const ts6 = join(packageDir, "dist", "src", "ts6.js");
  return existsSync(ts6) ? ts6 : join(packageDir, "dist", "src", "index.js");
}

/**
 * The parts svelte-check's command line uses, loaded afresh (their caches with them) without running the command
 * line: the one statement of its entry (dist/src/index.js) that runs it is cut out, and the names the command line
 * itself uses — the checker class's module, URI, the writer's two functions — are exported from the rest. From 4.7.9
 * the checker lives in dist/src/ts6.js, which is given that entry for its `require('./index.js')`; before (4.4 to
 * 4.7.8) everything is in the entry. Any other layout throws SvelteLayoutError (the command line serves).
 */
function loadParts(packageDir: string): SvelteCheckParts {
  const index = join(packageDir, "dist", "src", "index.js");
  const file = checkerFile(packageDir);
  if (!existsSync(index)) throw new SvelteLayoutError("its bundle has no dist/src/index.js");
  const text = readFileSync(index, "utf8");
  const start = text.indexOf(COMMAND_LINE);
  const end = start < 0 ? -1 : text.indexOf("\n});", start);
  const after = end + "\n});".length;
  const uri = CLI_URI.exec(text)?.[1];
  if (start < 0 || end < 0 || (text[after] !== undefined && text[after] !== "\n") || text.indexOf(COMMAND_LINE, start + 1) >= 0 || !uri)
    throw new SvelteLayoutError("its command line is not where this host looks for it");
  const own = file === index;
  const checkerText = own ? text : readFileSync(file, "utf8");
  const name = CLI_CHECKER.exec(checkerText)?.[1];
  if (!name) throw new SvelteLayoutError("its command line makes no checker where this host looks for it");
  const parts = `module.exports.__signalint = { writeDiagnostics, instantiateWriter, URI: ${uri}${own ? `, SvelteCheck: ${name}.SvelteCheck` : ""} };`;
  let loaded: Record<string, unknown>;
  try {
    const entry = compiled(index, `${text.slice(0, start)}${text.slice(after)}\n;${parts}\n`);
    Internals._cache[index] = entry;
    loaded = { ...(entry.exports.__signalint as Record<string, unknown>) };
    if (!own) loaded.SvelteCheck = compiled(file, `${checkerText}\n;module.exports.__signalint = ${name}.SvelteCheck;\n`).exports.__signalint;
  } catch (error) {
    // A name not there (another layout) fails here; anything else thrown while loading is the bundle's own failure.
    if (error instanceof ReferenceError) throw new SvelteLayoutError(`a part is not where this host looks for it (${error.message})`);
    throw error;
  }
  const prototype = (loaded.SvelteCheck as { prototype?: Record<string, unknown> } | undefined)?.prototype;
  const usable =
    typeof loaded.SvelteCheck === "function" &&
    ["upsertDocument", "getDiagnostics"].every((method) => typeof prototype?.[method] === "function") &&
    ["instantiateWriter", "writeDiagnostics"].every((part) => typeof loaded[part] === "function") &&
    typeof (loaded.URI as { file?: unknown } | undefined)?.file === "function";
  if (!usable) throw new SvelteLayoutError("its checker class, writer or URI is not the one this host knows");
  return loaded as unknown as SvelteCheckParts;
}

/** One recorded question: its kind (r readFile, f fileExists, d directoryExists, g getDirectories, p realpath, l readDirectory). */
type Kind = "r" | "f" | "d" | "g" | "p" | "l";

/** The TypeScript system's questions, recorded for whichever checker is current (installed once per `sys`). */
interface Recorder {
  original: Pick<TS.System, "readFile" | "fileExists" | "directoryExists" | "getDirectories" | "realpath" | "readDirectory">;
  target: WarmSvelteCheck | null;
}
const recorders = new WeakMap<TS.System, Recorder>();

function recorderOf(sys: TS.System): Recorder {
  const existing = recorders.get(sys);
  if (existing) return existing;
  const { readFile, fileExists, directoryExists, getDirectories, realpath, readDirectory } = sys;
  const recorder: Recorder = {
    original: {
      readFile: readFile.bind(sys),
      fileExists: fileExists.bind(sys),
      directoryExists: directoryExists.bind(sys),
      getDirectories: getDirectories.bind(sys),
      ...(realpath ? { realpath: realpath.bind(sys) } : {}),
      readDirectory: readDirectory.bind(sys),
    },
    target: null,
  };
  const { original } = recorder;
  const seen = (kind: Kind, path: string, answer: string, extra = "") => recorder.target?.observe(kind, path, answer, extra);
  sys.readFile = (path, encoding) => {
    // Stamped before it is read: a write after the stamp changes it, so the next check reads again.
    const stamp = fileStamp(path);
    const text = original.readFile(path, encoding);
    recorder.target?.observeRead(path, stamp, text);
    return text;
  };
  sys.fileExists = (path) => {
    const exists = original.fileExists(path);
    seen("f", path, exists ? "1" : "0");
    return exists;
  };
  sys.directoryExists = (path) => {
    const exists = original.directoryExists(path);
    seen("d", path, exists ? "1" : "0");
    return exists;
  };
  sys.getDirectories = (path) => {
    const found = original.getDirectories(path);
    seen("g", path, found.join("\n"));
    return found;
  };
  if (original.realpath) {
    const real = original.realpath;
    sys.realpath = (path) => {
      const found = real(path);
      seen("p", path, found);
      return found;
    };
  }
  sys.readDirectory = (path, extensions, exclude, include, depth) => {
    const found = original.readDirectory(path, extensions, exclude, include, depth);
    seen("l", path, found.join("\n"), JSON.stringify([extensions ?? null, exclude ?? null, include ?? null, depth ?? null]));
    return found;
  };
  recorders.set(sys, recorder);
  return recorder;
}

/** A source file the checker can be handed (as its watch mode hands them): a script or component in the tree. */
const SOURCE = /\.(?:svelte|d\.ts|ts|tsx|js|jsx|mjs|cjs|mts|cts)$/;

/** Configs svelte-check loads by import (never through TypeScript): their stamps are checked by every check. */
const IMPORTED_CONFIGS = ["svelte.config.js", "svelte.config.cjs", "svelte.config.mjs", "svelte.config.ts"];

/** One check's answer: svelte-check's machine-verbose output, and how much was reused. */
export interface SvelteAnswer {
  output: string;
  reuse: "reused" | "incremental" | "full";
  changedFiles: number;
  programFiles: number;
}

/** Thrown when this host cannot answer for what changed (an imported config, a package install): a new host must. */
export class SvelteRestartError extends Error {}

/**
 * One svelte-check program (a tsconfig checked from its directory, as the command line's `--workspace <dir> --tsconfig
 * <config>`) kept between checks.
 */
export class WarmSvelteCheck {
  private parts: SvelteCheckParts | null = null;
  private recorder: Recorder | null = null;
  private checker: Checker | null = null;
  private output = "";
  private lastSeq: number | null = null;
  private restart: string | null = null;
  /** Answers keyed `kind\0path\0extra`. */
  private readonly answers = new Map<string, string>();
  /** The files read, with their stamps before each read and their text's hash. */
  private readonly reads = new Map<string, { stamp: string | null; hash: string }>();
  private readonly configStamps = new Map<string, string>();
  /** The files the checker holds a snapshot of (`/`-separated): the only ones it takes a new text of. */
  private readonly snapshots = new Set<string>();

  constructor(
    private readonly packageDir: string,
    private readonly tsconfig: string,
    private readonly root: string,
  ) {}

  observe(kind: Kind, path: string, answer: string, extra: string): void {
    this.answers.set(`${kind}\0${path}\0${extra}`, answer);
  }

  observeRead(path: string, stamp: string | null, text: string | undefined): void {
    this.reads.set(path, { stamp, hash: text === undefined ? "-" : hashText(text) });
  }

  /** A package install moved what the loaded modules are: only a new host loads them again. */
  invalidate(): void {
    this.restart = "packages changed (an install)";
  }

  async check(hint: ChangeHint | null): Promise<SvelteAnswer> {
    if (this.restart) throw new SvelteRestartError(this.restart);
    if (!this.checker) return this.build(hint);
    const changedConfig = [...this.configStamps].find(([path, stamp]) => (fileStamp(path) ?? "-") !== stamp);
    if (changedConfig) {
      this.restart = `${changedConfig[0]} changed`;
      throw new SvelteRestartError(this.restart);
    }
    const recheck = hint && this.lastSeq !== null ? recheckFilter(hint, this.lastSeq) : null;
    const under = hint && recheck ? changedSince(hint, this.lastSeq as number) : null;
    const sources = this.changedSources(recheck, under);
    this.lastSeq = hint?.seq ?? null;
    if (sources === null) return this.build(hint);
    if (!sources.length) return { output: this.output, reuse: "reused", changedFiles: 0, programFiles: this.reads.size };
    const { URI } = this.parts as SvelteCheckParts;
    for (const [path, text] of sources) await (this.checker as Checker).upsertDocument({ uri: URI.file(path).toString(), text }, false);
    this.output = await this.diagnose();
    return { output: this.output, reuse: "incremental", changedFiles: sources.length, programFiles: this.reads.size };
  }

  close(): void {
    if (this.recorder?.target === this) this.recorder.target = null;
    this.checker = null;
  }

  private async build(hint: ChangeHint | null): Promise<SvelteAnswer> {
    this.checker = null;
    this.answers.clear();
    this.reads.clear();
    this.snapshots.clear();
    // The TypeScript svelte-check loads: its system's questions are recorded before the checker is loaded.
    const ts = createRequire(checkerFile(this.packageDir))("typescript") as typeof TS;
    this.recorder = recorderOf(ts.sys);
    this.recorder.target = this;
    this.parts = loadParts(this.packageDir);
    this.lastSeq = hint?.seq ?? null;
    // As the command line builds it (ts6.js run()): no compiler warnings set, every diagnostic source, no --config.
    // The snapshots it creates are only reported (svelte-check --watch adds their directories to its watch).
    const onFileSnapshotCreated = (file: string) => this.snapshots.add(slashed(file));
    this.checker = new this.parts.SvelteCheck(dirname(this.tsconfig), { compilerWarnings: {}, tsconfig: this.tsconfig, watch: false, onFileSnapshotCreated });
    this.output = await this.diagnose();
    this.stampConfigs();
    return { output: this.output, reuse: "full", changedFiles: this.reads.size, programFiles: this.reads.size };
  }

  /** The checker's diagnostics through svelte-check's own machine-verbose writer, as its command line prints them. */
  private async diagnose(): Promise<string> {
    const parts = this.parts as SvelteCheckParts;
    const diagnostics = await (this.checker as Checker).getDiagnostics();
    let output = "";
    const writer = parts.instantiateWriter({ outputFormat: "machine-verbose", threshold: "warning", watch: false, preserveWatchOutput: false });
    writer.stream = {
      write: (text: string) => {
        output += text;
        return true;
      },
    };
    parts.writeDiagnostics(parts.URI.file(dirname(this.tsconfig)), writer, diagnostics);
    return output;
  }

  /** The imported configs a component's directory (or one above it) may hold: stamped now, compared at every check. */
  private stampConfigs(): void {
    this.configStamps.clear();
    const dirs = new Set<string>();
    for (const path of [this.tsconfig, ...[...this.reads.keys()].filter((file) => file.endsWith(".svelte"))]) {
      for (let dir = dirname(path); !dirs.has(dir); dir = dirname(dir)) {
        dirs.add(dir);
        if (dirname(dir) === dir) break;
      }
    }
    for (const dir of dirs) for (const name of IMPORTED_CONFIGS) this.configStamps.set(join(dir, name), fileStamp(join(dir, name)) ?? "-");
  }

  /**
   * The source files in the tree whose text changed since the last check, with their new text; null when anything
   * else the checker read changed (the checker is then built again). `recheck` (the watch's hint) leaves out what it
   * vouches for; `under` says whether a change lies under a directory (a recursive listing's).
   */
  private changedSources(recheck: ((path: string) => boolean) | null, under: ((dir: string) => boolean) | null): [string, string][] | null {
    const { original } = this.recorder as Recorder;
    for (const [key, answer] of this.answers) {
      const [kind, path, extra] = key.split("\0") as [Kind, string, string];
      if (kind === "l" ? under && !under(path) && !recheck?.(path) : recheck && !recheck(path)) continue;
      if (askAgain(original, kind, path, extra) !== answer) return null;
    }
    const sources: [string, string][] = [];
    for (const [path, read] of this.reads) {
      if (recheck && !recheck(path)) continue;
      const stamp = fileStamp(path);
      if (stamp !== null && stamp === read.stamp && !isRacyStamp(stamp)) continue;
      const text = original.readFile(path);
      const hash = text === undefined ? "-" : hashText(text);
      if (hash === read.hash) {
        this.reads.set(path, { stamp, hash });
        continue;
      }
      // Handed over only where the checker takes it (upsertDocument ignores a file it holds no snapshot of).
      if (text === undefined || !SOURCE.test(path) || !inTree(this.root, path) || !this.snapshots.has(slashed(path))) return null;
      this.reads.set(path, { stamp, hash });
      sources.push([path, text]);
    }
    return sources;
  }
}

function askAgain(original: Recorder["original"], kind: Kind, path: string, extra: string): string {
  switch (kind) {
    case "f":
      return original.fileExists(path) ? "1" : "0";
    case "d":
      return original.directoryExists(path) ? "1" : "0";
    case "g":
      return original.getDirectories(path).join("\n");
    case "p":
      return original.realpath ? original.realpath(path) : path;
    case "l": {
      const [extensions, exclude, include, depth] = JSON.parse(extra) as [string[] | null, string[] | null, string[] | null, number | null];
      return original.readDirectory(path, extensions ?? undefined, exclude ?? undefined, include ?? undefined, depth ?? undefined).join("\n");
    }
    case "r":
      return "";
  }
}

/** A file of the project's own (in the root, not in a node_modules directory). */
function inTree(root: string, path: string): boolean {
  const real = (() => {
    try {
      return realpathSync(path);
    } catch {
      // Gone (or unreadable): its own path is all there is to judge.
      return path;
    }
  })();
  return [path, real].every((file) => file.startsWith(`${root}${sep}`) && !file.slice(root.length).split(/[\\/]/).includes("node_modules"));
}

function slashed(path: string): string {
  return path.replaceAll("\\", "/");
}

/** Whether a change the hint recorded after `lastSeq` lies at, under or above a directory. */
function changedSince(hint: ChangeHint, lastSeq: number): (dir: string) => boolean {
  const changed = hint.changes.filter(([, seq]) => seq > lastSeq).map(([path]) => path);
  // A change under the directory, or of a directory holding it (moved or deleted with it).
  const within = (inner: string, outer: string) => inner === outer || inner.startsWith(`${outer}${sep}`) || inner.startsWith(`${outer}/`);
  return (dir) => changed.some((path) => within(path, dir) || within(dir, path));
}
