import type { AfterEditDelta, CheckResponse, EngineName, EngineStatus, Severity } from "../core/contracts.ts";
import { plural } from "../core/cluster-text.ts";
import { notRunLines } from "./report.ts";

/** At most this many lines reach the agent after an edit: the most important first. */
export const HOOK_MAX_LINES = 20;

/** An issue as the hook lists it (the check's own issues, or a delta's / elsewhere's). */
interface Listed {
  file: string;
  line: number;
  col: number;
  severity: Severity;
  engine: string;
  rule: string;
  message: string;
  fullMessage?: string;
}

/** What the hook reports after an edit: its lines (stderr) and its exit code (2: the agent is told). */
export interface HookReport {
  lines: string[];
  exitCode: 0 | 1 | 2;
}

/** What one hook run learned: the check of the edited files, their every issue, and the delta against the last check. */
export interface HookFacts {
  /** The edited files, root-relative, as asked. */
  files: readonly string[];
  response: CheckResponse;
  issues: readonly Listed[];
  delta: AfterEditDelta | null;
  failOn: "error" | "warning";
  /** The config's engine switches (an engine off in the config says so). */
  switches: Partial<Record<EngineName, boolean>>;
}

const issueLine = (issue: Listed) =>
  `${issue.file}:${issue.line}:${issue.col} ${issue.severity} ${issue.rule} (${issue.engine}): ${(issue.fullMessage ?? issue.message).split("\n")[0]}`;
const key = (issue: Listed) => `${issue.file}:${issue.line}:${issue.col}:${issue.rule}`;

/** In the order the files were asked, then by position. */
function byAsked(files: readonly string[]) {
  const rank = (file: string) => (files.includes(file) ? files.indexOf(file) : files.length);
  return (a: Listed, b: Listed) => rank(a.file) - rank(b.file) || a.file.localeCompare(b.file) || a.line - b.line || a.col - b.col;
}

/**
 * Errors outside the edited files: the ones this edit introduced (the delta against the last check of these files),
 * then the ones tsc still reports there since the last whole-project check (an earlier edit's, or unattributed when
 * no earlier check knew those files).
 */
function otherErrors(facts: HookFacts): { thisEdit: Listed[]; since: Listed[]; count: number; unattributed: boolean } {
  const asked = new Set(facts.files);
  const errors = (list: readonly Listed[]) => list.filter((issue) => issue.severity === "error" && !asked.has(issue.file));
  const thisEdit = facts.delta && !("status" in facts.delta) ? errors(facts.delta.introduced) : [];
  const elsewhere = facts.response.elsewhere;
  const known = new Set(thisEdit.map(key));
  const since = errors(elsewhere?.issues ?? []).filter((issue) => !known.has(key(issue)));
  // elsewhere lists a few of the errors it counts; a count beyond the listed ones is said, not listed.
  const told = elsewhere ? elsewhere.introduced || (elsewhere.unattributed ?? 0) : 0;
  const count = Math.max(thisEdit.length + since.length, told);
  return { thisEdit, since, count, unattributed: !!elsewhere && !elsewhere.introduced && !!elsewhere.unattributed };
}

/** Errors the edit fixed, in one line (absent when none, or nothing was compared). */
function fixedLine(delta: AfterEditDelta | null): string | null {
  if (!delta || "status" in delta) return null;
  const fixed = delta.resolved.filter((issue) => issue.severity === "error");
  if (!fixed.length) return null;
  const named = fixed.slice(0, 3).map((issue) => `${issue.file}:${issue.line} ${issue.rule}`);
  return `fixed by this edit: ${plural(fixed.length, "error")} (${named.join(", ")}${fixed.length > 3 ? ", …" : ""})`;
}

/** tsc could not finish (failed or timed out): the files that import the edited ones are unknown. */
function unknownDependents(engines: Record<EngineName, EngineStatus>): string | null {
  return engines.tsc.status === "error"
    ? "other files may be affected: tsc did not finish, so the files that import the edited ones were not checked: run `signalint-mcp check`"
    : null;
}

/** tsc answered the edited files and is still re-checking the rest (status pending or a pending field). */
function pendingLine(response: CheckResponse): string | null {
  const pending = response.pending;
  if (!pending) return null;
  return `${plural(pending.files, "more file")} may be affected (tsc is still re-checking ${pending.programs === 1 ? "their program" : `${pending.programs} programs`}): run \`signalint-mcp check\``;
}

/** The headline: what the edit leaves, counted. */
function headline(files: readonly string[], own: number, other: ReturnType<typeof otherErrors>, warnings: number, pending = false): string {
  const parts: string[] = [];
  if (own) parts.push(`${plural(own, "error")} in ${files.length > 1 ? "the edited files" : files[0]}`);
  if (other.thisEdit.length) parts.push(`${plural(other.thisEdit.length, "error")} this edit introduced in other files`);
  const rest = other.count - other.thisEdit.length;
  if (rest)
    parts.push(
      other.unattributed
        ? `${plural(rest, "error")} in other files that no earlier check saw (this edit's or older: run \`signalint-mcp check\` to know)`
        : `${plural(rest, "error")} in other files since the last whole-project check (not fixed yet)`,
    );
  if (warnings) parts.push(plural(warnings, "warning"));
  const none = pending ? "no errors in the edited files; the files they may affect are not re-checked yet" : "no errors found";
  return `Signalint after editing ${files.join(", ")}: ${parts.length ? parts.join(", ") : none}`;
}

/**
 * The hook's report: errors the edit leaves (in the edited files first, then the ones it introduced elsewhere), what
 * it fixed, warnings, what did not run; at most HOOK_MAX_LINES lines. Exit 2 when the edit leaves errors (or
 * warnings, with failOn "warning"), 1 when the check is incomplete (an engine failed, files went unchecked, the files
 * the edit may affect still being re-checked: pending), else 0.
 */
export function hookReport(facts: HookFacts): HookReport {
  const order = byAsked(facts.files);
  const own = facts.issues.filter((issue) => issue.severity === "error").sort(order);
  const warnings = facts.issues.filter((issue) => issue.severity === "warning").sort(order);
  const other = otherErrors(facts);
  const failsOnWarnings = facts.failOn === "warning" && warnings.length > 0;
  // Errors elsewhere that no earlier check saw may be old: said, but they do not stop the agent (they would after
  // every edit where nothing is remembered between hooks: no daemon).
  const leavesErrors = own.length + (other.unattributed ? other.thisEdit.length : other.count) > 0;
  const incomplete = facts.response.status === "error";
  const exitCode = leavesErrors || failsOnWarnings ? 2 : incomplete || facts.response.pending ? 1 : 0;
  // Engines off by the project's choice (its config, or off by default with nothing to say why) are one line, and only
  // when the hook has something to report anyway: after every edit they would be the same lines again and again, ahead
  // of what the agent must read. Engines that failed, are missing or have nothing to check say so (their message).
  const quiet = exitCode === 0 && !warnings.length;
  const entries = Object.entries(facts.response.engines) as [EngineName, EngineStatus][];
  const offByChoice = entries.filter(([, status]) => status.status === "disabled" && !status.message).map(([engine]) => engine);
  const engines = Object.fromEntries(entries.filter(([engine]) => !offByChoice.includes(engine))) as Record<EngineName, EngineStatus>;
  const notRun = [
    ...notRunLines({ engines, notChecked: facts.response.notChecked }, facts.switches),
    ...(offByChoice.length && !quiet ? [`- off for this project: ${offByChoice.join(", ")} (\`signalint-mcp doctor\` says why)`] : []),
  ];
  const tail = [fixedLine(facts.delta), ...notRun, unknownDependents(facts.response.engines), pendingLine(facts.response)].filter(
    (line): line is string => line !== null,
  );
  const ranked = [...own, ...other.thisEdit, ...other.since, ...warnings].map(issueLine);
  const hidden = own.length + other.count + warnings.length - ranked.length;
  const room = HOOK_MAX_LINES - 1 - tail.length;
  const shown = ranked.length + (hidden > 0 ? 1 : 0) > room ? ranked.slice(0, Math.max(0, room - 1)) : ranked;
  const more = own.length + other.count + warnings.length - shown.length;
  const lines = [
    `${headline(facts.files, own.length, other, warnings.length, !!facts.response.pending)}${exitCode === 2 ? `: fix ${leavesErrors ? "them" : "the warnings"} (or undo the edit)` : ""}${incomplete ? "; the check is incomplete (below: what did not run or was not checked)" : ""}`,
    ...shown,
    ...(more > 0 ? [`… and ${more} more: run \`signalint-mcp check\` (--format json lists every issue)`] : []),
    ...tail,
  ];
  if (exitCode === 0 && !warnings.length && tail.length === 0) return { lines: [], exitCode };
  return { lines: lines.slice(0, HOOK_MAX_LINES), exitCode };
}
