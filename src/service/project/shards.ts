import { join } from "node:path";
import type { CheckResponse } from "../../core/contracts.ts";
import { isWithin } from "../../core/paths.ts";
import { shardUnits, unitsOfShard, type ShardUnit } from "../../core/shards.ts";
import type { Runtime } from "../../runtime/types.ts";
import { ifMissing } from "../../core/errors.ts";

/** Directories never part of a shard (the engines do not walk into them either). */
const SKIPPED = new Set(["node_modules"]);
/** Files that make their directory a unit of its own. */
const UNIT_MARKERS = new Set(["package.json", "tsconfig.json"]);

/** Every file under the root (project-relative), skipping node_modules and dot entries; and the unit roots. */
async function walk(runtime: Runtime, root: string): Promise<{ files: string[]; unitRoots: Set<string> }> {
  const files: string[] = [];
  const unitRoots = new Set<string>();
  const queue = ["."];
  while (queue.length) {
    const current = queue.pop() as string;
    for (const entry of await runtime.readDir(current === "." ? root : join(root, current)).catch(ifMissing([]))) {
      if (entry.name.startsWith(".") || SKIPPED.has(entry.name)) continue;
      const path = current === "." ? entry.name : `${current}/${entry.name}`;
      if (entry.isDirectory) queue.push(path);
      else if (entry.isFile || entry.isSymlink) {
        files.push(path);
        if (current !== "." && UNIT_MARKERS.has(entry.name)) unitRoots.add(current);
      }
    }
  }
  return { files: files.sort(), unitRoots };
}

/**
 * The check paths of shard `index` of `count`: the project split by package and tsconfig project, the units spread
 * over the shards by file count. Every shard computes the same split, and together they cover every file once.
 */
export async function shardPaths(runtime: Runtime, root: string, index: number, count: number): Promise<{ units: ShardUnit[]; paths: string[] }> {
  const { files, unitRoots } = await walk(runtime, root);
  const units = unitsOfShard(shardUnits(files, unitRoots), index, count);
  return { units, paths: units.flatMap((unit) => unit.paths) };
}

/**
 * What a shard reports: the issues in its own units' files. A program-wide diagnostic (a tsconfig error) is kept by
 * every check of its program whatever the paths, so several shards see it; it belongs to the shard holding its file,
 * and each issue is then in exactly one shard. A shard left with no issue of its own is clean if its engines were.
 */
export function ownShare<T extends { file: string }>(
  response: CheckResponse,
  issues: readonly T[],
  paths: readonly string[],
): { response: CheckResponse; issues: T[] } {
  const own = issues.filter((issue) => paths.some((path) => isWithin(issue.file, path)));
  const status = response.status === "issues_found" && own.length === 0 ? "clean" : response.status;
  return { response: { ...response, status }, issues: own };
}
