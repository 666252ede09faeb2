// A generated workspace of 9 packages for bench:latency (BENCH_PROJECT=workspace9): npm workspaces, no root tsconfig,
// one tsconfig per package (each is a program Signalint checks, as a workspace without a root config is), modules
// importing their package's hub, a few type errors. A cold run is `tsc --noEmit -p` of every package, one after another.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { benchModule, HUB_SOURCE } from "./bench-projects.mjs";

/** Packages of the workspace. */
export const WORKSPACE_PACKAGES = 9;

const TSCONFIG = `${JSON.stringify(
  {
    compilerOptions: { strict: true, noEmit: true, target: "ES2022", module: "ESNext", moduleResolution: "bundler", skipLibCheck: true, types: [] },
    include: ["src"],
  },
  null,
  2,
)}\n`;

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
    writeFileSync(join(pkg, "src", "hub.ts"), HUB_SOURCE);
    for (let i = 0; i < perPackage; i++) writeFileSync(join(pkg, "src", `m${i}.ts`), benchModule(i, 97));
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
