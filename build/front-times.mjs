// node build/front-times.mjs [RUNS] [BUNDLE] [COMPARE]: spawn → initialize answered → tools/list answered, as an MCP client
// starts Signalint, for the bundle on Node, the bundle on Deno and the standalone binary (each when built), median of
// RUNS (default 10) fresh processes, beside `node -e ""` (spawn to exit: the floor no Node program beats) and the
// ratio to it. The machine's load average is printed: on a loaded machine the ratios say more than the milliseconds.
// BUNDLE: another build's .mjs; COMPARE: one more .mjs timed beside (an earlier build). Rounds are interleaved.
// Nothing waits for a daemon: SIGNALINT_DAEMON=0.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { launchTimes } from "./jsonrpc-stdio.mjs";

const RUNS = Number(process.argv[2] ?? 10);
const ROOT = resolve(import.meta.dirname, "..");
const BUNDLE = resolve(process.argv[3] ?? join(ROOT, "dist", "signalint-mcp.mjs"));
const COMPARE = process.argv[4] && resolve(process.argv[4]); // a second .mjs (an earlier build) timed in the same rounds
const HOST = `${process.platform === "win32" ? "win" : process.platform}-${process.arch}`;
const BINARY = join(ROOT, "dist", "bin", `signalint-mcp-${HOST}`);
const DENO = join(ROOT, "dist", "deno", "package", process.platform === "win32" ? "deno.exe" : "deno");
const CWD = join(ROOT, "fixtures", "clean");
const SINGLE = join(ROOT, "dist", "single", "signalint-mcp.mjs");

const FORMS = [
  ["node bundle", process.execPath, [BUNDLE]],
  ["node bundle, SIGNALINT_FRONT=0", process.execPath, [BUNDLE], { SIGNALINT_FRONT: "0" }],
  ["deno run bundle", DENO, ["run", "--allow-read", "--allow-write", "--allow-run", "--allow-env", "--allow-sys", "--allow-net", BUNDLE]],
  [
    "deno run one-file bundle (the release asset)",
    DENO,
    ["run", "--allow-read", "--allow-write", "--allow-run", "--allow-env", "--allow-sys", "--allow-net", SINGLE],
  ],
  ["binary", BINARY, []],
  ...(COMPARE ? [[`node ${COMPARE}`, process.execPath, [COMPARE]]] : []),
];

/** ms from spawn to exit of `node -e ""`. */
function floor() {
  return new Promise((done, fail) => {
    const start = performance.now();
    const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
    child.on("error", fail);
    child.on("exit", () => done(performance.now() - start));
  });
}

/** ms from spawn to the initialize answer and to the tools/list answer, with a private state directory. */
function session(command, args, state, extra = {}) {
  const env = { ...process.env, SIGNALINT_STATE_DIR: state, SIGNALINT_DAEMON: "0", SIGNALINT_PREWARM_DELAY_MS: "off", ...extra };
  return launchTimes(command, args, { cwd: CWD, env });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const state = mkdtempSync(join(tmpdir(), "signalint-front-times-"));
try {
  const before = loadavg()[0];
  // Round-robin: run i of every form (and of the floor) back to back, so a change of load hits them alike.
  const forms = FORMS.filter(([, command]) => existsSync(command));
  const floors = [];
  const times = forms.map(() => []);
  for (let run = 0; run < RUNS; run++) {
    floors.push(await floor());
    for (const [index, [, command, args, extra]] of forms.entries()) times[index].push(await session(command, args, state, extra));
  }
  const base = median(floors);
  const rows = FORMS.map(([label, command]) => {
    const index = forms.findIndex((form) => form[1] === command && form[0] === label);
    if (index < 0) return `| ${label} | not built | | |`;
    const initialize = median(times[index].map((each) => each.initialize));
    const toolsList = median(times[index].map((each) => each.toolsList));
    return `| ${label} | ${Math.round(initialize)} ms | ${Math.round(toolsList)} ms | ${(toolsList / base).toFixed(2)} |`;
  });
  console.log(`median of ${RUNS}; load average ${before.toFixed(2)} before, ${loadavg()[0].toFixed(2)} after; \`node -e ""\` ${Math.round(base)} ms`);
  console.log(`| form | initialize | tools/list | tools/list ÷ node -e "" |\n|---|---:|---:|---:|`);
  for (const row of rows) console.log(row);
} finally {
  rmSync(state, { recursive: true, force: true });
}
