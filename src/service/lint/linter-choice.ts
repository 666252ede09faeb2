import { join } from "node:path";
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

/**
 * The linters the project uses (a dependency of the root or a workspace package, or a command in their scripts) that
 * Signalint cannot run, so a response can say the code was not linted by them.
 */
export async function unsupportedLinters(runtime: Runtime, root: string): Promise<string[]> {
  const manifest = await readManifest(runtime, root);
  const packages = await workspacePackages(runtime, root, manifest);
  const manifests = [manifest, ...(await Promise.all(packages.map((dir) => readManifest(runtime, dir))))];
  const used = new Set<string>();
  for (const pkg of manifests) {
    for (const name of UNSUPPORTED) {
      const inScripts = Object.values(pkg?.scripts ?? {}).some((script) => new RegExp(`(^|[\\s;&|/])${name}($|\\s)`).test(script));
      if (pkg?.dependencies.has(name) || inScripts) used.add(name);
    }
  }
  return [...used].sort();
}

/**
 * The workspace packages that configure ESLint themselves (a flat or legacy config in the package directory). With no
 * config at the root, ESLint is off for the project, yet `npm run lint` in such a package lints its files.
 */
export async function packageEslintConfigs(runtime: Runtime, root: string): Promise<string[]> {
  const packages = await workspacePackages(runtime, root, await readManifest(runtime, root));
  const configured = await Promise.all(
    packages.map(async (dir) => {
      const flat = await Promise.all(ESLINT_FLAT_CONFIGS.map(async (name) => (await runtime.stat(join(dir, name)))?.isFile === true));
      return flat.includes(true) || (await hasLegacyEslintConfig(runtime, dir));
    }),
  );
  return packages.filter((_, index) => configured[index]);
}
