import { dirname, relative } from "node:path";
import type { EngineName } from "../../core/contracts.ts";
import { ENGINES } from "../../engines/registry.ts";
import { addDevCommand, installHint, majorVersion, resolveTypeChecker, yarnPnp } from "../../engines/resolve.ts";
import type { NodeCommand, ResolvedEngine } from "../../engines/types.ts";
import type { Runtime } from "../../runtime/types.ts";
import type { ProgramChoice } from "../tsc/tsc-programs.ts";
import { readManifest } from "../project/workspace.ts";

/** What doctor knows that says whether the engines the project uses can run. */
export interface EngineUse {
  runtime: Runtime;
  root: string;
  node: NodeCommand | null;
  /** Each engine's switch (true: on) and resolution (null: not found). */
  engines: Record<EngineName, { enabled: boolean | string; resolved: unknown }>;
  /** The engines signalint.config.json turns on explicitly. */
  explicit: Partial<Record<EngineName, boolean>>;
  choice: ProgramChoice;
}

/**
 * The engines the project uses that cannot run here, each with why and what to do: an engine switched on explicitly,
 * tsc when the project has programs, an engine whose package the root's package.json depends on (installed under
 * Yarn Plug'n'Play, or not installed at all), and vue-tsc or svelte-check that a script runs but that is not
 * installed. A check with any of them is never complete; doctor exits 1.
 */
export async function engineProblems(use: EngineUse): Promise<string[]> {
  const pnp = await yarnPnp(use.runtime, use.root);
  const add = await addDevCommand(use.runtime, use.root);
  const dependencies = (await readManifest(use.runtime, use.root))?.dependencies ?? new Set<string>();
  const problems: string[] = [];
  for (const [engine, entry] of Object.entries(use.engines) as [EngineName, EngineUse["engines"][EngineName]][]) {
    if (entry.resolved || entry.enabled !== true) continue;
    const why =
      use.explicit[engine] === true
        ? "signalint.config.json enables it"
        : engine === "tsc" && use.choice.programs.length > 0
          ? "the project has tsconfig programs"
          : dependencies.has(ENGINES[engine].pkg)
            ? `package.json depends on ${ENGINES[engine].pkg}`
            : null;
    if (why) problems.push(`${engine}: the project uses it (${why}) but ${installHint(engine, pnp, add)}`);
  }
  for (const program of use.choice.programs) {
    if (program.tool === "tsc") continue;
    const found: ResolvedEngine | null = await resolveTypeChecker(use.runtime, program.tool, { start: dirname(program.config), node: use.node });
    if (found) continue;
    const config = relative(use.root, program.config).replace(/\\/g, "/");
    // tsgo missing: the program is checked with the project's TypeScript (a TypeScript 7 one is tsgo itself).
    if (program.tool === "tsgo") {
      const typescript = use.engines.tsc.resolved as ResolvedEngine | null;
      if (typescript && majorVersion(typescript) >= 7) continue;
      const instead = typescript ? `Signalint checks it with TypeScript ${typescript.version ?? "(version unknown)"} instead` : "nothing checks it";
      problems.push(
        `tsgo: the project's scripts run it on ${config} (${program.reasons.join("; ")}), but @typescript/native-preview is not found: ${instead}; install it with \`${add} @typescript/native-preview\``,
      );
      continue;
    }
    const where = pnp ? "it cannot be loaded under Yarn Plug'n'Play (`nodeLinker: node-modules` in .yarnrc.yml)" : `install it with \`${add} ${program.tool}\``;
    problems.push(`${program.tool}: the project's scripts run it on ${config} (${program.reasons.join("; ")}), but it is not found: ${where}`);
  }
  return problems;
}
