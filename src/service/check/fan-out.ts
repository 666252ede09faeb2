import { join } from "node:path";
import { ENGINE_NAMES, type EngineName } from "../../core/contracts.ts";
import { ESLINT_FLAT_CONFIGS } from "../../engines/eslint.ts";
import { ENGINES } from "../../engines/registry.ts";
import type { Runtime } from "../../runtime/types.ts";
import { hasLegacyEslintConfig } from "../lint/linter-choice.ts";
import type { EngineReport } from "../job/engine-job.ts";
import { runEngine, type CheckJob } from "./engine-runner.ts";

async function anyExists(runtime: Runtime, root: string, names: readonly string[]): Promise<boolean> {
  const found = await Promise.all(names.map(async (name) => (await runtime.stat(join(root, name)))?.isFile === true));
  return found.includes(true);
}

/** True when the project root has no flat config but a legacy one: ESLint runs the way ESLint 8 runs it. */
export async function eslintLegacy(runtime: Runtime, root: string): Promise<boolean> {
  return !(await anyExists(runtime, root, ESLINT_FLAT_CONFIGS)) && (await hasLegacyEslintConfig(runtime, root));
}

/** Which engines run: explicit config switches, else what the project has; a string says why one is off. */
export async function enabledEngines(
  runtime: Runtime,
  root: string,
  switches: Partial<Record<EngineName, boolean>>,
): Promise<Record<EngineName, boolean | string>> {
  const explicit = (engine: EngineName, fallback: boolean | string): boolean | string =>
    switches[engine] === undefined ? fallback : switches[engine] || "disabled in signalint.config.json";
  const entries = await Promise.all(
    ENGINE_NAMES.map(async (engine) => {
      const { enabledBy, offReason } = ENGINES[engine];
      // ESLint also reads a legacy config (package.json eslintConfig is no file the registry can name).
      const legacy = engine === "eslint" && (await hasLegacyEslintConfig(runtime, root));
      const fallback = enabledBy === null || legacy || (await anyExists(runtime, root, enabledBy)) || (offReason ?? "off by default");
      return [engine, explicit(engine, fallback)] as const;
    }),
  );
  return Object.fromEntries(entries) as Record<EngineName, boolean | string>;
}

/**
 * Run every enabled engine in parallel, each with its own job (the shared inputs plus its config switch and
 * timeout). Engines off by configuration or default are `disabled`: the reason is doctor's to explain.
 */
export function runEngines(enabled: Record<EngineName, boolean | string>, jobFor: (engine: EngineName) => CheckJob): Promise<[EngineName, EngineReport][]> {
  return Promise.all(
    ENGINE_NAMES.map(async (engine): Promise<[EngineName, EngineReport]> => {
      if (enabled[engine] !== true) return [engine, { status: { status: "disabled" }, issues: [], durationMs: 0, reuse: { reads: [] } }];
      return [engine, await runEngine(engine, jobFor(engine))];
    }),
  );
}
