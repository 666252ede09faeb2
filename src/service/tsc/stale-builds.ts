// A command-line tsc keeps its build info (and, for generated configs, its declarations) in the cache directory, and
// builds on them as `tsc --incremental` / `tsc -b` do. After a file those builds read is deleted, that is stale: a
// file re-exporting it (`export * from './gone'`) keeps its text, so its importers keep their answers, and a deleted
// source's declaration stays in the outputs for its dependents to resolve. A cold run reports the importers' errors.
import { dirname, join, relative, resolve, sep } from "node:path";
import { ifMissing } from "../../core/errors.ts";
import type { Runtime } from "../../runtime/types.ts";
import { buildInfoFiles } from "../../typescript/build-info-files.ts";

/** A library file TypeScript 7 names without a path (bundled with the compiler, not a file on disk). */
const BUNDLED_LIB = /^lib\.[\w.-]+\.d\.ts$/;

/**
 * Before a command-line run whose state lives in `workDir` (its build info files at the top, generated outputs below,
 * or a TypeScript 5/6 solution's outputs under `overlay/`, each at its own path in the tree: see engines/tsc-overlay.ts):
 * when any build info there lists a file that no longer exists, the whole directory goes and the run is cold. True
 * when it went. A build info that cannot be read is left to the compiler (it rebuilds what it cannot use).
 */
export async function forgetBuildsAfterDeletions(runtime: Runtime, workDir: string): Promise<boolean> {
  const overlay = join(workDir, "overlay");
  // Each build info with the directory its file names are relative to: its own, or for the overlay's, the one in the
  // tree it stands for.
  const found: [string, string][] = [];
  for (const entry of await runtime.readDir(workDir).catch(ifMissing([]))) {
    if (entry.isFile && entry.name.endsWith(".tsbuildinfo")) found.push([join(workDir, entry.name), workDir]);
  }
  for (const path of await buildInfosUnder(runtime, overlay)) found.push([path, dirname(treePath(overlay, path))]);
  for (const [path, base] of found) {
    const names = (buildInfoFiles(await runtime.readText(path).catch(ifMissing(""))) ?? []).filter((name) => !BUNDLED_LIB.test(name));
    // Stat'ed together: a TypeScript 7 solution's build info lists thousands of files, on every command-line check.
    const present = await Promise.all(names.map((name) => runtime.stat(resolve(base, name))));
    if (present.every(Boolean)) continue;
    await runtime.removeFile(workDir);
    return true;
  }
  return false;
}

/** Every .tsbuildinfo file under `dir` (the overlay: symlinks are never made there, so none is followed). */
async function buildInfosUnder(runtime: Runtime, dir: string): Promise<string[]> {
  const found: string[] = [];
  const entries = await runtime.readDir(dir).catch(ifMissing([]));
  const below = await Promise.all(entries.filter((entry) => entry.isDirectory).map((entry) => buildInfosUnder(runtime, join(dir, entry.name))));
  for (const entry of entries) if (entry.isFile && entry.name.endsWith(".tsbuildinfo")) found.push(join(dir, entry.name));
  return found.concat(...below);
}

/** The path in the tree an overlay file stands for: the overlay's `moved` undone (`C/x` back to `C:/x` on Windows). */
function treePath(overlay: string, path: string): string {
  const rest = relative(overlay, path);
  return sep === "/" ? `/${rest}` : rest.replace(/^([A-Za-z])(?=\\)/, "$1:");
}
