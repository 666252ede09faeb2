// The parts of the project's own svelte-check a warm host uses (typescript/warm-svelte.ts): its command line's checker,
// writer and URI, loaded from its bundle, and a recorder of every question the checker's TypeScript asks the file system.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type * as TS from "typescript";
import { fileStamp } from "../engines/file-stamp.ts";
import { compiled, Internals } from "./loaded-module.ts";

/** The svelte-check class's instance, as its command line and watch mode use it. */
export interface Checker {
  upsertDocument(doc: { uri: string; text: string }, isNew: boolean): Promise<void>;
  getDiagnostics(): Promise<unknown[]>;
}

/** svelte-check's writer; its stream is replaced by a buffer here. */
export interface Writer {
  stream: { write(text: string): boolean };
}

/** What this host uses of svelte-check's bundle (its command line's own parts; the package exports none of them). */
export interface SvelteCheckParts {
  SvelteCheck: new (workspace: string, options: Record<string, unknown>) => Checker;
  instantiateWriter(options: Record<string, unknown>): Writer;
  writeDiagnostics(workspaceUri: unknown, writer: Writer, diagnostics: unknown[]): unknown;
  URI: { file(path: string): { fsPath: string; toString(): string } };
}

/** Why a svelte-check is not kept warm: its bundle is not laid out as this host knows (the command line serves). */
export class SvelteLayoutError extends Error {}

/** The statement that runs svelte-check's command line when its entry is loaded (left out here). */
const COMMAND_LINE = "\nparseOptions(async";
/** Where its command line makes the checker and the workspace's URI: the names of the class's module and of URI. */
const CLI_CHECKER = /new ([\w$]+)\.SvelteCheck\(opts\.workspaceUri\.fsPath/;
const CLI_URI = /workspaceUri = ([\w$]+)\.file\(/;

/** The bundle file that makes the checker: dist/src/ts6.js from svelte-check 4.7.9 on, else its entry, index.js. */
export function checkerFile(packageDir: string): string {
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
export function loadParts(packageDir: string): SvelteCheckParts {
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

/** One recorded question: its kind (f fileExists, d directoryExists, g getDirectories, p realpath, l readDirectory; reads are kept apart). */
export type Kind = "f" | "d" | "g" | "p" | "l";

/** The TypeScript system's questions, recorded for whichever checker is current (installed once per `sys`). */
/** Where a recorder puts what it saw: the current checker's records. */
export interface RecordingTarget {
  observe(kind: Kind, path: string, answer: string, extra: string): void;
  observeRead(path: string, stamp: string | null, text: string | undefined): void;
}

export interface Recorder {
  original: Pick<TS.System, "readFile" | "fileExists" | "directoryExists" | "getDirectories" | "realpath" | "readDirectory">;
  target: RecordingTarget | null;
}
const recorders = new WeakMap<TS.System, Recorder>();

export function recorderOf(sys: TS.System): Recorder {
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

/** A recorded question asked again, its answer as recorded. */
export function askAgain(original: Recorder["original"], kind: Kind, path: string, extra: string): string {
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
  }
}
