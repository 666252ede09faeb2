// A directory only this user may enter, on Deno (the per-user state directory: DESIGN §2, trust boundary).
import { FsError } from "../core/errors.ts";

// deno-lint-ignore no-explicit-any
declare const Deno: any;

let knownUid: Promise<number | null> | null = null;

/** This user's id, found once per process (a check calls mkdirPrivate each time: no probe file per check). */
function ownUid(dir: string): Promise<number | null> {
  knownUid ??= findUid(dir).catch((error) => {
    knownUid = null; // a directory this user cannot write proves nothing about the next one
    throw error;
  });
  return knownUid;
}

/**
 * Deno.uid() needs --allow-sys, which the documented six permissions grant and a run with the first four lacks; without
 * it, the owner of a file this process creates in `dir` is this user (the permission is asked first, so a terminal
 * never gets a prompt).
 */
async function findUid(dir: string): Promise<number | null> {
  if (Deno.permissions?.querySync?.({ name: "sys", kind: "uid" })?.state === "granted") return Deno.uid();
  const probe = `${dir}/.uid-probe-${crypto.randomUUID().slice(0, 12)}`;
  await Deno.writeTextFile(probe, "", { createNew: true, mode: 0o600 });
  try {
    return (await Deno.lstat(probe)).uid ?? null;
  } finally {
    await Deno.remove(probe);
  }
}

/**
 * Create `path` (and missing parents) with mode 0700, or make sure the existing directory is this user's and closed to
 * others: a symlink, another user's directory or a file there is refused (FsError "not_private"), never followed.
 */
export async function mkdirPrivateDeno(path: string): Promise<void> {
  await Deno.mkdir(path, { recursive: true, mode: 0o700 });
  if (Deno.build.os === "windows") return;
  const info = await Deno.lstat(path);
  if (info.isSymlink || !info.isDirectory) throw new FsError("not_private", `${path} is not a directory (a symlink or a file is never used for state)`);
  const uid = await ownUid(path);
  if (uid !== null && info.uid !== uid) throw new FsError("not_private", `${path} belongs to another user (uid ${info.uid})`);
  if (((info.mode ?? 0) & 0o077) !== 0) await Deno.chmod(path, 0o700);
}
