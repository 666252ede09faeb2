// The per-user state home (DESIGN §2, trust boundary): every project's state directory and the key that tags what
// Signalint reads back (fix journals) live here, outside every project tree, created 0700 and owned by the user.
import { join } from "node:path";
import { FsError, ifMissing } from "../../core/errors.ts";
import { setAsideUnless } from "./state-kinds.ts";
import type { Runtime } from "../../runtime/types.ts";

/**
 * Where this user's Signalint state lives: `$XDG_STATE_HOME/signalint` (else `~/.local/state/signalint`) on Linux and
 * other POSIX systems, `~/Library/Application Support/signalint` on macOS, `%LOCALAPPDATA%\signalint\state` on
 * Windows; null when no home directory is known.
 */
export function userStateHome(runtime: Runtime): string | null {
  const home = runtime.env("HOME")?.trim() || runtime.env("USERPROFILE")?.trim();
  if (runtime.platform === "win32") {
    const local = runtime.env("LOCALAPPDATA")?.trim() || (home ? join(home, "AppData", "Local") : "");
    return local ? join(local, "signalint", "state") : null;
  }
  const xdg = runtime.env("XDG_STATE_HOME")?.trim();
  if (xdg?.startsWith("/")) return join(xdg, "signalint");
  if (!home) return null;
  return runtime.platform === "darwin" ? join(home, "Library", "Application Support", "signalint") : join(home, ".local", "state", "signalint");
}

/**
 * A project's state directory under the state home, keyed by its real root: two clones, copies or worktrees of one
 * repository are two real paths, so they never share a daemon, lock or journal.
 */
export function projectStateDir(home: string, runtime: Runtime, realRoot: string): string {
  return join(home, "projects", runtime.sha256(realRoot).slice(0, 24));
}

const KEY = /^[0-9a-f]{64}$/;

/** The key of a process with no state home: nothing it tags outlives it. */
let processKey: string | null = null;

/**
 * This user's integrity key (32 random bytes, hex, in a 0600 file of the state home, made on first use): only this
 * user's Signalint can tag a journal it will honour. A damaged key file is replaced (what it tagged is then refused,
 * never trusted). Without a state home, a key for this process alone.
 */
export async function userKey(runtime: Runtime): Promise<string> {
  const home = userStateHome(runtime);
  if (!home) return (processKey ??= runtime.randomHex(32));
  await runtime.mkdirPrivate(home);
  const file = join(home, "integrity.key");
  // A directory (or symlink) of that name is set aside like a damaged key: what it tagged is refused, never trusted.
  await setAsideUnless(runtime, file, "file");
  for (let attempt = 0; attempt < 3; attempt++) {
    const text = (await runtime.readText(file).catch(ifMissing(null)))?.trim();
    if (text !== undefined && KEY.test(text)) return text;
    if (text !== undefined) await runtime.removeFile(file);
    await runtime.createExclusive(file, `${runtime.randomHex(32)}\n`);
  }
  throw new FsError("other", `the integrity key ${file} could not be made`);
}
