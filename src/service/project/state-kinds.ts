import { join } from "node:path";
import type { FileInfo, Runtime } from "../../runtime/types.ts";

/** What each name Signalint keeps in a project's state directory must be; other names are left alone. */
const STATE_ENTRIES: Readonly<Record<string, "file" | "directory">> = {
  "session.jsonl": "file",
  "owner.lock": "file",
  "owner.lock.takeover": "file",
  "daemon.record": "file",
  "daemon.json": "file",
  snapshots: "directory",
  artifacts: "directory",
  journal: "directory",
};

/** What an entry is, as a notice names it. */
function kindOf(info: FileInfo): string {
  return info.isSymlink ? "a symlink" : info.isDirectory ? "a directory" : info.isFile ? "a file" : "a special file";
}

/**
 * Rename `path` to `<name>.set-aside-<time>` with one notice on stderr saying `why`, so what expects its own file or
 * directory there starts afresh instead of failing. True when it was set aside. A rename that fails is said, never
 * thrown: the caller then meets the original problem, as it would have.
 */
export async function setAside(runtime: Runtime, path: string, why: string): Promise<boolean> {
  const aside = `${path}.set-aside-${new Date().toISOString().replace(/[:.]/g, "-")}`;
  try {
    await runtime.rename(path, aside);
  } catch (error) {
    // Another process set it aside first (it is gone now), or this one may not: either way not this call's to fail.
    if (await runtime.lstat(path)) runtime.writeStderr(`signalint: ${path} ${why}, and could not be set aside (${(error as Error).message})\n`);
    return false;
  }
  runtime.writeStderr(`signalint: ${path} ${why}; set aside as ${aside}\n`);
  return true;
}

/** Set `path` aside when it exists and is not a `kind` (a symlink never is): a directory named session.jsonl stopped the server at start. */
export async function setAsideUnless(runtime: Runtime, path: string, kind: "file" | "directory"): Promise<boolean> {
  const info = await runtime.lstat(path);
  if (!info || ((kind === "file" ? info.isFile : info.isDirectory) && !info.isSymlink)) return false;
  return setAside(runtime, path, `is ${kindOf(info)}, not a ${kind}`);
}

/** Set aside every entry of a state directory that is not the kind Signalint keeps under its name. */
export async function setAsideWrongKinds(runtime: Runtime, stateDir: string): Promise<void> {
  for (const [name, kind] of Object.entries(STATE_ENTRIES)) await setAsideUnless(runtime, join(stateDir, name), kind);
}

/** Whether `path` is a `kind` (not through a symlink): a reader that may not set aside (doctor, stats) reads only then. */
export async function isKind(runtime: Runtime, path: string, kind: "file" | "directory"): Promise<boolean> {
  const info = await runtime.lstat(path);
  return info !== null && !info.isSymlink && (kind === "file" ? info.isFile : info.isDirectory);
}
