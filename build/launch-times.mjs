// Spawn → first answer for each way a client config or hook can launch Signalint (docs/benchmarks.md, launch forms).
// A temporary project installs the built bundle as npm lays a devDependency out; each form is started RUNS times and
// the median is printed: initialize answered, tools/list answered (MCP), and a hook call from spawn to exit.
// Usage: npm run build && node build/launch-times.mjs [RUNS] [BUNDLE] (BUNDLE: another build's .mjs, to compare)
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { launchTimes } from "./jsonrpc-stdio.mjs";

const RUNS = Number(process.argv[2] ?? 5);
const REPO = resolve(import.meta.dirname, "..");
const BUNDLE = resolve(process.argv[3] ?? join(REPO, "dist", "signalint-mcp.mjs"));
const root = mkdtempSync(join(tmpdir(), "signalint-launch-"));
const dir = join(root, "app");
const state = join(root, "state");

/** A small TypeScript project with signalint-mcp (this build) and typescript installed. */
function project() {
  mkdirSync(join(dir, "src"), { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "launch", private: true, devDependencies: { "signalint-mcp": "*" } }));
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, noEmit: true }, include: ["src"] }));
  writeFileSync(join(dir, "src", "a.ts"), "export const a: number = 1;\n");
  const pkg = join(dir, "node_modules", "signalint-mcp");
  mkdirSync(join(pkg, "dist"), { recursive: true });
  writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: "signalint-mcp", version: "0.0.0", bin: { "signalint-mcp": "dist/signalint-mcp.mjs" } }));
  copyFileSync(BUNDLE, join(pkg, "dist", "signalint-mcp.mjs"));
  // The chunks the entry loads beside it (an earlier one-file build has none).
  for (const chunk of readdirSync(dirname(BUNDLE)).filter((name) => /^signalint-mcp-.*\.mjs$/.test(name)))
    copyFileSync(join(dirname(BUNDLE), chunk), join(pkg, "dist", chunk));
  mkdirSync(join(dir, "node_modules", ".bin"));
  symlinkSync("../signalint-mcp/dist/signalint-mcp.mjs", join(dir, "node_modules", ".bin", "signalint-mcp"));
  symlinkSync(join(REPO, "node_modules", "typescript"), join(dir, "node_modules", "typescript"));
}

const FORMS = [
  ["npx -y signalint-mcp", "npx", ["-y", "signalint-mcp"]],
  ["node_modules/.bin/signalint-mcp", "node_modules/.bin/signalint-mcp", []],
  ["node node_modules/signalint-mcp/dist/signalint-mcp.mjs", "node", ["node_modules/signalint-mcp/dist/signalint-mcp.mjs"]],
];

const env = { ...process.env, SIGNALINT_STATE_DIR: state, SIGNALINT_PREWARM_DELAY_MS: "off", npm_config_update_notifier: "false" };
delete env.CI; // the daemon runs as on a developer's machine

/** ms from spawn to the initialize answer and to the tools/list answer. */
function session(command, args) {
  const init = { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "launch-times", version: "1" } };
  return launchTimes(command, args, { cwd: dir, env, init });
}

/** ms from spawn to exit of one hook call (the daemon warm). */
function hook(command, args) {
  const input = JSON.stringify({ hook_event_name: "PostToolUse", cwd: dir, tool_input: { file_path: join(dir, "src", "a.ts") } });
  const start = performance.now();
  const result = spawnSync(command, [...args, "hook"], { cwd: dir, env, input, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`hook exited ${result.status}: ${result.stderr}`);
  return performance.now() - start;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const stopDaemon = () => spawnSync("node", [join(dir, "node_modules/.bin/signalint-mcp"), "daemon", "stop"], { cwd: dir, env });

try {
  project();
  const rows = [];
  for (const [label, command, args] of FORMS) {
    stopDaemon();
    const cold = await session(command, args); // the first session starts the project's daemon
    const warm = [];
    for (let run = 0; run < RUNS; run++) warm.push(await session(command, args));
    hook(command, args); // the first hook checks a.ts once; later ones answer from the warm daemon
    const hooks = Array.from({ length: RUNS }, () => hook(command, args));
    rows.push({
      label,
      coldToolsList: cold.toolsList,
      initialize: median(warm.map((times) => times.initialize)),
      toolsList: median(warm.map((times) => times.toolsList)),
      hook: median(hooks),
    });
  }
  console.log(`| launch form | tools/list, no daemon yet | initialize | tools/list | hook after an edit |`);
  console.log(`|---|---|---|---|---|`);
  const ms = (value) => `${Math.round(value)} ms`;
  for (const row of rows) console.log(`| \`${row.label}\` | ${ms(row.coldToolsList)} | ${ms(row.initialize)} | ${ms(row.toolsList)} | ${ms(row.hook)} |`);
} finally {
  stopDaemon();
  rmSync(root, { recursive: true, force: true });
}
