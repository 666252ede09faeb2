// node build/profile-solution.mjs --root DIR --spec FILE [--config tsconfig.json] [--steps 2,3,8] [--no-compare]: where a warm
// solution's time goes on a real repository (issue 36 item 3). On a copy of DIR (node_modules linked), Signalint's
// warm `tsc -b` (src/typescript/warm-solution.ts, bundled from src/ and run in this process with the project's own
// TypeScript) checks the config once cold, then after each edit step of a bench:real spec: the step's total, each
// project's time, reuse and re-checked file count, and TypeScript's own phase timers over the step (the measures
// `--extendedDiagnostics` prints: I/O, parse, resolve, program, bind, check, emit of declarations). Every answer is
// compared with a fresh WarmTsSolution's (a cold build of the same tree, same code): the diagnostics must be equal
// (`--no-compare` skips that, for timing code already compared). `--steps`: the indices of the spec's steps to run.
// The copy is removed at the end; nothing is written into DIR.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { loadavg, tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { build } from "esbuild";

const { values } = parseArgs({
  options: { root: { type: "string" }, spec: { type: "string" }, config: { type: "string" }, steps: { type: "string" }, "no-compare": { type: "boolean" } },
});
if (!values.root || !values.spec) {
  console.error("usage: node build/profile-solution.mjs --root DIR --spec FILE [--config tsconfig.json]");
  process.exit(2);
}
const ROOT = resolve(import.meta.dirname, "..");
const temp = mkdtempSync(join(tmpdir(), "signalint-profile-"));
process.on("exit", () => rmSync(temp, { recursive: true, force: true }));
const codeFile = join(temp, "warm-solution.mjs");
await build({
  stdin: { contents: 'export { WarmTsSolution } from "./src/typescript/warm-solution.ts";', resolveDir: ROOT, loader: "ts", sourcefile: "profile.ts" },
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  outfile: codeFile,
  external: ["typescript"],
  logLevel: "error",
});
const { WarmTsSolution } = await import(pathToFileURL(codeFile).href);

const spec = JSON.parse(readFileSync(values.spec, "utf8"));
const source = resolve(values.root);
const dir = join(temp, spec.name ?? "project");
mkdirSync(dir);
for (const name of readdirSync(source).filter((name) => name !== "node_modules")) {
  const copy = spawnSync("cp", ["-a", join(source, name), join(dir, name)], { encoding: "utf8" });
  if (copy.status !== 0) throw new Error(`cp -a ${name} failed: ${copy.stderr}`);
}
symlinkSync(realpathSync(join(source, "node_modules")), join(dir, "node_modules"));
const ts = createRequire(join(dir, "package.json"))("typescript");
const config = join(dir, values.config ?? "tsconfig.json");
process.chdir(dir);

/** TypeScript's phase timers (what --extendedDiagnostics prints), reset per step; null when this build lacks them. */
const perf = ts.performance;
const phases = () => {
  const out = {};
  perf?.forEachMeasure?.((name, ms) => (out[name] = Math.round(ms)));
  return out;
};
const resetPerf = () => {
  if (!perf?.enable) return;
  perf.disable();
  perf.enable();
};

const key = (d) =>
  `${d.file ? relative(dir, d.file.fileName) : ""}:${d.start ?? ""} TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, "\n").slice(0, 80)}`;
const keys = (diagnostics) => diagnostics.map(key).sort();
let mismatches = 0;
const rows = [];

function timed(solution, label) {
  resetPerf();
  const started = performance.now();
  const result = solution.check(null);
  const ms = performance.now() - started;
  const measured = phases();
  if (!result) throw new Error("the warm solution does not serve this TypeScript");
  const fresh = values["no-compare"] ? null : new WarmTsSolution(ts, config).check(null);
  const equal = fresh ? JSON.stringify(keys(result.diagnostics)) === JSON.stringify(keys(fresh.diagnostics)) : null;
  if (equal === false) mismatches++;
  rows.push({ label, ms, info: result.info, phases: measured, errors: result.diagnostics.length, equal });
}

const solution = new WarmTsSolution(ts, config);
timed(solution, "first check (cold)");
timed(solution, "nothing changed");
const saved = new Map();
const only = values.steps ? new Set(values.steps.split(",").map(Number)) : null;
for (const [index, step] of spec.steps.entries()) {
  if (!step.edits && !step.delete && !step.restore) continue;
  if (only && !only.has(index)) continue;
  for (const { file, search, replace } of step.edits ?? []) {
    const path = join(dir, file);
    const text = readFileSync(path, "utf8");
    if (!saved.has(file)) saved.set(file, text);
    if (!text.includes(search)) throw new Error(`${file}: ${JSON.stringify(search)} not found`);
    writeFileSync(path, text.replace(search, replace));
  }
  if (step.delete) {
    if (!saved.has(step.delete)) saved.set(step.delete, readFileSync(join(dir, step.delete), "utf8"));
    rmSync(join(dir, step.delete));
  }
  if (step.restore) writeFileSync(join(dir, step.restore), saved.get(step.restore));
  timed(solution, step.label);
}

console.log(`profile-solution on a copy of ${source} (${relative(dir, config)}, TypeScript ${ts.version}); load average ${loadavg()[0].toFixed(2)}\n`);
const names = ["I/O Read", "Parse", "ResolveModule", "ResolveTypeReference", "Program", "Bind", "Check", "Emit", "printTime", "Declaration emit"];
console.log(`| step | total (ms) | errors | equal to a fresh build | per project: reuse, re-checked files, ms | ${names.join(" | ")} |`);
console.log(`|---|---:|---:|---|---|${names.map(() => "---:").join("|")}|`);
for (const row of rows) {
  const projects = row.info.projects
    .filter((p) => p.reuse !== "config-only")
    .map((p) => `${relative(dir, p.config)} ${p.reuse}${p.reuse === "reused" ? "" : ` ${p.changedFiles}`} ${Math.round(p.ms)}`)
    .join("; ");
  console.log(
    `| ${row.label} | ${Math.round(row.ms)} | ${row.errors} | ${row.equal === null ? "not compared" : row.equal ? "yes" : "**NO**"} | ${projects} | ${names.map((n) => row.phases[n] ?? "").join(" | ")} |`,
  );
}
if (process.env.PROFILE_PHASES) for (const row of rows) console.log(row.label, JSON.stringify(row.phases));
if (mismatches) {
  console.error(`${mismatches} step(s) differ from a fresh build`);
  process.exit(1);
}
