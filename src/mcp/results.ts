import { z } from "zod";
import {
  CheckResponseSchema,
  CompactCheckResponseSchema,
  CompactSnapshotSchema,
  AfterEditDeltaSchema,
  SnapshotSchema,
  type AfterEditDelta,
  type CheckResponse,
  type Snapshot,
} from "../core/contracts.ts";
import { PostCheckErrorSchema, RollbackSchema, type PostCheckError, type Rollback } from "../core/fix-contracts.ts";
import { plural } from "../core/cluster-text.ts";
import { CompactPostCheckSchema, compactPostCheck, postCheck, PostCheckSchema } from "../core/post-check.ts";
import { compactCheckResponse, compactSnapshot, readCheckCounts } from "../core/response.ts";
import type { AfterEdit } from "../service/workflow/after-edit.ts";
import type { ResultShape } from "./respond.ts";

// The result shapes several tools share: a check, a check plus its delta, an applied fix, a snapshot. Each says its
// contract per key style and how compact mode renames it; respond.ts does the serialization and the size bound.

/** What a check found, in one line (counts read from either key style, so compact mode counts correctly). */
function headline(response: CheckResponse, where: string): string {
  if (response.status === "pending") return "No issues in the named files so far; tsc is still re-checking the other files this change may affect (pending).";
  const line = found(response, where);
  // Whatever the named files have, a pending answer is never the whole one: said on the line an agent reads first.
  return response.pending ? `${line.slice(0, -1)}; tsc is still re-checking the other files this change may affect (pending).` : line;
}

/** The headline's account of what was found (one sentence, ending in a full stop). */
function found(response: CheckResponse, where: string): string {
  const counts = readCheckCounts(response);
  if (response.status === "clean") return "No issues found.";
  if (response.status === "issues_found" && counts.total === 0 && response.elsewhere)
    return `No issues in the checked files, but other files of their programs have ${elsewhereEngines(response.elsewhere)} errors (below).`;
  if (response.status === "error" && counts.total === 0) return "No issues reported, but the check is incomplete (engine errors below).";
  return `${response.status === "error" ? "Check incomplete (engine errors below); " : ""}${plural(counts.total, "issue")} found${where}.`;
}

function failuresOf(response: CheckResponse): string[] {
  return Object.entries(response.engines)
    .filter(([, status]) => status.status === "error")
    .map(([name, status]) => `${name} failed: ${status.message ?? "error"}`);
}

/** The errors outside the checked files (see core/elsewhere.ts): how many, of which engines, the first few, and what to do. */
function elsewhereLines({ elsewhere, nextStep }: CheckResponse): string[] {
  if (!elsewhere) return [];
  const count = elsewhere.introduced || (elsewhere.unattributed ?? 0);
  const what = elsewhere.introduced ? "introduced by this change" : "not known to be this change's";
  const first = elsewhere.issues.map((issue) => `  ${issue.file}:${issue.line}:${issue.col} ${issue.rule} ${issue.message}`);
  // A check with nothing else to do already says it as its nextStep.
  const step = elsewhere.nextStep === nextStep ? [] : [`Elsewhere next: ${elsewhere.nextStep}`];
  return [`Elsewhere: ${plural(count, `${elsewhereEngines(elsewhere)} error`)} in other files, ${what}:`, ...first, ...step];
}

/**
 * The engines of the errors counted elsewhere (every one, not only the listed first few): tsc's (the programs' other
 * files), ESLint's (typed rules in importers).
 */
function elsewhereEngines(elsewhere: NonNullable<CheckResponse["elsewhere"]>): string {
  return elsewhere.engines.join(" and ");
}

/** A short human summary of a check. */
export function summarizeCheck(response: CheckResponse): string {
  const counts = readCheckCounts(response);
  const others = counts.remaining ? ` + ${plural(counts.remaining, "other")}` : "";
  const head = headline(response, ` in ${plural(response.clusters.length, "cluster")}${others}${counts.omitted ? ` (${counts.omitted} omitted)` : ""}`);
  const top = response.clusters.slice(0, 3).map((cluster) => `[P${cluster.priority}] ${cluster.rootCauseSummary}`);
  const next = response.nextStep ? [`Next: ${response.nextStep}`] : [];
  return [head, ...top, ...failuresOf(response), ...elsewhereLines(response), ...next].join("\n");
}

/** The summary of a post-check: what it found, the delta, and the lean next step (it names where the issues are). */
function summarizePostCheck(response: CheckResponse, delta: AfterEditDelta | null): string {
  const { nextStep } = postCheck(response, delta);
  const lines = [
    headline(response, " in these files"),
    ...failuresOf(response),
    ...elsewhereLines(response),
    `Delta: ${delta ? summarizeDelta(delta) : "not available."}`,
  ];
  return [...lines, ...(nextStep ? [`Next: ${nextStep}`] : [])].join("\n");
}

/** One line saying what a delta means (and what it left out), or that there was no baseline. */
export function summarizeDelta(delta: AfterEditDelta): string {
  if ("status" in delta) return delta.message;
  const signed = (value: number) => (value > 0 ? `+${value}` : String(value));
  const left = delta.notCompared?.length ? ` Not compared: ${delta.notCompared.map((entry) => entry.message).join("; ")}.` : "";
  return `${delta.introduced.length} introduced, ${delta.resolved.length} resolved, ${delta.unchangedCount} unchanged (errors ${signed(delta.netErrorDelta)}, warnings ${signed(delta.netWarningDelta)}).${left}`;
}

const checkIn = (response: CheckResponse, compact: boolean) => (compact ? compactCheckResponse(response) : response);
const checkSchema = (compact: boolean) => (compact ? CompactCheckResponseSchema : CheckResponseSchema);
const postCheckIn = (response: CheckResponse, delta: AfterEditDelta | null, compact: boolean) =>
  compact ? compactPostCheck(postCheck(response, delta)) : postCheck(response, delta);
const postCheckSchema = (compact: boolean) => (compact ? CompactPostCheckSchema : PostCheckSchema);
const deltaField = AfterEditDeltaSchema.nullable();

/** check_project and check_files. */
export const CHECK_RESULT: ResultShape<CheckResponse> = {
  schema: checkSchema,
  wire: (response, compact) => ({ ...checkIn(response, compact) }),
  dataFields: ["clusters", "remainingIssues"],
  summary: summarizeCheck,
};

/** after_edit_check: the lean post-check plus its delta against the baseline. */
export const CHECK_WITH_DELTA_RESULT: ResultShape<AfterEdit> = {
  schema: (compact) => postCheckSchema(compact).extend({ delta: deltaField }),
  wire: ({ response, delta }, compact) => ({ ...postCheckIn(response, delta, compact), delta }),
  dataFields: ["delta"],
  summary: ({ response, delta }) => summarizePostCheck(response, delta),
};

/** apply_diagnostic_fix: the files written, their check and its delta (null, with postCheckError, when it failed). */
export interface Applied {
  files: string[];
  response: CheckResponse | null;
  delta: AfterEditDelta | null;
  postCheckError?: PostCheckError;
  /** Verify undid the fix: why; `response` and `delta` are then the check of the files as restored. */
  rollback?: Rollback;
}

/** apply_diagnostic_fix's answer: its own fields, the lean post-check (as after_edit_check's) and the delta. */
export const APPLIED_RESULT: ResultShape<Applied> = {
  schema: (compact) =>
    z
      .object({
        applied: z.literal(true),
        files: z.array(z.string()),
        check: postCheckSchema(compact).nullable(),
        delta: deltaField,
        postCheckError: PostCheckErrorSchema.optional(),
        rolledBack: z.literal(true).optional(),
        rollback: RollbackSchema.optional(),
      })
      .strict(),
  wire: ({ files, response, delta, postCheckError, rollback }, compact) => ({
    applied: true,
    files,
    check: response && postCheckIn(response, delta, compact),
    delta,
    ...(postCheckError ? { postCheckError } : {}),
    ...(rollback ? { rolledBack: true as const, rollback } : {}),
  }),
  dataFields: ["delta"],
  summary: ({ files, response, delta, postCheckError, rollback }) =>
    rollback
      ? `Rolled back ${files.length} file(s): ${rollback.reason}`
      : response
        ? `Applied ${files.length} file(s).\n${summarizePostCheck(response, delta)}`
        : `Applied ${files.length} file(s). ${postCheckError?.message ?? ""}`,
};

/** get_diagnostic_snapshot's answer. */
export const SNAPSHOT_RESULT: ResultShape<Snapshot> = {
  schema: (compact) => (compact ? CompactSnapshotSchema : SnapshotSchema),
  wire: (snapshot, compact) => ({ ...(compact ? compactSnapshot(snapshot) : snapshot) }),
  dataFields: ["clusters", "issues"],
  summary: (found) =>
    `Snapshot ${found.checkId} (${found.tool} of ${found.scope.join(", ")}, ${found.createdAt}): ${found.issues.length} issue(s) in ${found.clusters.length} cluster(s).`,
};
