import type { PersistTarget } from "../../typescript/persisted-state.ts";
import { VERSION } from "../../version.ts";
import type { Project } from "../project/project.ts";

/**
 * Where warm TypeScript hosts keep incremental state between hosts (issue 17): the project's cache directory, bounded
 * with every other project's under the OS cache base at SIGNALINT_CACHE_MAX_MB (settings.persistMaxMB, default 512;
 * 0 turns persisting off).
 */
export function persistTarget(project: Pick<Project, "cacheDir" | "cacheBase" | "settings">): PersistTarget | null {
  const megabytes = project.settings.persistMaxMB;
  if (megabytes === 0) return null;
  return { dir: project.cacheDir, evictBase: project.cacheBase, maxBytes: megabytes * 1024 ** 2, version: VERSION };
}
