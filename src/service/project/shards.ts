import { join } from "node:path";
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
