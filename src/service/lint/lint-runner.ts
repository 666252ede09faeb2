import { environmentFingerprint } from "../../core/environment.ts";
import { dirname, join } from "node:path";
import type { EngineName } from "../../core/contracts.ts";
import type { RawIssue } from "../../core/issues.ts";
import type { FileFailure, LinterDriver, ParseOutcome, ResolvedEngine } from "../../engines/types.ts";
import { configInputEntries, configInputsHash, outerInputsHash } from "../freshness/config-inputs.ts";
import { relativeToRoot } from "../../core/paths.ts";
import type { EngineJob, LintedDependents, RunnerOutcome } from "../job/engine-job.ts";
import type { ContentHasher } from "../freshness/content-hasher.ts";
import type { LintCache } from "./lint-cache.ts";
import { listFiles } from "../project/project-files.ts";
import { TYPED_MARK, type DependentsJob } from "./typed-eslint.ts";
import type { EslintHosts } from "./eslint-hosts.ts";

/** How a file-local linter is driven: which paths it takes, its argv, and its output parser. */
export interface LinterSpec extends Omit<LinterDriver, "argsFor"> {
  engine: EngineName;
  /** The argv for these paths, the version and this run's options already applied. */
  argsFor: (paths: readonly string[]) => string[];
  /** False when a file's findings depend on other files (oxlint --type-aware): results are then never cached. */
  fileLocal?: boolean;
  /**
   * Which of these files (absolute) the linter's config lints with type information (ESLint with typescript-eslint's
   * typed rules; null: it could not tell): then, as for `fileLocal: false`, nothing is cached — an edit of one file
   * changes another's findings.
   */
  typeInformation?: (files: readonly string[]) => Promise<boolean[] | null>;
  /**
   * An edit's check with typed rules: the files importing the named ones (root-relative) to lint in the same run, since
   * their findings read the named files' types (see typed-eslint.ts dependentsToLint); null outside such a check.
   */
  dependents?: (named: readonly string[]) => Promise<LintedDependents | null>;
  /** The directory the linter runs in when not the root (Biome from a package's directory): part of a result's identity. */
  cwd?: string;
  /**
   * Files its argv makes it read wherever they are (oxlint's `-c .config/.oxlintrc.json` from a lint script, with what
   * that config extends), absolute: their content is part of a result's identity.
   */
  inputs?: readonly string[];
}

/** A linter run's inputs: the common job plus the result cache and oxlint's type-aware switch. */
export interface LintJob extends DependentsJob {
  cache: { hasher: ContentHasher; results: LintCache };
  /** False: oxlint never runs --type-aware, even with oxlint-tsgolint installed. */
  oxlintTypeAware: boolean;
  /** Warm ESLint command lines (a long-lived server's; absent: every lint starts ESLint). */
  eslintHosts?: EslintHosts | null;
}

/**
 * How a run may be answered: `typed` when its findings may read other files (type information, a type-aware linter, a
 * run whose files are not known) — only a new engine process answers it; else `inputs` are the configuration inputs it
 * rests on, `name\0hash` (for a warm engine: lint/eslint-hosts.ts).
 */
export interface SpawnContext {
  typed: boolean;
  /** Asked only by a warm engine (walking the configs costs stats): none for a typed run. */
  inputs: () => Promise<string[]>;
}

type Spawn = (args: string[], context: SpawnContext) => Promise<ParseOutcome>;

const TYPED: SpawnContext = { typed: true, inputs: () => Promise.resolve([]) };

/**
 * What a stored result holds, in the cache identity: results stored before issues carried `fixKind` (format 1) would
 * answer without it, unlike a cold run, so they are never reused; nor type-information answers stored before rules
 * reading other modules (eslint-plugin-import's) counted (format 2).
 */
const RESULT_FORMAT = "3";

function groupByFile(issues: readonly RawIssue[]): Map<string, RawIssue[]> {
  const groups = new Map<string, RawIssue[]>();
  for (const issue of issues) {
    const group = groups.get(issue.file);
    if (group) group.push(issue);
    else groups.set(issue.file, [issue]);
  }
  return groups;
}

/**
 * Run a file-local linter through the result cache. Named files: only files whose content or config inputs changed
 * are linted again. Directories: the previous run is reused only when no file under them and no config input
 * changed; otherwise the linter runs on the directories exactly as before.
 */
export async function runCachedLinter(spec: LinterSpec, job: LintJob, resolved: ResolvedEngine, spawn: Spawn): Promise<RunnerOutcome> {
  const paths = job.paths.filter(spec.accepts);
  if (paths.length === 0) return { ok: true, issues: [], cache: { hits: 0, misses: 0 } };
  if (spec.fileLocal === false) return { ...(await spawn(spec.argsFor(paths), TYPED)), cache: { hits: 0, misses: paths.length } };
  const { cache, runtime, root } = job;
  const kinds = await Promise.all(paths.map(async (path) => ({ path, isFile: (await runtime.stat(join(root, path)))?.isFile === true })));
  // What the linter reads above the root (and in .git) is the same for every file: hashed once into the identity.
  const outer = await outerInputsHash(runtime, cache.hasher, { configFiles: spec.configFiles, root });
  // The argv too: the same file linted with other flags (ESLint 9's config lookup, a legacy --ext) is another result.
  // And the environment it runs in: a JavaScript config may read any variable (LINT_STRICT), so each shell's answer is
  // kept apart from another's (terminal noise aside: core/environment.ts).
  const environment = environmentFingerprint(runtime.environment(), runtime.sha256);
  // An engine of unknown version (an executable on PATH outside any package: deno's own install) is known by its file,
  // so an upgrade in place (`deno upgrade`) is another engine.
  const entry = resolved.version ? null : await runtime.stat(resolved.path);
  const engineId = resolved.version ?? `${resolved.path}\0${entry ? `${entry.size}\0${entry.mtimeMs}` : "gone"}`;
  // Files the argv names (a script's `-c` config), by content: an edit of one is another result.
  const named = spec.inputs?.length ? (await cache.hasher.hashMany(spec.inputs)).map((hash, index) => `${spec.inputs?.[index]}\0${hash}`).join("\0") : "";
  const identity = `${RESULT_FORMAT}\0${spec.engine}\0${engineId}\0${outer}\0${spec.argsFor([]).join("\0")}\0${environment}${spec.cwd ? `\0${spec.cwd}` : ""}${named ? `\0${named}` : ""}`;
  // A file's key covers the config inputs of its own directory, so the same file has the same key in every request.
  const configHashes = new Map<string, Promise<string>>();
  const configHashOf = (dir: string) => {
    if (!configHashes.has(dir)) configHashes.set(dir, configInputsHash(runtime, cache.hasher, { configFiles: spec.configFiles, root, dirs: [dir] }));
    return configHashes.get(dir) as Promise<string>;
  };
  const fileKey = async (path: string, contentHash: string | null) =>
    runtime.sha256(`${identity}\0${await configHashOf(dirname(join(root, path)))}\0${path}\0${contentHash}`);
  // Whether any of these files (absolute) is linted with type information: each file's answer is asked once (in one
  // batch for the files not known yet) and remembered under its key's config inputs (a config edit asks again).
  const typed = async (files: readonly string[]): Promise<boolean> => {
    if (!spec.typeInformation) return false;
    const keyOf = async (file: string) => runtime.sha256(`type-information\0${identity}\0${await configHashOf(dirname(file))}\0${file}`);
    const unknown: string[] = [];
    for (const file of files) {
      const known = await cache.results.get(await keyOf(file));
      if (known?.length) return true;
      if (!known) unknown.push(file);
    }
    if (unknown.length === 0) return false;
    const answers = await spec.typeInformation(unknown);
    if (!answers) return true;
    for (const [index, file] of unknown.entries()) await cache.results.put(await keyOf(file), answers[index] ? [TYPED_MARK] : []);
    return answers.includes(true);
  };
  // The inputs of a run of files in these directories, file by file (configs above the root, the root's, each directory's).
  const inputsOf = (dirs: Iterable<string>): SpawnContext => {
    const all = [root, ...dirs];
    return { typed: false, inputs: () => configInputEntries(runtime, cache.hasher, { configFiles: spec.configFiles, root, dirs: all }) };
  };
  const uncached = async (): Promise<RunnerOutcome> => ({ ...(await spawn(spec.argsFor(paths), TYPED)), cache: { hits: 0, misses: paths.length } });
  if (kinds.every((kind) => kind.isFile)) {
    if (await typed(paths.map((path) => join(root, path)))) {
      // Typed rules: the files importing the named ones are linted in the same run (their findings read these types).
      const dependents = (await spec.dependents?.(paths)) ?? null;
      if (!dependents?.files.length) return { ...(await uncached()), ...(dependents ? { dependents } : {}) };
      const outcome = await spawn(spec.argsFor([...paths, ...dependents.files]), TYPED);
      return outcome.ok ? { ...outcome, cache: { hits: 0, misses: paths.length }, dependents } : outcome;
    }
    const keys = new Map<string, string>();
    const issues: RawIssue[] = [];
    const misses: string[] = [];
    const hashes = await cache.hasher.hashMany(paths.map((path) => join(root, path)));
    for (const [index, path] of paths.entries()) {
      const key = await fileKey(path, hashes[index] ?? null);
      keys.set(path, key);
      const hit = await cache.results.get(key);
      if (hit) issues.push(...hit);
      else misses.push(path);
    }
    let failures: FileFailure[] | undefined;
    if (misses.length) {
      const fresh = await spawn(spec.argsFor(misses), inputsOf(misses.map((path) => dirname(join(root, path)))));
      if (!fresh.ok) return fresh;
      failures = fresh.failures;
      const byFile = groupByFile(fresh.issues);
      // A file the engine could not check has no result to keep: it is linted again next time.
      const failed = new Set(failures?.map((failure) => failure.file));
      for (const path of misses) if (!failed.has(path)) await cache.results.put(keys.get(path) as string, byFile.get(path) ?? []);
      issues.push(...fresh.issues);
    }
    return { ok: true, issues, ...(failures ? { failures } : {}), cache: { hits: paths.length - misses.length, misses: misses.length } };
  }
  const listings = await Promise.all(
    kinds.map(async ({ path, isFile }) =>
      isFile ? [join(root, path)] : listFiles(runtime, join(root, path), { accepts: spec.tracks ?? spec.accepts, skip: job.stateDir }),
    ),
  );
  if (listings.some((listing) => listing === null)) return spawn(spec.argsFor(paths), TYPED);
  const files = listings.flatMap((listing) => listing ?? []);
  // The run's config inputs are those of the directories holding its files (the same hashes the per-file keys use).
  const dirs = [...new Set(files.map((file) => dirname(file)))].sort();
  const dirHashes = await Promise.all(dirs.map(configHashOf));
  const hashes = await cache.hasher.hashMany(files);
  const contentHashes = new Map(files.map((file, index) => [file, hashes[index] ?? null]));
  const parts = [
    identity,
    paths.join("\0"),
    ...dirs.map((dir, index) => `${dir}\0${dirHashes[index]}`),
    ...files.map((file, index) => `${file}\0${hashes[index]}`),
  ];
  const key = runtime.sha256(parts.join("\n"));
  const hit = await cache.results.get(key);
  // A stored run is an untyped one (a typed run is never stored), under these very config inputs.
  const typedRun = !hit && (await typed(files));
  const outcome: RunnerOutcome = hit
    ? { ok: true, issues: hit, cache: { hits: files.length, misses: 0 } }
    : await spawn(spec.argsFor(paths), typedRun ? TYPED : inputsOf(dirs));
  if (!outcome.ok || "status" in outcome) return outcome;
  const nothingLinted = nothingLintedFailure(spec, paths, files, outcome);
  if (nothingLinted) return nothingLinted;
  if (typedRun) return { ...outcome, cache: { hits: 0, misses: files.length } };
  // A partial run is not stored: the next check runs the engine again. Nor is one that linted a file the key does not
  // cover (an extension only the project's config lints): an edit of that file would not change the key.
  const failed = new Set(outcome.failures?.map((failure) => failure.file));
  const tracked = new Set(files.map((file) => relativeToRoot(root, file)));
  const untracked = spec.listsLinted && (outcome.linted ?? []).some((file) => !tracked.has(file));
  if (!hit && failed.size === 0 && !untracked) await cache.results.put(key, outcome.issues);
  // Every file of a directory run now has a known result: later check_files on one of them is a cache hit — of an
  // engine that lists what it linted, only those files (and, from a stored run, those with findings).
  const byFile = groupByFile(outcome.issues);
  const linted = spec.listsLinted ? new Set(outcome.linted ?? byFile.keys()) : null;
  for (const [file, contentHash] of contentHashes) {
    const relative = relativeToRoot(root, file);
    if (relative !== null && !failed.has(relative) && (!linted || linted.has(relative)))
      cache.results.prime(await fileKey(relative, contentHash), byFile.get(relative) ?? []);
  }
  return { ...outcome, cache: outcome.cache ?? { hits: 0, misses: files.length } };
}

/**
 * An engine that lists what it linted, given directories holding files it could lint, and linting none of them: the
 * project's own run fails there ("all files are ignored", "no files matching"; Signalint's argv silences that for
 * paths that hold nothing to lint). Never a clean answer: an error naming the paths.
 */
function nothingLintedFailure(spec: LinterSpec, paths: readonly string[], tracked: readonly string[], outcome: ParseOutcome): ParseOutcome | null {
  // Only files it lints unasked count (README.md under docs/ is no file ESLint was expected to lint).
  const files = spec.lintsUnasked ? tracked.filter(spec.lintsUnasked) : tracked;
  if (!spec.listsLinted || !outcome.ok || !outcome.linted || outcome.linted.length > 0 || files.length === 0) return null;
  return {
    ok: false,
    code: "engine_failed",
    message: `${spec.engine} linted none of the ${files.length} files under ${paths.join(", ")}: its config ignores them all there, or lints none of their extensions (its own run on these paths fails the same way)`,
  };
}
