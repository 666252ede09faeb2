import { join, resolve } from "node:path";

/** What the cache base is read from: the runtime's, or the process shell's before a runtime exists (the entry). */
export interface CacheBaseSource {
  env(name: string): string | undefined;
  cwd(): string;
  platform: string;
}

/**
 * The OS cache directory for Signalint (SIGNALINT_CACHE_DIR overrides it); null when none is known. Projects keep
 * their caches under it (project.ts); Signalint's own compiled code is kept in its `node-compile-cache/` (main.ts).
 */
export function cacheBase(source: CacheBaseSource): string | null {
  const override = source.env("SIGNALINT_CACHE_DIR")?.trim();
  if (override) return resolve(source.cwd(), override);
  const home = source.env("HOME")?.trim() || source.env("USERPROFILE")?.trim();
  if (source.platform === "win32") {
    const local = source.env("LOCALAPPDATA")?.trim() || (home ? join(home, "AppData", "Local") : "");
    return local ? join(local, "signalint") : null;
  }
  if (source.platform === "darwin") return home ? join(home, "Library", "Caches", "signalint") : null;
  const xdg = source.env("XDG_CACHE_HOME")?.trim();
  return xdg ? join(xdg, "signalint") : home ? join(home, ".cache", "signalint") : null;
}
