// Print the cause corpus (test/cause-corpus.ts) as a markdown table: each scenario's clusters after its edit, on
// TypeScript 5.9 and 7 through the real service's warm path, and as references where the scenario has a library.
// `--write` replaces the table between the cause-corpus markers in docs/benchmarks.md. Needs `npm run build` first
// (warm hosts run the bundle). Usage: node build/cause-table.mjs [--write]
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";

// Private state and cache homes for every service and warm host the corpus starts (they read the environment when
// they start), removed at the end: nothing of the run is left in the user's ~/.cache or ~/.local/state.
const homes = mkdtempSync(join(tmpdir(), "signalint-cause-table-"));
process.env.XDG_STATE_HOME = join(homes, "state");
process.env.XDG_CACHE_HOME = join(homes, "cache");
delete process.env.SIGNALINT_STATE_DIR;
delete process.env.SIGNALINT_CACHE_DIR;
process.on("exit", () => rmSync(homes, { recursive: true, force: true }));

const out = join("dist", "cause-table.mjs");
await build({
  stdin: {
    contents: 'export { CAUSE_SCENARIOS } from "./test/cause-corpus.ts";\nexport { compareRun, runCauseScenario } from "./test/cause-corpus-run.ts";\n',
    resolveDir: ".",
    loader: "ts",
  },
  outfile: out,
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  packages: "external", // TypeScript and the SDK load from node_modules, as the tests load them
  logLevel: "warning",
});
const { CAUSE_SCENARIOS, compareRun, runCauseScenario } = await import(pathToFileURL(join(process.cwd(), out)).href);

const paths = [
  ["TS 5.9", join("node_modules", "typescript"), {}],
  ["TS 7", join("node_modules", "typescript7"), {}],
  ["TS 5.9 references", join("node_modules", "typescript"), { references: true }],
];
const cell = (text) => text.replaceAll("|", "\\|").replaceAll("\n", " ");
const rows = ["| Scenario | Path | Errors | Clusters (issues): summary | As expected |", "| --- | --- | --- | --- | --- |"];
for (const scenario of CAUSE_SCENARIOS) {
  for (const [label, dir, options] of paths) {
    if (options.references && !scenario.library) continue;
    const run = await runCauseScenario(scenario, join(process.cwd(), dir), options);
    const expected = options.references
      ? { ...scenario, expect: scenario.expect.map((text) => text.replace(/\(src\//, "(lib/src/").replace(/^src\//, "lib/src/")) }
      : scenario;
    const problems = compareRun(expected, run);
    const clusters = run.clusters.map((cluster) => `(${cluster.issueCount}) ${cluster.rootCauseSummary}`).join("<br>");
    rows.push(`| ${cell(scenario.name)} | ${label} (${run.mode}) | ${run.totalIssues} | ${cell(clusters)} | ${problems.length ? "no" : "yes"} |`);
    process.stderr.write(`${scenario.name} / ${label}: ${problems.length ? problems.join("; ") : "ok"}\n`);
  }
}
const table = rows.join("\n");
if (process.argv.includes("--write")) {
  const doc = join("docs", "benchmarks.md");
  const text = readFileSync(doc, "utf8");
  const start = "<!-- cause-corpus:start -->";
  const end = "<!-- cause-corpus:end -->";
  if (!text.includes(start) || !text.includes(end)) throw new Error(`${doc} has no ${start} … ${end} markers`);
  writeFileSync(doc, `${text.slice(0, text.indexOf(start) + start.length)}\n${table}\n${text.slice(text.indexOf(end))}`);
} else {
  console.log(table);
}
// Warm hosts and timers of the services are closed; nothing else holds the process.
process.exit(0);
