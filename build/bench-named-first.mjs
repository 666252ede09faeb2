// node build/bench-named-first.mjs: issue 36 item 2 on the generated 1,000-file project (bench-projects.mjs) — after a
// hub edit that breaks every importer, how long check_files takes to answer the hub itself (pendingAfterMs 0: the
// named file's answer, the rest pending), how long the same call again then takes (it waits for the re-check the first
// one left running), and how long one check_files takes to answer whole (pendingAfterMs large), each in its own MCP
// server on its own copy of the project. BENCH_FILES (1000), BENCH_RUNS (5 edits each way). Needs `npm run build`.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { generateFlat, TYPESCRIPTS } from "./bench-projects.mjs";
import { coldTsc, env, mcpCheck, median, openSession, tempDir } from "./bench-harness.mjs";

const FILES = Number(process.env.BENCH_FILES ?? 1000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const tsc = TYPESCRIPTS[5][1];

/** A fresh generated project whose checks wait `pendingAfterMs` for the whole re-check. */
function project(pendingAfterMs) {
  const dir = tempDir("named-first-");
  const layout = generateFlat(dir, { tsc, files: FILES, tscOnly: true });
  writeFileSync(join(dir, "signalint.config.json"), JSON.stringify({ engines: { oxlint: false }, pendingAfterMs }));
  return { dir, hub: layout.hub };
}

/** The hub's `id` retyped (every importer that builds a record breaks) and back, alternately. */
function toggleHub(dir, hub, round) {
  const [from, to] = round % 2 === 0 ? ["  id: number;", "  id: string;"] : ["  id: string;", "  id: number;"];
  const path = join(dir, hub);
  writeFileSync(path, readFileSync(path, "utf8").replace(from, to));
}

/** RUNS hub edits in one server: each edit's check_files, and (pending ones) the same call again. */
async function session(pendingAfterMs) {
  const { dir, hub } = project(pendingAfterMs);
  const { client } = await openSession(dir, env({ SIGNALINT_DAEMON: "0" }), "bench-named-first");
  const rows = [];
  try {
    await mcpCheck(client, "check_project", {});
    for (let round = 0; round < RUNS; round++) {
      toggleHub(dir, hub, round);
      const first = await mcpCheck(client, "check_files", { files: [hub] });
      const row = { ms: first.ms, status: first.status, pending: first.response.pending?.files, mode: first.mode };
      if (first.response.pending) {
        const again = await mcpCheck(client, "check_files", { files: [hub] });
        Object.assign(row, { againMs: again.ms, againStatus: again.status, againMode: again.mode, elsewhere: again.response.elsewhere?.introduced });
      }
      rows.push(row);
    }
  } finally {
    await client.close();
  }
  return { dir, rows };
}

const named = await session(0);
const whole = await session(3_600_000);
const cold = [];
for (let i = 0; i < 3; i++) cold.push(coldTsc(named.dir, { tsc }).ms);
const fmt = (ms) => `${ms.toFixed(0)} ms`;
console.log(`${FILES}-file project, TypeScript 5.9; cold tsc --noEmit median ${fmt(median(cold))}`);
console.log("| hub edit | named file first (pendingAfterMs 0) | the same call again | whole at once (pendingAfterMs large) |");
console.log("|---|---|---|---|");
for (let i = 0; i < RUNS; i++) {
  const n = named.rows[i];
  const w = whole.rows[i];
  console.log(
    `| ${i + 1} | ${fmt(n.ms)} (${n.status}, ${n.mode}, pending ${n.pending ?? "-"}) | ${n.againMs !== undefined ? `${fmt(n.againMs)} (${n.againStatus}, ${n.againMode}, elsewhere ${n.elsewhere})` : "-"} | ${fmt(w.ms)} (${w.status}, ${w.mode}) |`,
  );
}
const med = (rows, key) => median(rows.map((row) => row[key]).filter((value) => value !== undefined));
console.log(
  `medians: named ${fmt(med(named.rows, "ms"))}, again ${fmt(med(named.rows, "againMs"))}, whole ${fmt(med(whole.rows, "ms"))}; ratios to cold: ${(med(named.rows, "ms") / median(cold)).toFixed(3)} / ${(med(whole.rows, "ms") / median(cold)).toFixed(3)}`,
);
process.exit(0);
