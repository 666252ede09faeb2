import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseJsonc } from "../../core/jsonc.ts";
import { DENO_CONFIGS, denoConfigReferences } from "../../engines/deno.ts";
import type { Runtime } from "../../runtime/types.ts";
import type { ContentHasher } from "./content-hasher.ts";
import { ifMissing } from "../../core/errors.ts";

/** The repository's own ignore file, beside .gitignore (oxlint's walk reads it; it is in no commit). */
const GIT_EXCLUDE = join(".git", "info", "exclude");
/** Lockfiles: a plugin or engine upgrade changes results even when no config file does. */
const LOCKFILES = ["package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lock", "bun.lockb"];

/** A specifier as a path: relative to `here`, absolute, or a `file:` URL (none when Node cannot read the URL). */
function pathOf(here: string, specifier: string): string[] {
  if (!specifier.startsWith("file:")) return [resolve(here, specifier)];
  try {
    return [fileURLToPath(specifier)];
  } catch {
    // Not a file URL Node can read: the config's own import fails the same way when the linter loads it.
    return [];
  }
}

/** Extensions Node, jiti and bundlers try for an import written without one (`require("./rules")`). */
const MODULE_EXTENSIONS = [".js", ".cjs", ".mjs", ".ts", ".cts", ".mts", ".json"];

/**
 * The files an import of `path` may load: itself, and for a path with no module extension the files Node or jiti would
 * try — each extension, the directory's `index.*` and its package.json — every one an input, there or not.
 */
function moduleCandidates(path: string): string[] {
  if (MODULE_EXTENSIONS.some((extension) => path.endsWith(extension))) return [path];
  return [
    path,
    ...MODULE_EXTENSIONS.map((extension) => `${path}${extension}`),
    ...MODULE_EXTENSIONS.map((extension) => join(path, `index${extension}`)),
    join(path, "package.json"),
  ];
}

/**
 * Files a config pulls in: JSON `extends` (string or array), the relative, absolute and `file:` URL imports of JS
 * configs and the JSON files they name by a relative path (bare package names are keyed by the package's version
 * elsewhere), and what a deno.json(c) names (its
 * local lint plugins, import map and lockfile: engines/deno.ts).
 */
export function referencedFiles(path: string, text: string): string[] {
  const here = dirname(path);
  if (/\.(c|m)?[jt]sx?$/.test(path)) {
    const specifiers = [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+|require\s*\(\s*)["']((?:\.{1,2}\/|\/|file:\/\/)[^"']+)["']/g)];
    // And JSON files it names by a relative path, which it may read itself (eslint-plugin-oxlint's
    // `buildFromOxlintConfigFile('.oxlintrc.json')`, a `project: './tsconfig.eslint.json'`).
    const named = [...text.matchAll(/["']((?:\.{1,2}\/)*\.?[\w@][\w@.\-/]*\.json[c5]?)["']/g)].map(([, name = ""]) => resolve(here, name));
    return [...specifiers.flatMap(([, specifier = ""]) => pathOf(here, specifier).flatMap(moduleCandidates)), ...named];
  }
  if (DENO_CONFIGS.includes(basename(path))) return denoConfigReferences(text).flatMap((specifier) => pathOf(here, specifier));
  let parsed: unknown;
  try {
    parsed = parseJsonc(text);
  } catch {
    // A malformed config extends nothing here: the linter reports it when it runs.
    return [];
  }
  const extendsField = (parsed as { extends?: unknown } | null)?.extends;
  const list = typeof extendsField === "string" ? [extendsField] : Array.isArray(extendsField) ? extendsField : [];
  return list.filter((entry): entry is string => typeof entry === "string" && entry.startsWith(".")).map((entry) => resolve(here, entry));
}

const referenceMemo = new Map<string, string[]>();

/** The files a config references, remembered per content hash (configs rarely change). */
async function referencesOf(runtime: Runtime, path: string, hash: string): Promise<string[]> {
  const key = `${path}\0${hash}`;
  const known = referenceMemo.get(key);
  if (known) return known;
  const found = referencedFiles(path, await runtime.readText(path).catch(ifMissing("")));
  if (referenceMemo.size > 10_000) referenceMemo.clear();
  referenceMemo.set(key, found);
  return found;
}

/**
 * A hash of every configuration input an engine reads for files in `dirs`: its config files in each directory up to
 * the root, what they extend or import (transitively), and the root's lockfiles. A file appearing where there was
 * none (a new nested config) changes the hash too.
 */
export async function configInputsHash(
  runtime: Runtime,
  hasher: ContentHasher,
  options: {
    configFiles: readonly string[];
    root: string;
    dirs: Iterable<string>;
  },
): Promise<string> {
  return hashInputs(runtime, hasher, configCandidates(options));
}

/** The config files an engine looks for from each of `dirs` up to the root, and the root's lockfiles. */
function configCandidates(options: { configFiles: readonly string[]; root: string; dirs: Iterable<string> }): Set<string> {
  const names = options.configFiles;
  const candidates = new Set<string>(LOCKFILES.map((name) => join(options.root, name)));
  for (const start of options.dirs) {
    let dir = start;
    for (let depth = 0; depth < 64; depth++) {
      for (const name of names) candidates.add(join(dir, name));
      if (resolve(dir) === resolve(options.root)) break;
      const parent = dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
  }
  return candidates;
}

/**
 * Every configuration input of a run over files in `dirs`, file by file: `path\0hash` (hash empty: no such file), of
 * configInputsHash's and outerInputsHash's candidates and what they extend or import. A process that loaded configs
 * (a warm ESLint: lint/eslint-hosts.ts) is stale when any file it saw has another entry now — whichever directory's
 * config reached it.
 */
export async function configInputEntries(
  runtime: Runtime,
  hasher: ContentHasher,
  options: { configFiles: readonly string[]; root: string; dirs: Iterable<string> },
): Promise<string[]> {
  const candidates = new Set([...configCandidates(options), ...outerCandidates(options)]);
  return (await walkInputs(runtime, hasher, candidates)).map(([path, hash]) => `${path}\0${hash ?? ""}`);
}

/**
 * A hash of the configuration inputs a linter reads above the root, the same for every file of a run: linters look
 * for their configs and ignore files up to the filesystem root (a repository's .gitignore above a package), and
 * oxlint's walk honours the repository's `.git/info/exclude` (the root's, or an ancestor's). The root's own lockfiles
 * and configs are configInputsHash's.
 */
export function outerInputsHash(runtime: Runtime, hasher: ContentHasher, options: { configFiles: readonly string[]; root: string }): Promise<string> {
  return hashInputs(runtime, hasher, outerCandidates(options));
}

function outerCandidates(options: { configFiles: readonly string[]; root: string }): Set<string> {
  const names = [...options.configFiles, ...LOCKFILES, GIT_EXCLUDE];
  const candidates = new Set<string>([join(options.root, GIT_EXCLUDE)]);
  for (let dir = dirname(options.root); ; dir = dirname(dir)) {
    for (const name of names) candidates.add(join(dir, name));
    if (dirname(dir) === dir) break;
  }
  return candidates;
}

/** Hash the candidates that exist, and (transitively) what they extend or import. */
async function hashInputs(runtime: Runtime, hasher: ContentHasher, candidates: Iterable<string>): Promise<string> {
  const found = await walkInputs(runtime, hasher, candidates);
  return runtime.sha256(
    found
      .filter(([, hash]) => hash)
      .map(([path, hash]) => `${path}\0${hash}`)
      .join("\n"),
  );
}

/** Each candidate with its hash (null: none there), and (transitively) what the existing ones extend or import. */
async function walkInputs(runtime: Runtime, hasher: ContentHasher, candidates: Iterable<string>): Promise<[string, string | null][]> {
  const parts: [string, string | null][] = [];
  const seen = new Set<string>();
  let wave = [...candidates].sort();
  while (wave.length) {
    // One wave of stats and hashes at a time, in parallel: most candidates do not exist.
    const hashes = await hasher.hashMany(wave);
    const next: string[] = [];
    for (const [index, path] of wave.entries()) {
      seen.add(path);
      const hash = hashes[index] ?? null;
      parts.push([path, hash]);
      if (!hash) continue;
      if (!/\.gitignore$|\.eslintignore$|\.editorconfig$|\.lockb?$|lock\.(json|yaml)$|[\\/]info[\\/]exclude$/.test(path))
        next.push(...(await referencesOf(runtime, path, hash)));
    }
    wave = [...new Set(next)].filter((path) => !seen.has(path)).sort();
  }
  return parts;
}
