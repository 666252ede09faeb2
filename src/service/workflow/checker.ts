import type { ElsewhereFacts } from "../../core/elsewhere.ts";
import type { CheckResponse } from "../../core/contracts.ts";
import type { Runtime } from "../../runtime/types.ts";
import type { CheckOptions } from "../job/check-events.ts";
import type { SessionLog } from "../history/session-log.ts";
import type { SnapshotStore } from "../history/snapshots.ts";
import type { Project } from "../project/project.ts";

/** What the workflow and fix rooms need of the service: the project, its history and a way to run a check. */
export interface Checker {
  readonly runtime: Runtime;
  readonly project: Project;
  readonly snapshots: SnapshotStore;
  readonly session: SessionLog;
  /** Run every enabled engine on the paths (`incremental` marks check_files) and record the check. */
  check(requested: readonly string[], incremental: boolean, options?: CheckOptions): Promise<CheckResponse>;
  /** The tsc errors a check_files found outside its files, introduced or unattributed (the response lists the first). */
  elsewhereOf(checkId: string): ElsewhereFacts | undefined;
  tscProgramsOf(checkId: string): readonly string[] | undefined;
}
