import { dirname, join } from "node:path";
import { ESLINT_FLAT_CONFIGS } from "../../engines/eslint.ts";
import type { Runtime } from "../../runtime/types.ts";
import { readManifest, workspacePackages } from "../project/workspace.ts";

/** Legacy ESLint config files (ESLint 8's default; ESLint 9 reads them with ESLINT_USE_FLAT_CONFIG=false). */
export const ESLINT_LEGACY_CONFIGS = [".eslintrc.js", ".eslintrc.cjs", ".eslintrc.yaml", ".eslintrc.yml", ".eslintrc.json", ".eslintrc"];

/** Linters a project may use that Signalint cannot run: their package names (and the commands their scripts run). */
const UNSUPPORTED = ["xo", "standard", "semistandard", "ts-standard", "tslint"];

/** True when the project root configures ESLint the legacy way (an .eslintrc* file or package.json `eslintConfig`). */
export async function hasLegacyEslintConfig(runtime: Runtime, root: string): Promise<boolean> {
  const found = await Promise.all(ESLINT_LEGACY_CONFIGS.map(async (name) => (await runtime.stat(join(root, name)))?.isFile === true));
  return found.includes(true) || ((await readManifest(runtime, root))?.eslintConfig ?? false);
}

/** True when the directory holds a flat ESLint config of its own (eslint.config.*). */
export async function hasFlatEslintConfig(runtime: Runtime, dir: string): Promise<boolean> {
  return (await Promise.all(ESLINT_FLAT_CONFIGS.map(async (name) => (await runtime.stat(join(dir, name)))?.isFile === true))).includes(true);
}

/** A linter the project uses that Signalint cannot run, and the package directories that use it. */
export interface UnsupportedLinter {
  name: string;
  dirs: string[];
}

/**
 * The linters the project uses (a dependency of the root or a workspace package, or a command in their scripts) that
 * Signalint cannot run, with the packages that use them, so a response can say their code was not linted by them.
 * Only installed ones count (found in node_modules from the package up to the root): a script naming a linter that
 * is not installed fails when the project runs it, so it lints nothing.
 */
export async function unsupportedLinters(runtime: Runtime, root: string): Promise<UnsupportedLinter[]> {
  const manifest = await readManifest(runtime, root);
  const packages = await workspacePackages(runtime, root, manifest);
  const dirs = [root, ...packages];
  const manifests = [manifest, ...(await Promise.all(packages.map((dir) => readManifest(runtime, dir))))];
  const used = new Map<string, string[]>();
  for (const [index, pkg] of manifests.entries()) {
    const dir = dirs[index] as string;
    for (const name of UNSUPPORTED) {
      const inScripts = Object.values(pkg?.scripts ?? {}).some((script) => new RegExp(`(^|[\\s;&|/])${name}($|\\s)`).test(script));
      if ((pkg?.dependencies.has(name) || inScripts) && (await installed(runtime, root, dir, name))) used.set(name, [...(used.get(name) ?? []), dir]);
    }
  }
  return [...used].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, users]) => ({ name, dirs: users }));
}

/** True when `node_modules/<name>` is found from `dir` up to `root`. */
async function installed(runtime: Runtime, root: string, dir: string, name: string): Promise<boolean> {
  for (let at = dir; ; at = dirname(at)) {
    if ((await runtime.stat(join(at, "node_modules", name, "package.json")))?.isFile) return true;
    if (at === root || dirname(at) === at) return false;
  }
}

/**
 * The workspace packages that configure ESLint themselves (a flat or legacy config in the package directory). With no
 * config at the root, ESLint is off for the project, yet `npm run lint` in such a package lints its files.
 */
export async function packageEslintConfigs(runtime: Runtime, root: string): Promise<string[]> {
  const packages = await workspacePackages(runtime, root, await readManifest(runtime, root));
  const configured = await Promise.all(packages.map(async (dir) => (await hasFlatEslintConfig(runtime, dir)) || (await hasLegacyEslintConfig(runtime, dir))));
  return packages.filter((_, index) => configured[index]);
}
