// Biome's fixes of many files in one process (issue 35's speed): Biome reads one text on stdin per process, and a
// process per file cost 20 s for 200 files on the fix bench (a node wrapper, `ldd` and Biome's start each time). Here
// Biome fixes private copies in place, in an overlay of the project in a private temporary directory: the directories on
// the asked files' paths are real, each asked file is a real file holding the plan's text, and every other entry is a
// symbolic link to the project's own — so Biome sees what it sees in the project (its configs and their `extends`,
// ignore files, node_modules, the other sources its project rules scan) at the same relative paths. Biome writes only
// the files it is given, and it is given only the overlay's real files; the overlay is removed after (its links are
// removed, never followed). The directory Biome runs in is a real one of the overlay too (a package script may lint
// `../shared`), and every directory and file is checked to resolve inside the overlay before Biome runs: a link met on
// the way (a case-insensitive file system) would otherwise lead a write into the project. Where links cannot be made
// (Windows without the right), or a Biome config lies above the root or extends a path, the caller asks on stdin.
import { dirname, isAbsolute, join, relative } from "node:path";
import { parseJsonc } from "../../core/jsonc.ts";
import { FsError } from "../../core/errors.ts";
import { BIOME_CONFIGS, biomeFixFilesArgs } from "../../engines/biome.ts";
import { ENGINE_OUTPUT_LIMIT, excerpt, isRecord, jsonReportOf, type ResolvedEngine } from "../../engines/types.ts";
import { EngineEditError, type EditContext } from "./engine-edits.ts";
import { ownedTempDir } from "../project/temp-dirs.ts";

/** The parent of a root-relative POSIX path ("" for a top-level entry). */
function parentOf(file: string): string {
  const at = file.lastIndexOf("/");
  return at < 0 ? "" : file.slice(0, at);
}

/**
 * Whether Biome finds in the overlay the configs it finds in the project: not when one lies above the root (the overlay,
 * in the cache directory, has nothing above it), nor when a config on the way extends a path (`./base.json`,
 * `../base.json`: resolved from where the link is or where it points, which Signalint does not assume) — then the
 * caller asks Biome on stdin, from the project itself.
 */
export async function configsCarryOver(context: EditContext, root: string, dirs: Iterable<string>): Promise<boolean> {
  const { runtime } = context;
  for (let dir = dirname(root); ; dir = dirname(dir)) {
    for (const name of BIOME_CONFIGS) if ((await runtime.stat(join(dir, name))) !== null) return false;
    if (dirname(dir) === dir) break;
  }
  let rootConfig = false;
  for (const name of BIOME_CONFIGS) if ((await runtime.stat(join(root, name)))?.isFile) rootConfig = true;
  for (const dir of dirs)
    for (const name of BIOME_CONFIGS) {
      const path = join(root, dir, name);
      const info = await runtime.stat(path);
      if (!info) continue;
      // A config is read only when it is a plain, small file; anything else is not reasoned about.
      if (!info.isFile || info.size > MAX_CONFIG_BYTES) return false;
      let config: unknown;
      try {
        config = parseJsonc(await runtime.readText(path));
      } catch {
        // A config that does not parse: Biome's own answer on stdin says what it makes of it.
        return false;
      }
      const extended = isRecord(config) ? config.extends : undefined;
      const entries = typeof extended === "string" ? [extended] : Array.isArray(extended) ? extended : [];
      // Biome 2's `"extends": "//"` (a nested config extending the monorepo's root one) finds the root's config in the
      // overlay where it finds it in the project, as long as the root has one (none above it: checked first).
      const fromRoot = (entry: unknown) => entry === "//" && rootConfig;
      if (entries.some((entry) => !fromRoot(entry) && (typeof entry !== "string" || /^[./\\]/.test(entry) || isAbsolute(entry)))) return false;
    }
  return true;
}

/**
 * Whether an overlay at this real path is one Biome reads as it reads the project: no directory on it is hidden (Biome
 * skips nested configs and ignore files under `.cache`, `.git`, `.hg`, `.svn`, `.yarn`; any other dot-directory is
 * not assumed safe either). False for null (the path cannot be told).
 */
function seenByBiomeAsTheProject(path: string | null): boolean {
  return path !== null && !path.split(/[\\/]/).some((segment) => segment.startsWith("."));
}

/** The largest Biome config read to decide whether the overlay may stand for the project. */
const MAX_CONFIG_BYTES = 1024 * 1024;

/**
 * Build the overlay of `root` at `overlay` for `texts` (root-relative POSIX path → text), its directories `dirs`:
 * false when it cannot stand for the project (a link cannot be made, or a directory of it resolves elsewhere — a link
 * met on the way, as a case-insensitive file system makes of `SRC` beside a link `src`): nothing is written through
 * it then, and the caller removes it. Every directory is checked before any file is written, every file after.
 */
async function buildOverlay(
  context: EditContext,
  root: string,
  overlay: string,
  dirs: ReadonlySet<string>,
  texts: ReadonlyMap<string, string>,
): Promise<boolean> {
  const { runtime } = context;
  // The files Biome reads as its configuration in a directory of the asked files' paths: copies (see COPIED).
  const copies = new Map<string, string>();
  for (const dir of [...dirs].sort()) {
    await runtime.mkdirp(join(overlay, dir));
    for (const entry of await runtime.readDir(join(root, dir))) {
      const path = dir === "" ? entry.name : `${dir}/${entry.name}`;
      if (dirs.has(path) || texts.has(path)) continue;
      if (!COPIED.has(entry.name)) {
        await runtime.symlink(join(root, path), join(overlay, path));
        continue;
      }
      const info = await runtime.stat(join(root, path));
      if (!info?.isFile || info.size > MAX_CONFIG_BYTES) return false;
      copies.set(path, await runtime.readText(join(root, path)));
    }
  }
  const real = await runtime.realPath(overlay);
  if (real === null) return false;
  const inside = async (path: string) => (await runtime.realPath(join(overlay, path))) === join(real, path);
  for (const dir of dirs) if (!(await inside(dir))) return false;
  const written = new Map([...copies, ...texts]);
  for (const [file, text] of written) await runtime.writeFileAtomic(join(overlay, file), text);
  for (const file of written.keys()) if (!(await inside(file))) return false;
  return true;
}

/**
 * Files Biome reads where they are only when they are real files, not links to the project's (checked by hand with
 * Biome 2.6: a nested `biome.json` or a nested `.gitignore` that is a link is passed over, so a rule the package's
 * config turns off was fixed, and an ignored file was): copied into the overlay's real directories. The root's own are
 * copied too, alike. Anything else there (sources, package.json) stays a link.
 */
const COPIED = new Set([...BIOME_CONFIGS, ".gitignore", ".ignore"]);

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
  const { runtime } = context;
  const cwdDir = relative(where.root, where.cwd).split("\\").join("/");
  const dirs = new Set<string>([""]);
  for (const path of [...texts.keys(), `${cwdDir}/.`]) for (let dir = parentOf(path); dir !== "" && dir !== "."; dir = parentOf(dir)) dirs.add(dir);
  // A new private temporary directory each time (a killed process's is removed by a later one: project/temp-dirs.ts),
  // not the cache directory: Biome passes over nested configs and ignore files under a `.cache` or `.git` directory
  // (checked by hand with Biome 2.6: `~/.cache/signalint/…` made it fix what a package's config turns off).
  let home: string;
  try {
    home = await ownedTempDir(runtime, "signalint-biome-fix-");
  } catch (error) {
    // No temporary directory here: stdin then.
    if (error instanceof FsError) return null;
    throw error;
  }
  const overlay = join(home, "overlay");
  try {
    try {
      if (!seenByBiomeAsTheProject(await runtime.realPath(home))) return null;
      if (!(await configsCarryOver(context, where.root, dirs))) return null;
      if (!(await buildOverlay(context, where.root, overlay, dirs, texts))) return null;
    } catch (error) {
      // Links refused (Windows without the right), an entry gone or changed while it was built, a config that cannot be
      // read or parsed: stdin then.
      if (error instanceof FsError) return null;
      throw error;
    }
    const cwd = join(overlay, cwdDir);
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
    // Best effort: what is left is the plan's texts and links, never followed (a later session removes it).
    await runtime.removeFile(home).catch(() => {});
  }
}
