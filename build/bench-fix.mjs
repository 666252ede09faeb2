// node build/bench-fix.mjs (npm run bench:fix): issue 35's target — the preview of every safe fix on a generated
// 1,000-file project with 200 fixable issues (ESLint `prefer-const` in 100 files, Biome's safe `noExtraBooleanCast` in
// 100 others) against the engines' own fixers run cold on a copy (`eslint --fix .` then `biome check --write .`), and
// the preview's payload against its diffs. The two alternate (cold, preview, cold, preview…), so a load that rises or
// falls during the run weighs on both alike; each pair's ratio is printed with the medians'. Every run's patched texts
// must equal the engines' own output (else exit 1); the project's tree must be unchanged by the preview. BENCH_FILES
// (1000), BENCH_RUNS (3 pairs). Needs `npm run build`.
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { env, fail, guardTree, mcpCheck, median, openSession, ROOT, runBench, tempDir } from "./bench-harness.mjs";

const FILES = Number(process.env.BENCH_FILES ?? 1000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const ESLINT = join(ROOT, "node_modules", "eslint", "bin", "eslint.js");
const BIOME = join(ROOT, "node_modules", "@biomejs", "biome", "bin", "biome");

/** Module `i`: a chain of plain functions; every 10th (from 0) has a `let` never reassigned, every 10th from 5 a `!!` cast. */
function moduleSource(i) {
  const lines = [];
  if (i > 0) lines.push(`import { value${i - 1} } from "./m${i - 1}.js";`, "");
  lines.push(`export const value${i} = ${i > 0 ? `value${i - 1} + 1` : "0"};`);
  for (let k = 0; k < 10; k++) lines.push(`export function helper${i}_${k}(x) {`, `  return x * ${k} + value${i};`, "}");
  if (i % 10 === 0) lines.push("export function counted(items) {", "  let total = items.length;", "  return total * 2;", "}");
  if (i % 10 === 5) lines.push("export function flag(x) {", "  return !!(x) ? 1 : 2;", "}");
  return `${lines.join("\n")}\n`;
}

/** The generated project: ESLint (flat config) and Biome (formatter and assist off: lint fixes only), both in its lint script. */
function generate(dir) {
  mkdirSync(join(dir, "src"), { recursive: true });
  mkdirSync(join(dir, "node_modules", "@biomejs"), { recursive: true });
  symlinkSync(join(ROOT, "node_modules", "eslint"), join(dir, "node_modules", "eslint"));
  symlinkSync(join(ROOT, "node_modules", "@biomejs", "biome"), join(dir, "node_modules", "@biomejs", "biome"));
  const pkg = { name: "bench-fix", private: true, type: "module", scripts: { lint: "eslint . && biome lint ." } };
  writeFileSync(join(dir, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
  writeFileSync(join(dir, "eslint.config.js"), 'export default [{ files: ["**/*.js"], rules: { "prefer-const": "error" } }];\n');
  const biome = { formatter: { enabled: false }, assist: { enabled: false }, linter: { enabled: true, rules: { recommended: true } } };
  writeFileSync(join(dir, "biome.json"), `${JSON.stringify(biome, null, 2)}\n`);
  for (let i = 0; i < FILES; i++) writeFileSync(join(dir, "src", `m${i}.js`), moduleSource(i));
}

/** Every source file's text (root-relative POSIX path → text). */
function sources(dir) {
  return Object.fromEntries(
    readdirSync(join(dir, "src"))
      .sort()
      .map((name) => [`src/${name}`, readFileSync(join(dir, "src", name), "utf8")]),
  );
}

/** `eslint --fix .` then `biome check --write .` on a fresh copy: their time together and the texts after. */
function coldFix(dir) {
  const copy = tempDir("fix-cold-");
  cpSync(dir, copy, { recursive: true, verbatimSymlinks: true });
  const runs = [
    [process.execPath, [ESLINT, "--fix", "."]],
    [BIOME, ["check", "--write", "."]],
  ].map(([command, args]) => {
    const started = performance.now();
    const run = spawnSync(command, args, { cwd: copy, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
    if (run.status === null || run.status > 1) fail(`${args.join(" ")} failed (exit ${run.status}): ${run.stderr.slice(0, 300)}`);
    return performance.now() - started;
  });
  return { ms: runs[0] + runs[1], eslintMs: runs[0], biomeMs: runs[1], texts: sources(copy) };
}

/** One preview of every safe fix in the files the check found fixable: its time, bytes, diffs and post-images. */
async function preview(client, files) {
  const started = performance.now();
  const result = await client.callTool({ name: "preview_diagnostic_fix", arguments: { files } }, undefined, { timeout: 3_600_000 });
  const ms = performance.now() - started;
  if (result.isError) throw new Error(`preview failed: ${result.content?.[0]?.text}`);
  const answer = result.structuredContent;
  await client.callTool({ name: "discard_diagnostic_fix", arguments: { transactionId: answer.transactionId } });
  return { ms, bytes: Buffer.byteLength(JSON.stringify(result)), valueBytes: Buffer.byteLength(JSON.stringify(answer)), answer };
}

/** A unified diff's post-image applied to `before` (whole-file hunks are not assumed: each hunk is placed by its header). */
function applyDiff(before, diff) {
  const lines = before.split("\n");
  const out = [];
  let at = 0;
  const body = diff.split("\n");
  for (let i = 0; i < body.length; i++) {
    const header = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@/.exec(body[i]);
    if (!header) continue;
    const start = Number(header[1]) - (header[2] === "0" ? 0 : 1);
    out.push(...lines.slice(at, start));
    at = start;
    for (i++; i < body.length && !body[i].startsWith("@@"); i++) {
      const line = body[i];
      if (line.startsWith("\\")) continue;
      if (line.startsWith("+")) out.push(line.slice(1));
      else if (line.startsWith("-")) at++;
      else if (line.startsWith(" ")) {
        out.push(line.slice(1));
        at++;
      }
    }
    i--;
  }
  out.push(...lines.slice(at));
  return out.join("\n");
}

await runBench(async () => {
  const dir = tempDir("fix-");
  generate(dir);
  guardTree(dir);
  const before = sources(dir);
  const cold = [];
  const { client } = await openSession(dir, env({ SIGNALINT_DAEMON: "0" }), "bench-fix");
  const loadStart = loadavg()[0];
  const previews = [];
  let checkMs = 0;
  try {
    const check = await mcpCheck(client, "check_project", {});
    checkMs = check.ms;
    // Every file with an issue, as an agent asks for every safe fix in them: Biome 2's JSON marks a safe fix of an
    // info-level diagnostic not at all (noExtraBooleanCast), which `biome check --write` still applies.
    const files = [...new Set(check.issues.map((issue) => issue.file))].sort();
    const fixable = check.issues.filter((issue) => issue.fixable && issue.fixKind !== "suggestion");
    const engines = [...new Set(check.issues.map((issue) => issue.engine))].join(", ");
    console.log(
      `${FILES} files; ${check.issues.length} issues (${engines}), ${fixable.length} marked safely fixable, in ${files.length} files; check_project ${check.ms.toFixed(0)} ms`,
    );
    if (files.length < FILES / 5) fail(`expected ${FILES / 5} files with issues, got ${files.length}`);
    for (let run = 0; run < RUNS; run++) {
      cold.push(coldFix(dir));
      previews.push(await preview(client, files));
    }
  } finally {
    await client.close();
  }
  const expected = cold[0].texts;
  for (const [index, { answer }] of previews.entries()) {
    const got = { ...before };
    for (const file of answer.files) got[file.file] = applyDiff(before[file.file], file.diff);
    const differing = Object.keys(expected).filter((file) => got[file] !== expected[file]);
    if (differing.length)
      fail(`preview ${index + 1}: ${differing.length} file(s) differ from eslint --fix + biome check --write, e.g. ${differing.slice(0, 3).join(", ")}`);
  }
  const coldMs = median(cold.map((run) => run.ms));
  const previewMs = median(previews.map((run) => run.ms));
  const diffBytes = previews[0].answer.files.reduce((sum, file) => sum + Buffer.byteLength(file.diff), 0);
  console.log(`load average ${loadStart.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end; Node ${process.version}`);
  console.log("| step | median (ms) | runs (ms) |");
  console.log("|---|---:|---|");
  console.log(
    `| \`eslint --fix .\` + \`biome check --write .\`, cold, on a copy | ${coldMs.toFixed(0)} | ${cold.map((run) => `${run.eslintMs.toFixed(0)} + ${run.biomeMs.toFixed(0)}`).join(", ")} |`,
  );
  console.log(`| check_project (first, not in the ratio) | ${checkMs.toFixed(0)} | |`);
  console.log(`| preview_diagnostic_fix of every safe fix | ${previewMs.toFixed(0)} | ${previews.map((run) => run.ms.toFixed(0)).join(", ")} |`);
  const pairs = previews.map((run, index) => run.ms / cold[index].ms);
  console.log(
    `ratio preview / cold fixers: each pair (cold then preview) ${pairs.map((ratio) => ratio.toFixed(3)).join(", ")}; their median ${median(pairs).toFixed(3)}; the medians' ${(previewMs / coldMs).toFixed(3)} (target ≤ 0.30)`,
  );
  const { bytes, valueBytes, answer } = previews[0];
  const over = valueBytes - diffBytes;
  console.log(
    `payload: the value (structuredContent) ${valueBytes} B for ${answer.files.length} files; the diffs ${diffBytes} B; over the diffs ${over} B (target ≤ 1024 B), ${(over / answer.files.length).toFixed(0)} B per file; the CallToolResult in the default payload mode (both: the JSON text too) ${bytes} B`,
  );
  console.log(`every preview equal to the engines' own fixers: ${previews.length} of ${previews.length} compared`);
});
