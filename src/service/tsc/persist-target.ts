import { ConfigError } from "../../core/errors.ts";
import type { Runtime } from "../../runtime/types.ts";
import { DEFAULT_PERSIST_MAX_MB, type PersistTarget } from "../../typescript/persisted-state.ts";
import { VERSION } from "../../version.ts";
import type { Project } from "../project/project.ts";

/**
 * Where warm TypeScript hosts keep incremental state between hosts (issue 17): the project's cache directory, bounded
 * with every other project's under the OS cache base at SIGNALINT_CACHE_MAX_MB (default 512; 0 turns persisting off).
 */
export function persistTarget(runtime: Runtime, project: Pick<Project, "cacheDir" | "cacheBase">): PersistTarget | null {
  const raw = runtime.env("SIGNALINT_CACHE_MAX_MB")?.trim();
  if (raw && !/^\d{1,7}$/.test(raw)) throw new ConfigError(`SIGNALINT_CACHE_MAX_MB must be a whole number of megabytes, not ${JSON.stringify(raw)}`);
  const megabytes = raw ? Number(raw) : DEFAULT_PERSIST_MAX_MB;
  if (megabytes === 0) return null;
  return { dir: project.cacheDir, evictBase: project.cacheBase, maxBytes: megabytes * 1024 ** 2, version: VERSION };
}
