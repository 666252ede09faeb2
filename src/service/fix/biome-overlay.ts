// Biome's fixes of many files in one process (issue 35's speed): Biome reads one text on stdin per process, and a
// process per file cost 20 s for 200 files on the fix bench (a node wrapper, `ldd` and Biome's start each time). Here
// Biome fixes private copies in place, in an overlay of the project in Signalint's cache directory: the directories on
// the asked files' paths are real, each asked file is a real file holding the plan's text, and every other entry is a
// symbolic link to the project's own — so Biome sees what it sees in the project (its configs and their `extends`,
// ignore files, node_modules, the other sources its project rules scan) at the same relative paths. Biome writes only
// the files it is given, and it is given only the overlay's real files; the overlay is removed after (its links are
// removed, never followed). Where links cannot be made (Windows without the right), the caller falls back to stdin.
import { join, relative } from "node:path";
import { FsError } from "../../core/errors.ts";
import { biomeFixFilesArgs } from "../../engines/biome.ts";
import { ENGINE_OUTPUT_LIMIT, excerpt, isRecord, jsonReportOf, type ResolvedEngine } from "../../engines/types.ts";
import { EngineEditError, type EditContext } from "./engine-edits.ts";

/** Overlays made by this process so far (each names its own directory). */
let overlays = 0;

/** The parent of a root-relative POSIX path ("" for a top-level entry). */
function parentOf(file: string): string {
  const at = file.lastIndexOf("/");
  return at < 0 ? "" : file.slice(0, at);
}

/**
 * Build the overlay of `root` at `overlay` for `texts` (root-relative POSIX path → text): false when a link could not
 * be made (nothing to fix through it then; the caller removes the overlay).
 */
async function buildOverlay(context: EditContext, root: string, overlay: string, texts: ReadonlyMap<string, string>): Promise<boolean> {
  const { runtime } = context;
  const dirs = new Set<string>([""]);
  for (const file of texts.keys()) for (let dir = parentOf(file); dir !== ""; dir = parentOf(dir)) dirs.add(dir);
  for (const dir of [...dirs].sort()) {
    await runtime.mkdirp(join(overlay, dir));
    for (const entry of await runtime.readDir(join(root, dir))) {
      const path = dir === "" ? entry.name : `${dir}/${entry.name}`;
      if (dirs.has(path) || texts.has(path)) continue;
      try {
        await runtime.symlink(join(root, path), join(overlay, path));
      } catch (error) {
        if (error instanceof FsError && (error.kind === "permission_denied" || error.kind === "other")) return false;
        throw error;
      }
    }
  }
  for (const [file, text] of texts) await runtime.writeFileAtomic(join(overlay, file), text);
  return true;
}

/**
 * Biome's edits of `texts` (root-relative → text) with one `biome lint --write` run from `cwd` (absolute, inside
 * `root`: the directory the check ran Biome in), through an overlay: the fixed texts, or null when the overlay cannot
 * be made here (ask per file on stdin then). Throws EngineEditError when Biome fails.
 */
export async function biomeEditsInOverlay(
  context: EditContext,
  resolved: ResolvedEngine,
  where: { root: string; cwd: string },
  texts: ReadonlyMap<string, string>,
  options: { unsafe: boolean; only: readonly string[] | null },
): Promise<Map<string, string> | null> {
  const { runtime, cacheDir } = context;
  const overlay = join(cacheDir, "biome-fix", `overlay-${runtime.pid}-${++overlays}`);
  try {
    if (!(await buildOverlay(context, where.root, overlay, texts))) return null;
    const cwd = join(overlay, relative(where.root, where.cwd));
    const paths = [...texts.keys()].map((file) => relative(cwd, join(overlay, file)).split("\\").join("/"));
    const result = await runtime.spawn(resolved.command, [...resolved.prefixArgs, ...biomeFixFilesArgs(paths, options)], {
      cwd,
      timeoutMs: context.timeoutMs,
      maxOutputBytes: ENGINE_OUTPUT_LIMIT,
      env: { NO_COLOR: "1", FORCE_COLOR: "0" },
    });
    if (result.timedOut) throw new EngineEditError(`biome's fixes did not complete within ${context.timeoutMs} ms`);
    // Its JSON report says it ran (exit 1 when diagnostics remain); anything else is its failure.
    const read = jsonReportOf(result, "biome's fixes");
    if ("failure" in read || !isRecord(read.report) || !Array.isArray(read.report.diagnostics) || result.spawnError)
      throw new EngineEditError(`biome's fixes failed (exit ${result.exitCode}): ${excerpt(result.stderr || result.stdout, 300)}`);
    const fixed = new Map<string, string>();
    for (const file of texts.keys()) fixed.set(file, await runtime.readText(join(overlay, file)));
    return fixed;
  } finally {
    // Best effort: what is left in the cache directory is the plan's texts and links, never followed.
    await runtime.removeFile(overlay).catch(() => {});
  }
}
