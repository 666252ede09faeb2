// The projects the latency and sessions benches check, and their cold reference: a generated single-tsconfig
// TypeScript project (a hub, a chain of modules, a few type errors) or the project-references monorepo of
// bench-refs-project.mjs, each beside links to the engines installed here; `coldTsc` runs the project's own tsc
// (`--noEmit -p tsconfig.json`, or `-b` on a fresh copy for references) and returns its time and error keys.
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { generateRefsProject } from "./bench-refs-project.mjs";

export const ROOT = resolve(import.meta.dirname, "..");

/** The compilers the benches can run (BENCH_TS=5,7). */
export const TYPESCRIPTS = {
  5: ["TypeScript 5.9", join(ROOT, "node_modules", "typescript", "bin", "tsc")],
  7: ["TypeScript 7", join(ROOT, "node_modules", "typescript7", "bin", "tsc")],
};

/** package.json, the engine packages as an install has them (Signalint resolves packages, never node_modules/.bin). */
function projectShell(dir, tsc, name, tscOnly) {
  mkdirSync(join(dir, "node_modules"), { recursive: true });
  symlinkSync(resolve(tsc, "..", ".."), join(dir, "node_modules", "typescript"));
  symlinkSync(join(ROOT, "node_modules", "oxlint"), join(dir, "node_modules", "oxlint"));
  writeFileSync(join(dir, "package.json"), `{ "name": "${name}", "private": true, "type": "module" }\n`);
  // tscOnly measures tsc alone (no linter in the project).
  if (tscOnly) writeFileSync(join(dir, "signalint.config.json"), '{ "engines": { "oxlint": false } }\n');
}

/** The hub every other generated module imports its types from. */
export const HUB_SOURCE =
  "export interface Record {\n  id: number;\n  name: string;\n}\n\nexport function describe(record: Record): string {\n  return `${record.id}:${record.name}`;\n}\n";

/** Generated module `i`: the hub's types (every other module), its predecessor, 20 helpers, a type error every `errorEvery`. */
export function benchModule(i, errorEvery) {
  const lines = [];
  if (i % 2 === 0) lines.push('import { describe, type Record } from "./hub";');
  if (i > 0) lines.push(`import { value${i - 1} } from "./m${i - 1}";`);
  lines.push("", `export const value${i}: number = ${i > 0 ? `value${i - 1} + 1` : "0"};`);
  if (i % 2 === 0) lines.push(`export const record${i}: Record = { id: value${i}, name: "m${i}" };`, `export const text${i}: string = describe(record${i});`);
  for (let k = 0; k < 20; k++) lines.push(`export function helper${i}_${k}(x: number): number {`, `  return x * ${k} + value${i};`, "}");
  if (i % errorEvery === 7) lines.push(`export const broken${i}: string = value${i};`);
  return `${lines.join("\n")}\n`;
}

/**
 * `files` modules: half import the hub's types, each imports its predecessor, a few have type errors. Returns the
 * files the benches check and edit (leaves: modules nothing imports, or only a later module does).
 */
export function generateFlat(dir, { tsc, files, tscOnly = false }) {
  projectShell(dir, tsc, "latency-bench", tscOnly);
  mkdirSync(join(dir, "src"), { recursive: true });
  const compilerOptions = { strict: true, noEmit: true, target: "ES2022", module: "ESNext", moduleResolution: "bundler", skipLibCheck: true };
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, include: ["src"] }, null, 2));
  writeFileSync(join(dir, "src", "hub.ts"), HUB_SOURCE);
  for (let i = 0; i < files; i++) writeFileSync(join(dir, "src", `m${i}.ts`), benchModule(i, 250));
  const module = (i) => `src/m${Math.max(0, files - 1 - i)}.ts`;
  return { leaf: module(0), another: module(1), third: module(2), hub: "src/hub.ts", first: "src/m0.ts", some: `src/m${Math.min(999, files - 1)}.ts` };
}

/** The references monorepo (`files` modules over its packages) beside the same engine links; the files as generateFlat's. */
export function generateRefs(dir, { tsc, files, tscOnly = false }) {
  projectShell(dir, tsc, "latency-bench-refs", tscOnly);
  const { leaf, hub, perPackage } = generateRefsProject(dir, { files });
  const module = (i) => leaf.replace(/m\d+\.ts$/, `m${perPackage - 1 - i}.ts`);
  return { leaf, another: module(1), third: module(2), hub, first: "packages/core/src/m0.ts", some: leaf.replace(/m\d+\.ts$/, "m1.ts") };
}

/** Error keys (`file:line:TScode`, sorted) of tsc's `--pretty false` output. */
export function tscErrorKeys(stdout) {
  return stdout
    .split("\n")
    .map((line) => /^(.+)\((\d+),\d+\): error (TS\d+)/.exec(line))
    .filter(Boolean)
    .map((m) => `${m[1]}:${m[2]}:${m[3]}`)
    .sort();
}

/**
 * A cold run of the project's own tsc: `--noEmit -p tsconfig.json`, or for references a `tsc -b` on a fresh copy (no
 * build info or output of an earlier run is used; directories named in `skip` are left out of the copy).
 */
export function coldTsc(dir, tsc, { refs = false, skip = [] } = {}) {
  if (!refs) {
    const started = performance.now();
    const result = spawnSync(process.execPath, [tsc, "--noEmit", "--pretty", "false", "-p", "tsconfig.json"], { cwd: dir, encoding: "utf8" });
    return { ms: performance.now() - started, keys: tscErrorKeys(result.stdout) };
  }
  const copy = mkdtempSync(join(tmpdir(), "signalint-latency-cold-"));
  cpSync(dir, copy, { recursive: true, filter: (source) => !skip.some((name) => source.endsWith(name)) });
  const started = performance.now();
  const result = spawnSync(process.execPath, [tsc, "-b", "--pretty", "false"], { cwd: copy, encoding: "utf8" });
  const ms = performance.now() - started;
  rmSync(copy, { recursive: true, force: true });
  return { ms, keys: tscErrorKeys(result.stdout) };
}

/** The middle value (the upper one of an even count). */
export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** The tsc keys (`file:line:TScode`, sorted) of a check answer's issues, each engine report of a merged issue counted. */
export function tscKeysOf(issues) {
  return issues
    .flatMap((issue) => [issue, ...(issue.alsoReportedBy ?? []).map((other) => ({ ...issue, ...other }))])
    .filter((issue) => issue.engine === "tsc")
    .map((issue) => `${issue.file}:${issue.line}:${issue.rule}`)
    .sort();
}

/** Every issue of an MCP check response: its remaining issues and each cluster's, through get_issue_detail. */
export async function mcpIssues(client, response) {
  const issues = [...(response.remainingIssues ?? [])];
  for (const cluster of response.clusters)
    issues.push(...(await client.callTool({ name: "get_issue_detail", arguments: { clusterId: cluster.clusterId } })).structuredContent.issues);
  return issues;
}

/** Resident memory (MB) of a process and of its descendants (warm TypeScript hosts and their tsgo), Linux only. */
export function processTreeMemory(pid) {
  const rss = (p) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, "utf8"))?.[1] ?? 0) / 1024;
  const children = (p) =>
    spawnSync("pgrep", ["-P", String(p)], { encoding: "utf8" })
      .stdout.split("\n")
      .filter(Boolean);
  const tree = (p) => [p, ...children(p).flatMap(tree)];
  try {
    return {
      server: rss(pid),
      hosts: children(pid)
        .flatMap(tree)
        .reduce((sum, p) => sum + rss(p), 0),
    };
  } catch {
    return null;
  }
}
