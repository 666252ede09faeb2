import { join } from "node:path";
import type { Live, Severity } from "../../core/contracts.ts";
import { publicWorkflowIssue } from "../../core/delta.ts";
import { isWithin } from "../../core/paths.ts";
import { validatePaths } from "../project/project.ts";
import type { Checker } from "./checker.ts";
import type { StoredSnapshot } from "../history/snapshots.ts";

/** What get_live_diagnostics is asked. */
export interface LiveQuery {
  files?: string[];
  severity?: Severity;
}

/**
 * The newest observations of a file: the newest engine check whose scope covers it, and per ingest provider the
 * newest ingest that named it (a check of some files replaces only those files' observations).
 */
function observationsOf(snapshots: readonly StoredSnapshot[], file: string): StoredSnapshot[] {
  const found: StoredSnapshot[] = [];
  const providers = new Set<string>();
  let engineSeen = false;
  for (let index = snapshots.length - 1; index >= 0; index--) {
    const snapshot = snapshots[index] as StoredSnapshot;
    if (!snapshot.scope.some((entry) => isWithin(file, entry))) continue;
    if (snapshot.provider === undefined) {
      if (engineSeen) continue;
      engineSeen = true;
    } else {
      if (providers.has(snapshot.provider)) continue;
      providers.add(snapshot.provider);
    }
    found.push(snapshot);
  }
  return found;
}

/** get_live_diagnostics: engine and ingested issues merged per file, with provenance and staleness. */
export async function liveDiagnostics(service: Checker, query: LiveQuery): Promise<Live> {
  const snapshots = service.snapshots.all();
  const requested = query.files ? await validatePaths(service.runtime, service.project, query.files, "file") : null;
  const candidates = requested ?? [...new Set(snapshots.flatMap((snapshot) => snapshot.issues.map((issue) => issue.file)))];
  const issues: Live["issues"] = [];
  const files: Live["files"] = [];
  for (const file of candidates.sort()) {
    const observations = observationsOf(snapshots, file);
    const found = observations.flatMap((snapshot) =>
      snapshot.issues
        .filter((issue) => issue.file === file && (query.severity === undefined || issue.severity === query.severity))
        .map((issue) => ({ ...publicWorkflowIssue(issue), checkId: snapshot.checkId, observedAt: new Date(snapshot.observedAtMs).toISOString() })),
    );
    if (!requested && found.length === 0) continue;
    const newest = Math.max(...observations.map((snapshot) => snapshot.observedAtMs));
    const info = await service.runtime.stat(join(service.project.root, file));
    files.push({ file, stale: observations.length === 0 || !info || info.mtimeMs > newest });
    issues.push(...found.sort((a, b) => a.line - b.line || a.col - b.col || (a.engine < b.engine ? -1 : a.engine > b.engine ? 1 : 0)));
  }
  return { issues, files };
}
