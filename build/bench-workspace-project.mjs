// A generated workspace of 9 packages for bench:latency (BENCH_PROJECT=workspace9): npm workspaces, no root tsconfig,
// one tsconfig per package (each is a program Signalint checks, as a workspace without a root config is), modules
// importing their package's hub, a few type errors. A cold run is `tsc --noEmit -p` of every package, one after another.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Packages of the workspace. */
export const WORKSPACE_PACKAGES = 9;

const HUB =
  "export interface Record {\n  id: number;\n  name: string;\n}\n\nexport function describe(record: Record): string {\n  return `${record.id}:${record.name}`;\n}\n";

const TSCONFIG = `${JSON.stringify(
  {
    compilerOptions: { strict: true, noEmit: true, target: "ES2022", module: "ESNext", moduleResolution: "bundler", skipLibCheck: true, types: [] },
    include: ["src"],
  },
  null,
  2,
)}\n`;

/** One module: the hub's types (every other module), its predecessor, 20 helpers, an error now and then. */
function workspaceModule(i) {
  const lines = [];
  if (i % 2 === 0) lines.push('import { describe, type Record } from "./hub";');
  if (i > 0) lines.push(`import { value${i - 1} } from "./m${i - 1}";`);
  lines.push("", `export const value${i}: number = ${i > 0 ? `value${i - 1} + 1` : "0"};`);
  if (i % 2 === 0) lines.push(`export const record${i}: Record = { id: value${i}, name: "m${i}" };`, `export const text${i}: string = describe(record${i});`);
  for (let k = 0; k < 20; k++) lines.push(`export function helper${i}_${k}(x: number): number {`, `  return x * ${k} + value${i};`, "}");
  if (i % 97 === 7) lines.push(`export const broken${i}: string = value${i};`);
  return `${lines.join("\n")}\n`;
}

/**
 * Write the workspace into `dir` (node_modules is the caller's): `files` modules in all, spread over the packages.
 * Returns the paths the bench checks and edits.
 */
export function generateWorkspaceProject(dir, options = {}) {
  const perPackage = Math.max(3, Math.floor((options.files ?? 1000) / WORKSPACE_PACKAGES));
  writeFileSync(join(dir, "package.json"), '{ "name": "latency-bench-workspace", "private": true, "type": "module", "workspaces": ["packages/*"] }\n');
  for (let p = 0; p < WORKSPACE_PACKAGES; p++) {
    const pkg = join(dir, "packages", `p${p}`);
    mkdirSync(join(pkg, "src"), { recursive: true });
    writeFileSync(join(pkg, "package.json"), `{ "name": "p${p}", "private": true, "type": "module" }\n`);
    writeFileSync(join(pkg, "tsconfig.json"), TSCONFIG);
    writeFileSync(join(pkg, "src", "hub.ts"), HUB);
    for (let i = 0; i < perPackage; i++) writeFileSync(join(pkg, "src", `m${i}.ts`), workspaceModule(i));
  }
  const last = `packages/p${WORKSPACE_PACKAGES - 1}/src`;
  return {
    leaf: `${last}/m${perPackage - 1}.ts`,
    hub: "packages/p0/src/hub.ts",
    first: "packages/p0/src/m0.ts",
    some: `${last}/m1.ts`,
    another: `${last}/m${perPackage - 2}.ts`,
  };
}

/** A cold `tsc --noEmit -p` of every package's tsconfig in turn: the summed time and every error's `file:line:code`. */
export function coldWorkspace(dir, tsc) {
  let ms = 0;
  let stdout = "";
  for (let p = 0; p < WORKSPACE_PACKAGES; p++) {
    const started = performance.now();
    const result = spawnSync(process.execPath, [tsc, "--noEmit", "--pretty", "false", "-p", `packages/p${p}/tsconfig.json`], { cwd: dir, encoding: "utf8" });
    ms += performance.now() - started;
    stdout += result.stdout;
  }
  return { ms, stdout };
}
