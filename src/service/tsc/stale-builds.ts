// A command-line tsc keeps its build info (and, for generated configs, its declarations) in the cache directory, and
// builds on them as `tsc --incremental` / `tsc -b` do. After a file those builds read is deleted, that is stale: a
// file re-exporting it (`export * from './gone'`) keeps its text, so its importers keep their answers, and a deleted
// source's declaration stays in the outputs for its dependents to resolve. A cold run reports the importers' errors.
import { dirname, join, resolve } from "node:path";
import { ifMissing } from "../../core/errors.ts";
import type { Runtime } from "../../runtime/types.ts";
import { buildInfoFiles } from "../../typescript/build-info-files.ts";

/** A library file TypeScript 7 names without a path (bundled with the compiler, not a file on disk). */
const BUNDLED_LIB = /^lib\.[\w.-]+\.d\.ts$/;

/**
 * Before a command-line run whose state lives in `workDir` (its build info files at the top, generated outputs below):
 * when any build info there lists a file that no longer exists, the whole directory goes and the run is cold. True
 * when it went. A build info that cannot be read is left to the compiler (it rebuilds what it cannot use).
 */
export async function forgetBuildsAfterDeletions(runtime: Runtime, workDir: string): Promise<boolean> {
  const entries = await runtime.readDir(workDir).catch(ifMissing([]));
  for (const entry of entries) {
    if (!entry.isFile || !entry.name.endsWith(".tsbuildinfo")) continue;
    const path = join(workDir, entry.name);
    const names = (buildInfoFiles(await runtime.readText(path).catch(ifMissing(""))) ?? []).filter((name) => !BUNDLED_LIB.test(name));
    // Stat'ed together: a TypeScript 7 solution's build info lists thousands of files, on every command-line check.
    const found = await Promise.all(names.map((name) => runtime.stat(resolve(dirname(path), name))));
    if (found.every(Boolean)) continue;
    await runtime.removeFile(workDir);
    return true;
  }
  return false;
}
