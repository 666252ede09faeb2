// Temporary state and cache directories (fallbacks when the configured ones cannot be used, or another process owns
// the state directory). Each session removes its own at close; a process that was killed cannot, so each carries its
// owner's pid and the next session to make one of the same kind removes those whose owner is gone.
import { dirname, join } from "node:path";
import type { Runtime } from "../../runtime/types.ts";
import { whenAbsent } from "./workspace.ts";

/** The file naming a temporary directory's owner (its process id). */
const OWNER = ".signalint-owner";

/** A new temporary directory (`prefix` + random) owned by this process; left-overs of dead owners are removed. */
export async function ownedTempDir(runtime: Runtime, prefix: string): Promise<string> {
  const dir = await runtime.makeTempDir(prefix);
  await runtime.writeFileAtomic(join(dir, OWNER), `${runtime.pid}\n`);
  try {
    await sweepTempDirs(runtime, dirname(dir), prefix, dir);
  } catch (error) {
    // Left-overs stay for a later sweep: this session's directory is made all the same.
    runtime.writeStderr(`signalint: could not remove old temporary directories in ${dirname(dir)} (${(error as Error).message})\n`);
  }
  return dir;
}

/**
 * Remove the directories `<parent>/<prefix>*` whose owner file names a process that is no longer running. A directory
 * without an owner file (another version's, or one being made), one whose owner runs (or whose pid was reused), and
 * one this user cannot read are left alone.
 */
async function sweepTempDirs(runtime: Runtime, parent: string, prefix: string, keep: string): Promise<void> {
  for (const entry of await whenAbsent(runtime.readDir(parent), [])) {
    const dir = join(parent, entry.name);
    if (!entry.isDirectory || !entry.name.startsWith(prefix) || dir === keep) continue;
    const pid = Number((await whenAbsent(runtime.readText(join(dir, OWNER)), "")).trim());
    if (!Number.isInteger(pid) || pid <= 0 || pid === runtime.pid || runtime.processAlive(pid)) continue;
    await runtime.removeFile(dir);
  }
}
