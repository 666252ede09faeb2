import {
  ENGINE_NAMES,
  type Delta,
  type EngineName,
  type EngineStatus,
  type Engines,
  type NotCompared,
  type Provenance,
  type PublicIssue,
  type StoredIssue,
} from "./contracts.ts";
import { isWithin } from "./paths.ts";

/** An issue with its full-length id, as snapshots keep it. */
export type SnapshotIssue = StoredIssue & { fullId: string };

/** One side of a comparison: the issues of a check, the paths it covered and how each engine fared. */
export interface CompareSide {
  scope: readonly string[];
  issues: readonly SnapshotIssue[];
  engines: Engines;
  /** The tool that made the check; ingest_diagnostics snapshots hold the "lsp" issues. */
  tool?: string;
  /** ingest_diagnostics: the server the diagnostics came from. */
  provider?: string;
  /** Files (root-relative) under the scope an engine left unchecked (tsc's and ESLint's coverage notes). */
  unchecked?: readonly UncheckedFiles[];
}

/** Files under a check's paths one engine did not check, so its issues there say nothing either way. */
export interface UncheckedFiles {
  engine: EngineName;
  files: string[];
}

const INGEST = "ingest_diagnostics";

function covered(scope: readonly string[], file: string): boolean {
  return scope.some((entry) => isWithin(file, entry));
}

/** The key under which a shifted issue may still be the same problem. */
function looseKey(issue: SnapshotIssue): string {
  return [issue.file, issue.engine, issue.rule, issue.message, issue.severity].join("\0");
}

/**
 * The public form of a stored issue: the internal full id and service-only fields stripped, and default-valued
 * fields (fixable false, clusterId null) left out as in check responses.
 */
export function publicWorkflowIssue(issue: SnapshotIssue): PublicIssue {
  const {
    fullId: _fullId,
    causes: _causes,
    fullMessage: _fullMessage,
    fixable,
    clusterId,
    ...rest
  } = issue as SnapshotIssue & {
    causes?: unknown;
    fullMessage?: unknown;
  };
  return { ...rest, ...(fixable ? { fixable: true as const } : {}), ...(clusterId !== null ? { clusterId } : {}) };
}

/** Pair same-key issues nearest line first (one-to-one); returns the indexes matched on each side. */
function matchNearest(before: readonly SnapshotIssue[], after: readonly SnapshotIssue[], usedBefore: Set<number>, usedAfter: Set<number>): void {
  const groups = new Map<string, { before: number[]; after: number[] }>();
  const group = (key: string) => groups.get(key) ?? groups.set(key, { before: [], after: [] }).get(key)!;
  before.forEach((issue, index) => !usedBefore.has(index) && group(looseKey(issue)).before.push(index));
  after.forEach((issue, index) => !usedAfter.has(index) && group(looseKey(issue)).after.push(index));
  for (const { before: olds, after: news } of groups.values()) {
    if (!olds.length || !news.length) continue;
    const pairs = olds.flatMap((o) =>
      news.map((n) => {
        const a = before[o] as SnapshotIssue;
        const b = after[n] as SnapshotIssue;
        return { o, n, distance: Math.abs(a.line - b.line) * 10_000 + Math.abs(a.col - b.col) };
      }),
    );
    // Total order so equal distances pair deterministically (earlier lines first).
    pairs.sort((x, y) => x.distance - y.distance || x.o - y.o || x.n - y.n);
    for (const pair of pairs) {
      if (usedBefore.has(pair.o) || usedAfter.has(pair.n)) continue;
      usedBefore.add(pair.o);
      usedAfter.add(pair.n);
    }
  }
}

function countSeverity(issues: readonly SnapshotIssue[], severity: "error" | "warning"): number {
  return issues.filter((issue) => issue.severity === severity).length;
}

function describeStatus(status: EngineStatus): string {
  return status.status === "error" && status.code ? `error (${status.code})` : status.status;
}

/**
 * The provenances whose issues both sides can vouch for: an engine `ok` in both checks, and ingested ("lsp") issues
 * when both are ingests from the same server. The rest are named (an engine disabled on both sides has nothing to say).
 */
function comparedProvenances(baseline: CompareSide, current: CompareSide): { compared: Set<Provenance>; notCompared: NotCompared[] } {
  const compared = new Set<Provenance>();
  const notCompared: NotCompared[] = [];
  for (const engine of ENGINE_NAMES) {
    const [then, now] = [baseline.engines[engine], current.engines[engine]];
    if (then.status === "ok" && now.status === "ok") compared.add(engine);
    else if (then.status !== "disabled" || now.status !== "disabled")
      notCompared.push({
        reason: "engine_not_ok",
        engine,
        message: `${engine} was ${describeStatus(then)} in the baseline and is ${describeStatus(now)} now: its issues are not compared`,
      });
  }
  const ingests = [baseline, current].filter((side) => side.tool === INGEST).length;
  if (ingests === 2 && baseline.provider === current.provider) compared.add("lsp");
  else if (ingests > 0)
    notCompared.push({
      reason: "engine_not_ok",
      engine: "lsp",
      message: "ingested diagnostics are compared only with an ingest from the same server: they are not compared",
    });
  return { compared, notCompared };
}

/** The current check's paths the baseline did not cover (wholly): their issues have nothing to be compared with. */
function outsideBaseline(baseline: CompareSide, current: CompareSide): NotCompared[] {
  const paths = current.scope.filter((path) => !covered(baseline.scope, path));
  if (!paths.length) return [];
  const within = baseline.scope.length ? `only within the baseline's paths (${baseline.scope.join(", ")})` : "nowhere";
  return [{ reason: "outside_baseline", paths, message: `The baseline did not check ${paths.join(", ")}: issues are compared ${within}` }];
}

/** `file` → the engines that left it unchecked on either side (an issue there is neither introduced nor resolved). */
function uncheckedBy(sides: readonly CompareSide[]): Map<string, Set<Provenance>> {
  const map = new Map<string, Set<Provenance>>();
  for (const { engine, files } of sides.flatMap((side) => side.unchecked ?? []))
    for (const file of files) map.set(file, (map.get(file) ?? new Set<Provenance>()).add(engine));
  return map;
}

/** The files whose issues were left out because an engine did not check them on one side, by engine. */
function notCheckedNotes(left: readonly SnapshotIssue[]): NotCompared[] {
  const byEngine = new Map<string, Set<string>>();
  for (const issue of left) byEngine.set(issue.engine, (byEngine.get(issue.engine) ?? new Set<string>()).add(issue.file));
  return [...byEngine].map(([engine, files]) => {
    const paths = [...files].sort();
    return {
      reason: "not_checked",
      engine,
      paths,
      message: `${engine} did not check ${paths.join(", ")} in one of the checks: its issues there are not compared`,
    };
  });
}

/**
 * Pair the issues of two lists one-to-one as compare does: same full id first, then same (file, engine, rule,
 * normalized message, severity) at the nearest line. Returns the indexes matched on each side.
 */
export function matchIssues(before: readonly SnapshotIssue[], after: readonly SnapshotIssue[]): { usedBefore: Set<number>; usedAfter: Set<number> } {
  const usedBefore = new Set<number>();
  const usedAfter = new Set<number>();
  const byId = new Map<string, number[]>();
  before.forEach((issue, index) => byId.set(issue.fullId, [...(byId.get(issue.fullId) ?? []), index]));
  after.forEach((issue, index) => {
    const match = byId.get(issue.fullId)?.shift();
    if (match === undefined) return;
    usedBefore.add(match);
    usedAfter.add(index);
  });
  matchNearest(before, after, usedBefore, usedAfter);
  return { usedBefore, usedAfter };
}

/**
 * Compare two checks. Only what both checks checked is compared: issues of an engine `ok` in both checks, in files
 * both scopes cover (the narrower scope) and that engine checked in both; the rest is named in `notCompared`, never counted as introduced or
 * resolved. Matching is one-to-one: same full issue id first, then same (file, engine, rule, normalized message,
 * severity) at the nearest line, so lines inserted above an unchanged issue leave it unchanged rather than
 * "resolved + introduced".
 */
export function compareChecks(baseline: CompareSide, current: CompareSide): Delta {
  const { compared, notCompared } = comparedProvenances(baseline, current);
  notCompared.push(...outsideBaseline(baseline, current));
  const inScopes = (issue: SnapshotIssue) => compared.has(issue.engine) && covered(baseline.scope, issue.file) && covered(current.scope, issue.file);
  const unchecked = uncheckedBy([baseline, current]);
  const checkedInBoth = (issue: SnapshotIssue) => !unchecked.get(issue.file)?.has(issue.engine);
  const scoped = [...baseline.issues.filter(inScopes), ...current.issues.filter(inScopes)];
  notCompared.push(...notCheckedNotes(scoped.filter((issue) => !checkedInBoth(issue))));
  const before = baseline.issues.filter((issue) => inScopes(issue) && checkedInBoth(issue));
  const after = current.issues.filter((issue) => inScopes(issue) && checkedInBoth(issue));
  const { usedBefore, usedAfter } = matchIssues(before, after);
  return {
    introduced: after.filter((_, index) => !usedAfter.has(index)).map(publicWorkflowIssue),
    resolved: before.filter((_, index) => !usedBefore.has(index)).map(publicWorkflowIssue),
    unchangedCount: usedAfter.size,
    netErrorDelta: countSeverity(after, "error") - countSeverity(before, "error"),
    netWarningDelta: countSeverity(after, "warning") - countSeverity(before, "warning"),
    ...(notCompared.length ? { notCompared } : {}),
  };
}
