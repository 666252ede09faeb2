// A directory only this user may enter, on Node (the per-user state directory: DESIGN §2, trust boundary).
import { promises as fs } from "node:fs";
import { FsError } from "../core/errors.ts";

/**
 * Create `path` (and missing parents) with mode 0700, or make sure the existing directory is this user's and closed to
 * others: a symlink, another user's directory or a file there is refused (FsError "not_private"), never followed.
 */
export async function mkdirPrivateNode(path: string): Promise<void> {
  await fs.mkdir(path, { recursive: true, mode: 0o700 });
  if (process.platform === "win32") return;
  const info = await fs.lstat(path);
  const uid = process.getuid?.();
  if (info.isSymbolicLink() || !info.isDirectory())
    throw new FsError("not_private", `${path} is not a directory (a symlink or a file is never used for state)`);
  if (uid !== undefined && info.uid !== uid) throw new FsError("not_private", `${path} belongs to another user (uid ${info.uid})`);
  if ((info.mode & 0o077) !== 0) await fs.chmod(path, 0o700);
}
