import { join, relative } from "node:path";
import picomatch from "picomatch/posix.js";
import { ABSENT_KINDS, FsError } from "../../core/errors.ts";
import { parseJsonc } from "../../core/jsonc.ts";
import type { Runtime } from "../../runtime/types.ts";

/** `fallback` when the path is absent (not found, not a directory, not readable); any other failure is thrown. */
export async function whenAbsent<T>(read: Promise<T>, fallback: T): Promise<T> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof FsError && ABSENT_KINDS.has(error.kind)) return fallback;
    throw error;
  }
}

/** A package.json as far as program and linter choice reads it. */
export interface Manifest {
  /** Its `name`, which workspace runners select packages by (`pnpm --filter docs`); null without one. */
  name: string | null;
  scripts: Record<string, string>;
  /** Names in dependencies and devDependencies. */
  dependencies: Set<string>;
  workspaces: string[];
  /** True when it carries an ESLint legacy config (`eslintConfig`). */
  eslintConfig: boolean;
}

/** The package.json in `dir`, or null when there is none or it cannot be parsed (npm would refuse it too). */
export async function readManifest(runtime: Runtime, dir: string): Promise<Manifest | null> {
  const text = await whenAbsent(runtime.readText(join(dir, "package.json")), null);
  if (text === null) return null;
  let raw: unknown;
  try {
    raw = parseJsonc(text);
  } catch {
    // A package.json npm would refuse: no scripts, no workspaces.
    return null;
  }
  if (typeof raw !== "object" || raw === null) return null;
  const record = raw as { name?: unknown; scripts?: unknown; dependencies?: unknown; devDependencies?: unknown; workspaces?: unknown; eslintConfig?: unknown };
  const strings = (value: unknown) => (typeof value === "object" && value !== null ? Object.entries(value) : []);
  const scripts = Object.fromEntries(strings(record.scripts).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
  const dependencies = new Set([...strings(record.dependencies), ...strings(record.devDependencies)].map(([name]) => name));
  const field = record.workspaces;
  const list = Array.isArray(field) ? field : typeof field === "object" && field !== null ? (field as { packages?: unknown }).packages : [];
  const workspaces = Array.isArray(list) ? list.filter((item): item is string => typeof item === "string") : [];
  return {
    name: typeof record.name === "string" ? record.name : null,
    scripts,
    dependencies,
    workspaces,
    eslintConfig: typeof record.eslintConfig === "object" && record.eslintConfig !== null,
  };
}

/** The `packages:` list of a pnpm-workspace.yaml (the only key read; one pattern per `- ` item). */
export function pnpmWorkspacePatterns(text: string): string[] {
  const patterns: string[] = [];
  let inPackages = false;
  for (const line of text.split(/\r?\n/)) {
    if (/^packages\s*:/.test(line)) inPackages = true;
    else if (/^\S/.test(line)) inPackages = false;
    else if (inPackages) {
      const item = /^\s+-\s*["']?([^"'#]+?)["']?\s*(#.*)?$/.exec(line);
      if (item?.[1]) patterns.push(item[1]);
    }
  }
  return patterns;
}

/** Directories never entered when expanding workspace globs. */
const SKIPPED = new Set(["node_modules", ".git"]);

/** The directories a workspace pattern (`packages/*`, `apps/**`, `tools/cli`) names, with a package.json. */
async function expand(runtime: Runtime, root: string, pattern: string): Promise<string[]> {
  let level = [root];
  for (const segment of pattern.replace(/^\.\//, "").replace(/\/$/, "").split("/")) {
    const next: string[] = [];
    for (const dir of level) {
      if (segment === "**") {
        // Any depth (bounded): the directory itself and its descendants up to four levels.
        let frontier = [dir];
        next.push(dir);
        for (let depth = 0; depth < 4 && frontier.length; depth++) {
          const children = (await Promise.all(frontier.map((parent) => subdirs(runtime, parent)))).flat();
          next.push(...children);
          frontier = children;
        }
      } else if (segment.includes("*")) {
        const match = new RegExp(`^${segment.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`);
        next.push(...(await subdirs(runtime, dir)).filter((child) => match.test(child.slice(dir.length + 1))));
      } else next.push(join(dir, segment));
    }
    level = next;
  }
  const found = await Promise.all(level.map(async (dir) => ((await runtime.stat(join(dir, "package.json")))?.isFile ? dir : null)));
  return found.filter((dir): dir is string => dir !== null);
}

async function subdirs(runtime: Runtime, dir: string): Promise<string[]> {
  const entries = await whenAbsent(runtime.readDir(dir), []);
  return entries.filter((entry) => entry.isDirectory && !SKIPPED.has(entry.name) && !entry.name.startsWith(".")).map((entry) => join(dir, entry.name));
}

/**
 * The workspace package directories of a project (absolute, sorted): package.json `workspaces` (npm, Yarn, Bun)
 * and pnpm-workspace.yaml `packages`; `!`-patterns exclude. Empty for a project that is not a workspace.
 */
export async function workspacePackages(runtime: Runtime, root: string, manifest: Manifest | null): Promise<string[]> {
  const pnpm = pnpmWorkspacePatterns(await whenAbsent(runtime.readText(join(root, "pnpm-workspace.yaml")), ""));
  const patterns = [...(manifest?.workspaces ?? []), ...pnpm];
  const included = new Set<string>();
  const excluded = new Set<string>();
  for (const pattern of patterns) {
    const negated = pattern.startsWith("!");
    for (const dir of await expand(runtime, root, negated ? pattern.slice(1) : pattern)) (negated ? excluded : included).add(dir);
  }
  return [...included].filter((dir) => !excluded.has(dir) && dir !== root).sort();
}

/**
 * The workspace packages a runner's filters select (see engines/workspace-runs.ts): every package without filters;
 * else those whose name matches a filter (`docs`, `@scope/*`) or whose directory does (`./packages/a`, `./apps/**`).
 */
export async function selectPackages(runtime: Runtime, root: string, packages: readonly string[], filters: readonly string[]): Promise<string[]> {
  if (filters.length === 0) return [...packages];
  const byPath = filters.filter((filter) => filter.startsWith(".") || filter.startsWith("/")).map((filter) => picomatch(filter.replace(/^\.\//, ""), GLOB));
  const byName = filters.filter((filter) => !filter.startsWith(".") && !filter.startsWith("/")).map((filter) => picomatch(filter, GLOB));
  const names = await Promise.all(packages.map(async (dir) => (await readManifest(runtime, dir))?.name ?? null));
  return packages.filter((dir, index) => {
    const name = names[index] ?? null;
    const path = relative(root, dir).replace(/\\/g, "/");
    return byPath.some((matches) => matches(path)) || (name !== null && byName.some((matches) => matches(name)));
  });
}

const GLOB = { dot: true, windows: false } as const;
