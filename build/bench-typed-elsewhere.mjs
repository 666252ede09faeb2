// node build/bench-typed-elsewhere.mjs: issue 36 item 1's ESLint part on a generated project with a typed ESLint config
// (typescript-eslint's projectService, no-floating-promises): a hub `dep.ts` imported by BENCH_IMPORTERS files (20),
// its function made async and back, each edit answered by check_files [dep.ts] — with the importers linted
// (typedLintDependents 50, the default) and without (0: only the note), in one MCP server each on its own copy, both
// open at once and their edits alternating (one edit in each, then the next), so a load that changes during the run
// weighs on both alike. Prints each edit's time, the introduced errors, the medians, and each round's ratio of the
// first budget's time to the second's. BENCH_RUNS (3 edits each way), BENCH_BUDGETS ("50,0"). Needs `npm run build`.
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { env, mcpCheck, median, openSession, ROOT, tempDir } from "./bench-harness.mjs";

const IMPORTERS = Number(process.env.BENCH_IMPORTERS ?? 20);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const VOID = "export function ping(): void {}\n";
const ASYNC = "export async function ping(): Promise<void> {}\n";

/** A fresh project: dep.ts, IMPORTERS files calling its ping(), a typed ESLint config, tsc and ESLint installed. */
function project(typedLintDependents) {
  const dir = tempDir("typed-elsewhere-");
  const files = {
    "package.json": '{ "name": "typed-elsewhere", "private": true, "type": "module", "scripts": { "lint": "eslint ." } }\n',
    "eslint.config.mjs": `import tseslint from "typescript-eslint";
export default tseslint.config({
  files: ["**/*.ts"],
  extends: [tseslint.configs.base],
  languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
  rules: { "@typescript-eslint/no-floating-promises": "error" },
});
`,
    "tsconfig.json": JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, target: "es2022", module: "esnext", moduleResolution: "bundler" },
      include: ["src"],
    }),
    "signalint.config.json": JSON.stringify({ engines: { oxlint: false }, typedLintDependents }),
    "src/dep.ts": VOID,
  };
  for (let index = 0; index < IMPORTERS; index++)
    files[`src/use${index}.ts`] = `import { ping } from "./dep";\nexport function run${index}(): void {\n  ping();\n}\n`;
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  for (const pkg of ["eslint", "typescript-eslint", "typescript"]) {
    mkdirSync(join(dir, "node_modules"), { recursive: true });
    symlinkSync(join(ROOT, "node_modules", pkg), join(dir, "node_modules", pkg));
  }
  return dir;
}

/** A server on its own project for each budget, its whole-project check made: RUNS edits each way follow, alternating. */
async function open(typedLintDependents) {
  const dir = project(typedLintDependents);
  const { client } = await openSession(dir, env({ SIGNALINT_DAEMON: "0" }), "bench-typed-elsewhere");
  await mcpCheck(client, "check_project", {});
  return { budget: typedLintDependents, dir, client, rows: [] };
}

/** One edit in a session's project and its check_files: the time, ESLint's findings elsewhere, the notes. */
async function edit(session, round) {
  writeFileSync(join(session.dir, "src", "dep.ts"), round % 2 === 0 ? ASYNC : VOID);
  const check = await mcpCheck(session.client, "check_files", { files: ["src/dep.ts"] });
  session.rows.push({
    ms: Math.round(check.ms),
    status: check.status,
    elsewhere: check.response.elsewhere?.introduced ?? 0,
    notes: check.response.notChecked?.length ?? 0,
  });
}

const sessions = [];
try {
  for (const budget of (process.env.BENCH_BUDGETS ?? "50,0").split(",").map(Number)) sessions.push(await open(budget));
  for (let round = 0; round < 2 * RUNS; round++) for (const session of sessions) await edit(session, round);
} finally {
  for (const session of sessions) await session.client.close();
}
for (const { budget, rows } of sessions) {
  console.log(
    `typedLintDependents ${budget} (${IMPORTERS} importers): ${rows.map((row) => `${row.ms} ms ${row.status} elsewhere ${row.elsewhere}`).join("; ")}`,
  );
  console.log(`  median ${median(rows.map((row) => row.ms))} ms (async edits ${median(rows.filter((_, i) => i % 2 === 0).map((row) => row.ms))} ms)`);
}
const [first, second] = sessions;
if (first && second) {
  const ratios = first.rows.map((row, index) => row.ms / (second.rows[index]?.ms ?? Number.NaN));
  console.log(
    `typedLintDependents ${first.budget} / ${second.budget}, each round: ${ratios.map((ratio) => ratio.toFixed(2)).join(", ")}; median ${median(ratios).toFixed(2)}`,
  );
}
