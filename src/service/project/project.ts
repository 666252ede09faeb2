import { basename, dirname, join, resolve } from "node:path";
import { parseConfigFile, resolveSettings, type ConfigFile, type Settings } from "../../core/config.ts";
import { ConfigError, FsError, ifMissing, InvalidArgumentsError, quoteInput } from "../../core/errors.ts";
import { normalizePathList, relativeToRoot } from "../../core/paths.ts";
import type { Runtime } from "../../runtime/types.ts";
import { cacheBase } from "./cache-base.ts";
import { CONFIG_FILE, findRoot } from "./project-root.ts";
import { setAsideWrongKinds } from "./state-kinds.ts";
import { ownedTempDir } from "./temp-dirs.ts";
import { projectStateDir, userStateHome } from "./user-state.ts";

export { CONFIG_FILE, projectRootAt } from "./project-root.ts";

/** Where the project is, where state goes, and the settings in force. */
export interface Project {
  root: string;
  realRoot: string;
  stateDir: string;
  /** Generated files engines must never see (tsc -b configs, declarations, build info; the inferred program's config). */
  cacheDir: string;
  /**
   * The directory whose project cache directories share the persisted-state bound (the OS cache base); null when the
   * cache directory was given for this run (`check --cache-dir`) or is a temporary one: it is then bounded alone.
   */
  cacheBase: string | null;
  /** The file-local linters' result cache: `<cacheDir>/lint` (outside the tree, like every cache). */
  lintCacheDir: string;
  /** True when this process holds the state directory's ownership lock (service/project/ownership.ts). */
  owned?: boolean;
  /**
   * True when `stateDir` is a private temporary directory (another process's lock sent this one there, or the state
   * directory could not be written): removed at close.
   */
  temporaryState?: boolean;
  /**
   * The state directory whose `journal/` holds this session's fix journals when it is not `stateDir`: a session that
   * could not take the lock writes them in the owner's (each under its own transaction id, naming its pid), so that an
   * apply interrupted there is rolled back by the owner's next start instead of being swept away with a temporary
   * directory.
   */
  journalStateDir?: string;
  /** True when `cacheDir` is a temporary directory (the cache base could not be used): removed at close. */
  temporaryCache?: boolean;
  settings: Settings;
}

/** Options a shell (MCP server or CLI) passes when opening a project. */
export interface OpenOptions {
  root?: string;
  compact?: boolean;
  /** The server's `--read-only` flag (settings.readOnly: the config file and SIGNALINT_READ_ONLY decide otherwise). */
  readOnly?: boolean;
  /** Create the state directory now, falling back to a temporary one when the project is read-only. */
  prepareState?: boolean;
  /** Report a bad config or variable here and go on with the defaults, instead of throwing (doctor). */
  onConfigError?: (message: string) => void;
  /** The cache directory for this run (`check --cache-dir`): persisted state is read from and written to it. */
  cacheDir?: string;
  /** A long-lived server (daemon, MCP server): build the last checks' warm programs before its first check. */
  prewarm?: boolean;
  /** One check, then the process stops (the CLI's check, the hook): warm hosts build nothing after an answer from disk. */
  oneShot?: boolean;
}

/** Read and validate signalint.config.json (absent → empty config). */
export async function readConfigFile(runtime: Runtime, root: string): Promise<ConfigFile> {
  const text = await runtime
    .readText(join(root, CONFIG_FILE))
    .catch(ifMissing(null))
    .catch((error: Error) => {
      throw new ConfigError(`${CONFIG_FILE} cannot be read: ${error.message}`);
    });
  return text === null ? {} : parseConfigFile(text, CONFIG_FILE);
}

/**
 * The project's cache directory, keyed by its real root, outside the project tree; a temporary directory when the
 * OS cache directory is unknown, inside the project or not writable.
 */
async function projectCacheDir(runtime: Runtime, realRoot: string, prepare: boolean): Promise<{ dir: string; base: string | null; temporary?: true }> {
  const base = cacheBase({ env: (name) => runtime.env(name), cwd: () => runtime.cwd(), platform: runtime.platform });
  const dir = base ? join(base, runtime.sha256(realRoot).slice(0, 16)) : null;
  if (dir && !prepare) return { dir, base };
  const inside = base !== null && relativeToRoot(realRoot, (await runtime.realPath(base)) ?? base) !== null;
  if (dir && !inside) {
    try {
      await runtime.mkdirp(dir);
      const probe = join(dir, ".write-probe");
      await runtime.writeFileAtomic(probe, "");
      await runtime.removeFile(probe);
      return { dir, base };
    } catch {
      // fall through to a temporary directory
    }
  }
  return { dir: await ownedTempDir(runtime, "signalint-cache-"), base: null, temporary: true };
}

/** The cache directory given for this run: created when missing; refused inside the project tree. */
async function explicitCacheDir(runtime: Runtime, realRoot: string, given: string): Promise<string> {
  const dir = resolve(runtime.cwd(), given);
  // Decided before anything is created: the real path of the nearest existing ancestor, plus the rest of the path.
  let existing = dir;
  const rest: string[] = [];
  while (!(await runtime.stat(existing)) && dirname(existing) !== existing) {
    rest.unshift(basename(existing));
    existing = dirname(existing);
  }
  if (relativeToRoot(realRoot, join((await runtime.realPath(existing)) ?? existing, ...rest)) !== null)
    throw new ConfigError(`--cache-dir ${dir} is inside the project: Signalint writes nothing into the project tree`);
  await runtime.mkdirp(dir);
  return dir;
}

/** Resolve root, state dir and settings; throws ConfigError with a message naming the bad key or variable. */
export async function openProject(runtime: Runtime, options: OpenOptions = {}): Promise<Project> {
  const root = await findRoot(runtime, options.root);
  const info = await runtime.stat(root);
  if (!info?.isDirectory) throw new ConfigError(`project root ${root} is not a directory (--root, SIGNALINT_PROJECT_ROOT or the working directory)`);
  const realRoot = (await runtime.realPath(root)) ?? root;
  // Never `<root>/.signalint`: everything under the root is the repository author's (DESIGN §2, trust boundary).
  const envState = runtime.env("SIGNALINT_STATE_DIR")?.trim();
  const home = userStateHome(runtime);
  // A state home inside the project tree (a HOME below the root) is no place for state: engines would see it.
  const usableHome = home && relativeToRoot(realRoot, (await runtime.realPath(home)) ?? home) === null ? home : null;
  const stateDir = envState ? resolve(runtime.cwd(), envState) : usableHome ? projectStateDir(usableHome, runtime, realRoot) : null;
  const settings = await readSettings(runtime, root, options);
  const given = options.cacheDir?.trim();
  const cache = given
    ? { dir: await explicitCacheDir(runtime, realRoot, given), base: null }
    : await projectCacheDir(runtime, realRoot, options.prepareState === true);
  const why = home ? `the state home under ${home} is inside the project` : "no home directory (HOME) to keep state in";
  const usedState = stateDir === null ? await unknownStateHome(runtime, why) : options.prepareState ? await usableStateDir(runtime, stateDir) : stateDir;
  // The lint cache is a cache, kept with the others outside the tree: results stored as JSON inside the project
  // would be read by the user's own linters and formatters (`eslint .` with a JSON config, `prettier --check .`).
  const lintCacheDir = join(cache.dir, "lint");
  // A temporary fallback is this session's alone: removed when it closes (a read-only project leaves nothing behind).
  const temporary = { ...(usedState !== stateDir ? { temporaryState: true } : {}), ...("temporary" in cache ? { temporaryCache: true } : {}) };
  return { root, realRoot, stateDir: usedState, cacheDir: cache.dir, cacheBase: cache.base, lintCacheDir, settings, ...temporary };
}

/** The settings in force; with onConfigError, a bad config file (then a bad variable) falls back to the defaults. */
async function readSettings(runtime: Runtime, root: string, options: OpenOptions): Promise<Settings> {
  const env = (name: string) => runtime.env(name);
  const attempts: (() => Promise<Settings>)[] = [
    async () => resolveSettings(await readConfigFile(runtime, root), env, { compact: options.compact, readOnly: options.readOnly }),
    async () => resolveSettings({}, env, { compact: options.compact, readOnly: options.readOnly }),
    async () => resolveSettings({}, () => undefined, { compact: options.compact, readOnly: options.readOnly }),
  ];
  for (const attempt of attempts) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof ConfigError) || !options.onConfigError) throw error;
      options.onConfigError(error.message);
    }
  }
  return resolveSettings({}, () => undefined);
}

/** With no usable state home (no HOME, or one inside the project): this session keeps its state in a temporary directory. */
async function unknownStateHome(runtime: Runtime, why: string): Promise<string> {
  const fallback = await ownedTempDir(runtime, "signalint-state-");
  runtime.writeStderr(`signalint: ${why}; using ${fallback} for this session\n`);
  return fallback;
}

/** The state directory, or a fresh temporary one (with a warning) when it cannot be created or written. */
async function usableStateDir(runtime: Runtime, stateDir: string): Promise<string> {
  try {
    await ensureStateDir(runtime, stateDir);
    const probe = join(stateDir, ".write-probe");
    // A few bytes, not an empty file: a full disk still has inodes for one, and would pass.
    await runtime.writeFileAtomic(probe, "probe\n");
    await runtime.removeFile(probe);
    return stateDir;
  } catch (error) {
    const fallback = await ownedTempDir(runtime, "signalint-state-");
    runtime.writeStderr(`signalint: state directory ${stateDir} is not writable (${(error as Error).message}); using ${fallback} for this session\n`);
    return fallback;
  }
}

/** Create the state directory, private to this user (0700; a symlink or another user's directory is refused); entries of the wrong kind are set aside. */
export async function ensureStateDir(runtime: Runtime, stateDir: string): Promise<void> {
  await runtime.mkdirPrivate(stateDir);
  // A few lstat calls: a file where a directory belongs (or the reverse) is set aside before anything trips on it.
  await setAsideWrongKinds(runtime, stateDir);
}

/**
 * An absolute path inside the project root (or its real location) as a project-relative one; a relative path as it is.
 * An absolute path outside the root is refused (invalid_path).
 */
export function insideRoot(project: Pick<Project, "root" | "realRoot">, path: string): string {
  if (typeof path !== "string" || !(path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith("\\\\"))) return path;
  const relative = relativeToRoot(project.root, path) ?? relativeToRoot(project.realRoot, path);
  if (relative === null) throw new InvalidArgumentsError(`Path ${quoteInput(path)} refused: absolute and outside the project root`, "invalid_path");
  return relative;
}

/**
 * Validate requested paths (absolute ones inside the root made relative): the syntax rules of core/paths, then existence, then that the real location (after
 * symlinks) is inside the project root.
 */
export async function validatePaths(runtime: Runtime, project: Project, paths: readonly string[], kind: "any" | "file"): Promise<string[]> {
  const normalized = normalizePathList(
    paths.map((path) => insideRoot(project, path)),
    { windows: runtime.platform === "win32" },
  );
  for (const path of normalized) {
    const absolute = join(project.root, path);
    const real = await refusingFsErrors(path, () => runtime.realPath(absolute));
    if (real === null) {
      const dangling = await refusingFsErrors(path, () => runtime.lstat(absolute));
      const reason = dangling?.isSymlink ? "is a symlink whose target does not exist" : "does not exist";
      throw new InvalidArgumentsError(`Path ${quoteInput(path)} refused: ${reason}`, "path_not_found");
    }
    if (relativeToRoot(project.realRoot, real) === null) {
      throw new InvalidArgumentsError(`Path ${quoteInput(path)} refused: resolves through a symlink to outside the project root`, "invalid_path");
    }
    if (kind === "file" && !(await runtime.stat(real))?.isFile) {
      throw new InvalidArgumentsError(`Path ${quoteInput(path)} refused: not a file (use check_project for directories)`, "invalid_path");
    }
  }
  return normalized;
}

/** Run a look-up of a requested path; a symlink loop or an over-long name is a refused path, on every runtime. */
async function refusingFsErrors<T>(path: string, lookUp: () => Promise<T>): Promise<T> {
  try {
    return await lookUp();
  } catch (error) {
    if (error instanceof FsError && error.kind === "symlink_loop")
      throw new InvalidArgumentsError(`Path ${quoteInput(path)} refused: is a symlink loop`, "invalid_path");
    if (error instanceof FsError && error.kind === "name_too_long")
      throw new InvalidArgumentsError(`Path ${quoteInput(path)} refused: name too long`, "invalid_path");
    throw error;
  }
}
