// An edit's check of a linter's own configuration. A check of named files lints those files only; when one of them is
// what a linter reads as its configuration (an .eslintrc.js, a .prettierrc.js eslint-plugin-prettier reads, a
// biome.json, a module such a config imports), every file that linter lints may answer differently now, and the check
// did not lint them: never a clean answer, and the next step says to check the project (tsc's configs are not here:
// its warm programs re-check what a tsconfig edit changes, and report it as errors elsewhere).
import { basename, join } from "node:path";
import type { EngineName } from "../../core/contracts.ts";
import { ifMissing } from "../../core/errors.ts";
import { ENGINES } from "../../engines/registry.ts";
import type { Runtime } from "../../runtime/types.ts";
import { referencedFiles } from "../freshness/config-inputs.ts";
import type { EngineReport, Unlinted } from "../job/engine-job.ts";

/** Files a config references read at most while looking for the named ones (configs import a few modules). */
const MAX_READS = 200;

/** The files the root's configs of `configFiles` pull in (extends, relative imports), transitively; absolute paths. */
async function referencedByRootConfigs(runtime: Runtime, root: string, configFiles: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  const queue = configFiles.map((name) => join(root, name));
  for (let read = 0; read < queue.length && read < MAX_READS; read++) {
    const path = queue[read] as string;
    const text = await runtime.readText(path).catch(ifMissing(null));
    if (text === null) continue;
    for (const referenced of referencedFiles(path, text))
      if (!found.has(referenced)) {
        found.add(referenced);
        queue.push(referenced);
      }
  }
  return found;
}

/**
 * For a check of named paths (not the whole project): each linter that ran whose configuration is among the named
 * files — a file of its config names anywhere, or one its root configs import or extend — with the files it is.
 */
export async function editedLinterConfigs(
  job: { runtime: Runtime; root: string; paths: readonly string[] },
  reports: readonly [EngineName, EngineReport][],
): Promise<Unlinted[]> {
  if (job.paths.includes(".")) return [];
  const notes: Unlinted[] = [];
  for (const [engine, report] of reports) {
    const configFiles = ENGINES[engine].linter?.configFiles;
    if (engine === "tsc" || !configFiles || report.status.status === "disabled") continue;
    const named = job.paths.filter((path) => configFiles.includes(basename(path)));
    const others = job.paths.filter((path) => !named.includes(path));
    if (others.length) {
      const referenced = await referencedByRootConfigs(job.runtime, job.root, configFiles);
      named.push(...others.filter((path) => referenced.has(join(job.root, path))));
    }
    if (!named.length) continue;
    notes.push({
      linter: `${engine} on every file its edited configuration governs`,
      reason: `not linted by ${engine} with the files it governs: ${named.length === 1 ? "it is" : "they are"} ${engine}'s configuration, and an edit of it may change what ${engine} finds in every file it lints (run check_project)`,
      files: named.map((path) => join(job.root, path)),
    });
  }
  return notes;
}
