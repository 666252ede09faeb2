// Run a cause scenario through the real service (the warm path: the check after the edit is the warm program's) on a
// given TypeScript package, as a plain project or as a references solution (the library files in a referenced
// project). Shared by the corpus test and build/cause-table.mjs.
import type { CheckResponse, Cluster } from "../src/core/contracts.ts";
import { createNodeRuntime } from "../src/runtime/node.ts";
import { SignalintService } from "../src/service/signalint.ts";
import type { CauseScenario } from "./cause-corpus.ts";
import { BUNDLE, linkPackage, removeDir, tempDir } from "./helpers.ts";
import { writeFiles } from "./helpers/project.ts";

const runtime = createNodeRuntime({ selfScript: BUNDLE });
const OPTIONS = { strict: true, target: "es2022", module: "esnext", moduleResolution: "bundler" };

/** What one run gave: the clusters, the error count, and which path answered (warm-program, warm-solution…). */
export interface CauseRun {
  clusters: Cluster[];
  totalIssues: number;
  mode: string;
}

/** The references layout: library files under lib/ (composite), the rest under app/ importing "../../lib/src/…". */
function referencesFiles(scenario: CauseScenario, files: Record<string, string>): Record<string, string> {
  const library = new Set(scenario.library ?? []);
  const moved: Record<string, string> = {};
  for (const [file, text] of Object.entries(files)) {
    if (library.has(file)) moved[`lib/${file}`] = text;
    else
      moved[`app/${file}`] = text.replace(/from "\.\/([^"]+)"/g, (whole, target: string) =>
        library.has(`src/${target}.ts`) ? `from "../../lib/src/${target}"` : whole,
      );
  }
  return moved;
}

function configs(references: boolean): Record<string, string> {
  if (!references) return { "tsconfig.json": JSON.stringify({ compilerOptions: { ...OPTIONS, noEmit: true }, include: ["src"] }) };
  return {
    "lib/tsconfig.json": JSON.stringify({ compilerOptions: { ...OPTIONS, composite: true, outDir: "dist" }, include: ["src"] }),
    "app/tsconfig.json": JSON.stringify({
      compilerOptions: { ...OPTIONS, composite: true, outDir: "dist" },
      include: ["src"],
      references: [{ path: "../lib" }],
    }),
    "tsconfig.json": JSON.stringify({ files: [], references: [{ path: "./app" }] }),
  };
}

/**
 * Create the scenario's project linked to `typescriptDir`, check until the warm path answers, apply the edit and
 * check again; the project is removed afterwards.
 */
export async function runCauseScenario(scenario: CauseScenario, typescriptDir: string, options: { references?: boolean } = {}): Promise<CauseRun> {
  const root = tempDir("signalint-causes-");
  const layout = (files: Record<string, string>) => (options.references ? referencesFiles(scenario, files) : files);
  writeFiles(root, {
    ...configs(options.references === true),
    "signalint.config.json": JSON.stringify({ engines: { oxlint: false } }),
    ...layout(scenario.files),
  });
  linkPackage(root, "typescript", typescriptDir);
  const service = await SignalintService.create(runtime, { root });
  const mode = () => service.lastTiming?.cache?.tsc?.mode ?? "none";
  try {
    for (let attempt = 0; attempt < 4 && !mode().startsWith("warm-"); attempt++) {
      await service.check(["."], false);
      // The warm-up timer does not hold the process open: hold it while waiting.
      const hold = setInterval(() => {}, 1000);
      await service.warmSettled().finally(() => clearInterval(hold));
    }
    writeFiles(root, layout(scenario.edit));
    const response: CheckResponse = await service.check(["."], false);
    return { clusters: response.clusters, totalIssues: response.totalIssues, mode: mode() };
  } finally {
    service.close();
    removeDir(root);
  }
}

/** Which expected texts no cluster names, and clusters no expected text names (empty both: the scenario holds). */
export function compareRun(scenario: CauseScenario, run: CauseRun): string[] {
  const problems: string[] = [];
  if (run.totalIssues !== scenario.errors) problems.push(`${run.totalIssues} errors, expected ${scenario.errors}`);
  if (run.clusters.length !== scenario.expect.length) problems.push(`${run.clusters.length} clusters, expected ${scenario.expect.length}`);
  for (const text of scenario.expect) {
    const matching = run.clusters.filter((cluster) => cluster.rootCauseSummary.includes(text));
    if (matching.length !== 1) problems.push(`${matching.length} clusters name ${text}`);
  }
  return problems.map((problem) => `${scenario.name}: ${problem} (${JSON.stringify(run.clusters.map((cluster) => cluster.rootCauseSummary))})`);
}
