// What a private copy for oxlint's fixes holds besides the files, so that oxlint reads the same config there as in
// the project. oxlint resolves a config's path-scoped parts (`overrides[].files`, `ignorePatterns`, `extends`)
// against the config file's own directory, so the config (and every file it extends) is mirrored into the copy at
// the same place relative to the files; the project's `.eslintignore` (read from where oxlint runs) as well. What a
// copy cannot reproduce (a config that is a program, JS plugins resolved from node_modules) is refused, and said.
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { ifMissing } from "../../core/errors.ts";
import { parseJsonc } from "../../core/jsonc.ts";
import { isRecord } from "../../engines/types.ts";
import type { Runtime } from "../../runtime/types.ts";

/** The config files oxlint reads beside a file or above it, in its order of preference. */
const OXLINT_CONFIGS = [".oxlintrc.json", ".oxlintrc.jsonc", "oxlint.config.ts"];

/** Where oxlint runs in the project and the copy's layout: every path relative to `base` (the copy's top). */
export interface OxlintCopyPlan {
  /** Absolute: the directory the copy stands for (the root, or the directory above it holding the config). */
  base: string;
  /** Base-relative: the directory oxlint runs from (the project root, as the check runs it). */
  cwd: string;
  /** Base-relative: the config passed with `-c` (nested lookup off, as the file's nearest config is this one). */
  config: string;
  /** Base-relative files written beside the asked ones: the config, what it extends, the ignore file. */
  extra: { path: string; text: string }[];
  /** A lint script's rule and plugin switches (`-A no-var`), passed after `-c` as the check passed them. */
  rules?: string[];
}

/** The nearest oxlint config from the file's directory up (past the root: oxlint itself looks there), or null. */
export async function oxlintConfigOf(runtime: Runtime, root: string, file: string): Promise<string | null> {
  for (let dir = dirname(join(root, file)); ; dir = dirname(dir)) {
    for (const name of OXLINT_CONFIGS) if ((await runtime.stat(join(dir, name)))?.isFile) return join(dir, name);
    if (dirname(dir) === dir) return null;
  }
}

const inside = (base: string, path: string) => !relative(base, path).startsWith("..") && !isAbsolute(relative(base, path));
const posix = (path: string) => path.replace(/\\/g, "/");

/**
 * The copy's layout for the files whose nearest config is `config` (absolute; null: none, oxlint's defaults, given as
 * an empty config so that no config above the copy applies), or why oxlint's fixes cannot be asked on a copy.
 */
export async function planOxlintCopy(runtime: Runtime, root: string, config: string | null): Promise<OxlintCopyPlan | { refused: string }> {
  const base = config && !inside(root, config) ? dirname(config) : root;
  const cwd = posix(relative(base, root));
  const extra: OxlintCopyPlan["extra"] = [];
  const read = (path: string) => runtime.readText(path).catch(ifMissing(null));
  try {
    const ignore = await read(join(root, ".eslintignore"));
    if (ignore !== null) extra.push({ path: posix(join(cwd, ".eslintignore")), text: ignore });
  } catch (error) {
    return { refused: `the project's .eslintignore, which oxlint reads, could not be read: ${(error as Error).message}` };
  }
  if (!config) {
    const defaults = posix(join(cwd, ".signalint-oxlint-defaults.json"));
    return { base, cwd, config: defaults, extra: [...extra, { path: defaults, text: "{}" }] };
  }
  const pending = [config];
  for (let path = pending.pop(); path !== undefined; path = pending.pop()) {
    if (extra.some((each) => resolve(base, each.path) === path)) continue;
    const name = relative(root, path) || path;
    if (!inside(base, path)) return { refused: `oxlint's config extends ${path}, outside ${base}: a private copy cannot place it as in the project` };
    if (!/\.jsonc?$/.test(path)) return { refused: `oxlint's config ${name} is a program: Signalint cannot reproduce what it imports on a private copy` };
    let text: string | null;
    let raw: unknown;
    try {
      text = await read(path);
      raw = text === null ? null : parseJsonc(text);
    } catch (error) {
      return { refused: `oxlint's config ${name} could not be read: ${(error as Error).message}` };
    }
    if (text === null || !isRecord(raw)) return { refused: `oxlint's config ${name} is missing or not an object` };
    if (Array.isArray(raw.jsPlugins) && raw.jsPlugins.length)
      return { refused: `oxlint's config ${name} loads JS plugins (jsPlugins), resolved from its directory: a private copy does not reproduce them` };
    extra.push({ path: posix(relative(base, path)), text });
    const extended = Array.isArray(raw.extends) ? raw.extends.filter((entry): entry is string => typeof entry === "string") : [];
    pending.push(...extended.map((entry) => resolve(dirname(path), entry)));
  }
  return { base, cwd, config: posix(relative(base, config)), extra };
}
