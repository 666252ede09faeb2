import { join } from "node:path";
import { ENGINE_NAMES, type EngineName } from "../../core/contracts.ts";
import { exactStamp } from "../../engines/file-stamp.ts";
import type { Settings } from "../../core/config.ts";
import { resolutionStart, resolveEngine } from "../../engines/resolve.ts";
import type { NodeCommand, ResolvedEngine } from "../../engines/types.ts";
import type { Runtime } from "../../runtime/types.ts";
import type { EngineReport } from "../job/engine-job.ts";

/** The cache mode every engine of a quiet check reports: its answer was repeated, nothing ran. */
export const UNCHANGED_MODE = "unchanged";

/** What must be equal for a kept answer to be this check's: the paths, the kind, the engines and the settings. */
export function quietKey(request: {
  paths: readonly string[];
  incremental: boolean;
  enabled: Record<EngineName, boolean | string>;
  eslintLegacy: boolean;
  settings: Settings;
  /** Who answers, the environment the engines run in included: each shell keeps its own quiet answer. */
  identity: string;
}): string {
  return JSON.stringify([request.paths, request.incremental, request.enabled, request.eslintLegacy, request.settings, request.identity]);
}

/** Each enabled engine as it resolves for a check (null: not installed); resolved once, then run as resolved. */
export type ResolvedEngines = Partial<Record<EngineName, ResolvedEngine | null>>;

/** Resolve every enabled engine once per check: its identity vouches for a quiet answer, and it is what runs. */
export async function resolveEnabled(
  runtime: Runtime,
  request: { root: string; paths: readonly string[]; node: NodeCommand | null; enabled: Record<EngineName, boolean | string> },
): Promise<ResolvedEngines> {
  const start = resolutionStart(request.root, request.paths);
  const engines = ENGINE_NAMES.filter((engine) => request.enabled[engine] === true);
  const resolved = await Promise.all(engines.map((engine) => resolveEngine(runtime, engine, { start, node: request.node })));
  return Object.fromEntries(engines.map((engine, index) => [engine, resolved[index] ?? null]));
}

/** An engine's own code beside its entry, whose change (an install cut off half-way, a package rewritten in place) its version does not show. */
const ENGINE_CODE: Partial<Record<EngineName, readonly string[]>> = { tsc: ["lib/tsc.js", "lib/_tsc.js", "lib/typescript.js"] };

/**
 * Who would answer: each enabled engine as it resolved (package entry, version, package directory, oxlint's
 * type-aware companion), or "none", with the exact stamps of its entry, its package.json and its code (ENGINE_CODE).
 * An engine installed, removed, upgraded or rewritten anywhere it is looked for — the project's node_modules or PATH —
 * is another identity, so no kept answer is repeated across it.
 */
export function engineIdentity(resolved: ResolvedEngines): string {
  return JSON.stringify(
    ENGINE_NAMES.flatMap((engine) => {
      if (!(engine in resolved)) return [];
      const found = resolved[engine];
      if (!found) return [[engine, "none"]];
      const code = found.packageDir ? ["package.json", ...(ENGINE_CODE[engine] ?? [])].map((file) => join(found.packageDir as string, file)) : [];
      const stamps = [found.path, ...code].map((file) => exactStamp(file));
      return [[engine, found.path, found.version, found.packageDir, found.typeAware?.path ?? null, stamps]];
    }),
  );
}

/**
 * Everything outside the watch the reports depend on (warm programs' files, config files a linter's configs reach
 * outside the root), or null when one of them cannot be repeated (a command-line tsc, an engine failure).
 */
export function reusableReads(reports: readonly [EngineName, EngineReport][], hashed: readonly string[] | null): string[] | null {
  if (hashed === null || reports.some(([, report]) => !report.reuse)) return null;
  return [...reports.flatMap(([, report]) => report.reuse?.reads ?? []), ...hashed];
}

/** The kept reports as a quiet check gives them: every input a hit, nothing run (no engine time). */
export function repeatedReports(reports: readonly [EngineName, EngineReport][]): [EngineName, EngineReport][] {
  return reports.map(([engine, report]) => {
    const cache = report.cache && { hits: report.cache.hits + report.cache.misses, misses: 0, mode: UNCHANGED_MODE };
    return [engine, { ...report, durationMs: 0, ...(cache ? { cache } : {}) }];
  });
}
