import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ifMissing } from "../../core/errors.ts";
import { parseJsonc } from "../../core/jsonc.ts";
import { relativeToRoot } from "../../core/paths.ts";
import { DENO_CONFIGS, denoImportSpecifiers, denoLocal, denoMapped, denoPlugins, denoTreeWrites } from "../../engines/deno.ts";
import { isRecord } from "../../engines/types.ts";
import type { FileInfo, Runtime } from "../../runtime/types.ts";

/** What the decision reads of the tree: the runtime's, or one that records what it looked at (see TreeLooks). */
type TreeReader = Pick<Runtime, "stat" | "readFiles" | "readDir">;

/** Plugin modules read at most: a graph larger than this is not followed further, and counts as reaching a remote one. */
const MAX_MODULES = 500;

/** The largest config or plugin module read: anything larger, or not a regular file (a FIFO, /dev/zero), is not read. */
const MAX_READ_BYTES = 1024 * 1024;

/**
 * A file the tree names, read only when it is a regular file of at most MAX_READ_BYTES: its text, null when it is not
 * there, `unread` when it is something else (a repository can name or link /dev/zero, which would never end).
 */
async function readBounded(runtime: TreeReader, path: string): Promise<string | null | "unread"> {
  if ((await runtime.stat(path)) === null) return null;
  // Read through readFiles, which reads only what it finds (again) a regular file of that size.
  const [read] = await runtime.readFiles([path], (_, info) => info.isFile && info.size <= MAX_READ_BYTES);
  return read?.text ?? "unread";
}

/** A deno config found on disk: where, and its parsed text (null: unreadable, deno fails on it itself). */
interface DenoConfig {
  path: string;
  config: unknown;
  /** Not read (not a regular file, or too large): nothing is known of what it makes deno load. */
  unread?: true;
}

/** The first deno.json/deno.jsonc in `dir` (deno.json first, as deno looks), parsed; null when there is none. */
async function configIn(runtime: TreeReader, dir: string): Promise<DenoConfig | null> {
  for (const name of DENO_CONFIGS) {
    const path = join(dir, name);
    const text = await readBounded(runtime, path);
    if (text === null) continue;
    if (text === "unread") return { path, config: null, unread: true };
    try {
      return { path, config: parseJsonc(text) };
    } catch {
      // A config deno cannot parse: its run fails before it loads anything, so it writes nothing.
      return { path, config: null };
    }
  }
  return null;
}

/** The nearest deno config from `start` up; null when there is none. */
async function nearestConfig(runtime: TreeReader, start: string): Promise<DenoConfig | null> {
  for (let dir = start; ; dir = dirname(dir)) {
    const found = await configIn(runtime, dir);
    if (found || dirname(dir) === dir) return found;
  }
}

const workspaceOf = (found: DenoConfig): unknown[] | null => (isRecord(found.config) && Array.isArray(found.config.workspace) ? found.config.workspace : null);

/** The first config with a `workspace` above a (member's) config; null when there is none. */
async function workspaceRootAbove(runtime: TreeReader, member: DenoConfig): Promise<DenoConfig | null> {
  for (let dir = dirname(dirname(member.path)); ; dir = dirname(dir)) {
    const found = dir === dirname(member.path) ? null : await configIn(runtime, dir);
    if (found && workspaceOf(found)) return found;
    if (dirname(dir) === dir) return null;
  }
}

/**
 * The configs a `deno lint` run from the root reads: the nearest from the root up and its workspace members'; and the
 * one that owns the lockfile, node_modules/ and vendor/ (the workspace root above a member, else the nearest).
 */
async function configsInEffect(runtime: TreeReader, root: string): Promise<{ configs: DenoConfig[]; owner: DenoConfig } | string> {
  const nearest = await nearestConfig(runtime, root);
  if (!nearest) return { configs: [], owner: { path: root, config: null } };
  const owner = (await workspaceRootAbove(runtime, nearest)) ?? nearest;
  const configs = [nearest];
  const base = dirname(nearest.path);
  for (const member of workspaceOf(nearest) ?? []) {
    if (typeof member !== "string") continue;
    const dirs = member.endsWith("/*")
      ? (await runtime.readDir(resolve(base, member.slice(0, -2))).catch(ifMissing([])))
          .filter((entry) => entry.isDirectory)
          .map((entry) => resolve(base, member.slice(0, -2), entry.name))
      : /[*?{}[\]!]/.test(member)
        ? null
        : [resolve(base, member)];
    if (dirs === null) return `its workspace member pattern ${member} is not one Signalint reads`;
    for (const dir of dirs) {
      const config = await configIn(runtime, dir);
      if (config) configs.push(config);
    }
  }
  return { configs, owner };
}

/** A local specifier as a path, from the module (or config) at `from`; null for a file URL Node cannot read. */
function localPath(from: string, specifier: string): string | null {
  if (!specifier.startsWith("file:")) return resolve(dirname(from), specifier);
  try {
    return fileURLToPath(specifier);
  } catch {
    // Not a file URL Node can read: deno cannot load it either, and fails without resolving anything.
    return null;
  }
}

/**
 * The first specifier, from a config's lint plugins and what their local modules import (through its `imports`), that
 * deno resolves from a registry or the network: `npm:`, `jsr:`, `https:`, a bare name; `node:` built-ins are not.
 */
async function remoteImport(runtime: TreeReader, config: DenoConfig): Promise<string | null> {
  const imports = isRecord(config.config) && isRecord(config.config.imports) ? config.config.imports : {};
  const queue = denoPlugins(config.config).map((specifier) => ({ from: config.path, specifier }));
  const seen = new Set<string>();
  while (queue.length) {
    const { from, specifier } = queue.shift() as { from: string; specifier: string };
    if (specifier.startsWith("node:")) continue;
    if (!denoLocal(specifier)) return specifier;
    const path = localPath(from, specifier);
    if (path === null || seen.has(path)) continue;
    if (seen.size >= MAX_MODULES) return `${specifier} (past ${MAX_MODULES} modules)`;
    seen.add(path);
    // A module that is not there: deno fails to load the plugin before it resolves anything.
    const text = await readBounded(runtime, path);
    if (text === "unread") return `${specifier} (not a regular file of at most ${MAX_READ_BYTES} bytes: not read)`;
    // A mapped specifier resolves from the config's directory, as deno resolves `imports`; a plain one from the module's.
    for (const found of denoImportSpecifiers(text ?? "")) {
      const mapped = denoMapped(found, imports);
      queue.push({ from: mapped === found ? path : config.path, specifier: mapped });
    }
  }
  return null;
}

/**
 * Why `deno lint` would write into the project tree (null: it would not). Loading lint plugins makes deno install the
 * project's npm packages into node_modules/ when its config says `"nodeModulesDir": "auto"`, and write its lockfile
 * when a plugin reaches npm, jsr or remote modules; deno lint has no switch against either, so such a run is not made.
 * A lockfile already up to date would be left as it is, but whether it is, only deno's resolution can tell. A decision
 * is kept per root and paths with what it looked at (TreeLooks): a check that finds all of it as it was (stats and
 * listings only) reads no config or plugin module again.
 */
export async function denoTreeWritesReason(runtime: Runtime, root: string, paths: readonly string[]): Promise<string | null> {
  const key = JSON.stringify([root, paths]);
  const known = decisions.get(key);
  if (known && (await unchanged(runtime, known.looks))) return known.reason;
  const looks: TreeLooks = { stats: new Map(), dirs: new Map() };
  const reason = await decide(recording(runtime, looks), root, paths);
  if (decisions.size >= MAX_DECISIONS) decisions.clear();
  decisions.set(key, { looks, reason });
  return reason;
}

/**
 * What a decision looked at: each path's stat (a file read is stat'ed as it is read; one not there is "-") and each
 * directory's listing. While every one is as it was, the decision stands: nothing is read again.
 */
interface TreeLooks {
  stats: Map<string, string>;
  dirs: Map<string, string>;
}

/** Decisions kept, by root and paths (a daemon's checks of several projects and path sets). */
const MAX_DECISIONS = 256;
const decisions = new Map<string, { looks: TreeLooks; reason: string | null }>();

/** A stat as a stamp: kind, size and modification time ("-": nothing there). */
const stampOf = (info: FileInfo | null): string => (info ? `${info.isFile ? "f" : info.isDirectory ? "d" : "o"}:${info.size}:${info.mtimeMs}` : "-");
const listingOf = (entries: readonly { name: string; isDirectory: boolean }[]): string =>
  entries
    .map((entry) => `${entry.isDirectory ? "d" : "f"}:${entry.name}`)
    .sort()
    .join("\0");

/** The runtime's reads, each noted in `looks`. */
function recording(runtime: Runtime, looks: TreeLooks): TreeReader {
  return {
    stat: async (path) => {
      const info = await runtime.stat(path);
      looks.stats.set(path, stampOf(info));
      return info;
    },
    readFiles: async (paths, wanted) => {
      const reads = await runtime.readFiles(paths, wanted);
      // A file not read (not regular, too large) keeps the stamp its stat gave: it is stamped as it is, not as gone.
      paths.forEach((path, index) => {
        const info = reads[index]?.info;
        if (info || !looks.stats.has(path)) looks.stats.set(path, stampOf(info ?? null));
      });
      return reads;
    },
    readDir: async (path) => {
      try {
        const entries = await runtime.readDir(path);
        looks.dirs.set(path, listingOf(entries));
        return entries;
      } catch (error) {
        // Noted as no listing; the caller decides what the failure means (a member directory not there: none).
        looks.dirs.set(path, "-");
        throw error;
      }
    },
  };
}

/** Whether every path and directory a decision looked at is as it was then. */
async function unchanged(runtime: Runtime, looks: TreeLooks): Promise<boolean> {
  const paths = [...looks.stats.keys()];
  const now = await Promise.all(paths.map((path) => runtime.stat(path)));
  if (paths.some((path, index) => looks.stats.get(path) !== stampOf(now[index] ?? null))) return false;
  for (const [dir, listing] of looks.dirs) {
    // A directory that cannot be listed now is "-", as it was noted when the decision failed to list it.
    const now = await runtime.readDir(dir).then(listingOf, () => "-");
    if (now !== listing) return false;
  }
  return true;
}

/** The decision itself (denoTreeWritesReason), reading the tree through `runtime`. */
async function decide(runtime: TreeReader, root: string, paths: readonly string[]): Promise<string | null> {
  const found = await configsInEffect(runtime, root);
  if (typeof found === "string") return `deno lint not run: ${found} (a member's lint plugins could make deno write into the project tree)`;
  const { owner } = found;
  // A named file is linted with the nearest config above it (a nested deno.json that is no workspace member too); a
  // named directory with its own config, or the nearest above it.
  const configs = [...found.configs];
  for (const path of paths.filter((entry) => entry !== ".")) {
    const absolute = resolve(root, path);
    const nearest = await nearestConfig(runtime, (await runtime.stat(absolute))?.isDirectory ? absolute : dirname(absolute));
    if (nearest && !configs.some((config) => config.path === nearest.path)) configs.push(nearest);
  }
  const unread = configs.find((config) => config.unread);
  if (unread)
    return `deno lint not run: ${relativeToRoot(root, unread.path) ?? unread.path} is not a regular file of at most ${MAX_READ_BYTES} bytes, so what it makes deno load is not known`;
  for (const config of configs) {
    if (denoPlugins(config.config).length === 0) continue;
    const remote = await remoteImport(runtime, config);
    const writes = denoTreeWrites(owner.config, remote !== null);
    if (writes.length === 0) continue;
    const [where, beside] = [config.path, owner.path].map((path) => relativeToRoot(root, path) ?? path);
    const written = `deno write ${writes.join(", ")} beside ${beside}`;
    return remote === null
      ? `deno lint not run: loading the lint plugins of ${where} makes ${written} ("nodeModulesDir": "auto")`
      : `deno lint not run: a lint plugin of ${where} imports ${remote}, and resolving it makes ${written} (deno lint has no --no-lock)`;
  }
  return null;
}
