import { relative, resolve } from "node:path";
import { relativeToRoot } from "../../core/paths.ts";
import { isConfigDiagnosticFile, type OutsideRoot } from "../../engines/tsc.ts";

/**
 * Where a program's diagnostics in files outside the root are reported (engines/tsc.ts outsideRootIssue): on the
 * in-root config that leads to the file (a config it extends), else on the checked config (`configFile`,
 * project-relative), the file named relative to the root. Not the sources Signalint itself writes in the cache
 * directory (a solution's declarations emitted there): the project's own build has them in its tree, where what they
 * import resolves; they are dropped as before. A config there (a generated one) is placed as any config.
 */
export function outsideRoot(job: { root: string; cacheDir: string }, configFile: string, leadsTo?: ReadonlyMap<string, string>): OutsideRoot {
  return (reported) => {
    const absolute = resolve(job.root, reported);
    if (relativeToRoot(job.cacheDir, absolute) !== null && !isConfigDiagnosticFile(absolute)) return null;
    const owner = leadsTo?.get(absolute);
    return { file: owner ? relative(job.root, owner).replace(/\\/g, "/") : configFile, shown: relative(job.root, absolute).replace(/\\/g, "/") };
  };
}
