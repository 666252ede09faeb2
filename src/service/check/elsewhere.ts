import { errorsElsewhere, type ElsewhereFacts } from "../../core/elsewhere.ts";
import { normalizeIssues, type Issue } from "../../core/issues.ts";
import { isWithin } from "../../core/paths.ts";
import type { EngineReport } from "../job/engine-job.ts";

/**
 * The whole-program tsc issues of the latest check_project (tsc reports every file of the programs it checks, whatever
 * paths were asked), else of the first check_files: what a check_files compares the errors outside its files with.
 * check_files never replaces it, so an error an edit caused elsewhere is reported by every check_files until it is
 * fixed or a check_project has shown it. Shared by every session of the service: a file's errors are the project's.
 */
export class TscKnowledge {
  private issues: Issue[] | null = null;

  /**
   * For check_files (`incremental`): tsc's errors outside `paths` that the known set lacks (null when tsc did not run
   * cleanly, so nothing is known). A check_project whose tsc ran (status ok) then becomes the known set, and so does
   * a check_files when nothing is known yet (its errors elsewhere were reported as unattributed).
   */
  update(tsc: EngineReport | undefined, scope: Scope, hash: (text: string) => string): ElsewhereFacts | null {
    if (tsc?.status.status !== "ok") return null;
    const inProject = tsc.issues.filter((issue) => !scope.ignored(issue.file));
    const inside = (file: string) => scope.paths.some((path) => isWithin(file, path));
    // Program-wide (config) diagnostics are in the check's own issues whatever the paths.
    const outside = inProject.filter((issue) => !issue.programWide && !inside(issue.file));
    const facts = scope.incremental ? errorsElsewhere(this.issues, normalizeIssues(outside, hash)) : null;
    if (!scope.incremental || !this.issues) this.issues = normalizeIssues(inProject, hash);
    return facts;
  }
}

/** What of a check decides which tsc issues lie elsewhere. */
export interface Scope {
  paths: readonly string[];
  ignored: (path: string) => boolean;
  incremental: boolean;
}
