import type { DetailIssue, EngineName, FixKind, NormalizedIssue, Severity } from "./contracts.ts";
import { MAX_MESSAGE_LENGTH, normalizeMessage, templateQuoted } from "./normalize.ts";
import { canonicalRule } from "./rules.ts";

/**
 * The declaration an issue is about, as the type checker sees it: the top-level statement an edit changes (an
 * interface, a function, a module) and, when the issue names one, the member in it. A plain value (it may cross a
 * worker boundary).
 */
export interface IssueCause {
  file: string;
  /** The top-level declaration's name (for a module: its file). */
  name: string;
  line: number;
  /** The property, parameter or export inside it, e.g. `AppConfig.retries` or `sendEmail(to)`. */
  member?: { name: string; line: number };
  /** The member the declaration lacks (TS2339 `config.timeout` on `AppConfig`): a cause of its own per member. */
  absent?: string;
  /** The cause is a module (an import names an export it lacks). */
  module?: true;
  /** The declaration the offending value comes from (not the one it is assigned or passed to). */
  role?: "source";
}

/**
 * Identity of a cause for grouping: the most specific declaration (a member when the issue names one, the missing
 * member of a type), so errors about `AppConfig.port` and errors about a missing `AppConfig.timeout` are two causes.
 */
export function causeKey(cause: IssueCause): string {
  return `${cause.file}\0${cause.member?.name ?? cause.name}${cause.absent === undefined ? "" : `\0-${cause.absent}`}`;
}

/** What an engine adapter emits for one diagnostic, before ids and clustering. */
export interface RawIssue {
  file: string;
  line: number;
  col: number;
  engine: EngineName;
  rule: string;
  severity: Severity;
  message: string;
  fixable: boolean;
  /** Set exactly when `fixable`: whether the engine's own `--fix` applies the edit ("safe") or only offers it. */
  fixKind?: FixKind;
  /**
   * A diagnostic about the whole program (a tsconfig error, an options or global diagnostic): kept in every check
   * that covers its program, whatever paths were requested.
   */
  programWide?: boolean;
  /** tsc with a program at hand: the declarations the error is about, most specific first (see IssueCause); empty when
   * the program names none, absent when no program was asked (tsc's command line). */
  causes?: IssueCause[];
}

/** A normalized issue plus its full-length id, kept by the service for prefix lookup. */
export interface Issue extends NormalizedIssue {
  fullId: string;
  /** The engine's whole message (lines kept) when the 120-character `message` had to cut it; get_issue_detail only. */
  fullMessage?: string;
  /** Carried from RawIssue for clustering; never in a response. */
  causes?: IssueCause[];
}

const ENGINE_ORDER: Record<EngineName, number> = { tsc: 0, eslint: 1, oxlint: 2, biome: 3, deno: 4 };

/** Total order: file, line, col, engine, rule, message. */
export function compareIssues(a: RawIssue, b: RawIssue): number {
  return (
    (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
    a.line - b.line ||
    a.col - b.col ||
    ENGINE_ORDER[a.engine] - ENGINE_ORDER[b.engine] ||
    (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0) ||
    (a.message < b.message ? -1 : a.message > b.message ? 1 : 0)
  );
}

/** The issue's engine's own `--fix` applies an edit for it (a suggestion is offered, not applied). */
export function autoFixable(issue: Pick<RawIssue, "fixable" | "fixKind">): boolean {
  return issue.fixable && issue.fixKind !== "suggestion";
}

/** Which of two reports of one problem to keep: errors over warnings, auto-fixable over not, fixable over not, then engine order. */
function preferred(a: RawIssue, b: RawIssue): boolean {
  if (a.severity !== b.severity) return a.severity === "error";
  if (autoFixable(a) !== autoFixable(b)) return autoFixable(a);
  if (a.fixable !== b.fixable) return a.fixable;
  return ENGINE_ORDER[a.engine] <= ENGINE_ORDER[b.engine];
}

type Merged = RawIssue & { alsoReportedBy?: { engine: EngineName; rule: string }[] };

/**
 * Merge reports of the same problem (same file, line and engine-neutral rule) from different engines into one
 * issue that records every engine that saw it. Reports from the same engine are never merged.
 */
export function dedupeAcrossEngines<T extends RawIssue>(issues: readonly T[]): (T & Merged)[] {
  type Kept = T & Merged;
  const groups = new Map<string, Kept[]>();
  const out: Kept[] = [];
  for (const issue of [...issues].sort(compareIssues)) {
    const key = `${issue.file}\0${issue.line}\0${canonicalRule(issue.engine, issue.rule)}`;
    const group = groups.get(key) ?? [];
    groups.set(key, group);
    const partner = group.find((kept) => kept.engine !== issue.engine && !kept.alsoReportedBy?.some((other) => other.engine === issue.engine));
    if (!partner) {
      const fresh: Kept = { ...issue };
      group.push(fresh);
      out.push(fresh);
      continue;
    }
    const [keep, drop] = preferred(partner, issue) ? [partner, issue] : [issue, partner];
    const reporters = [...(partner.alsoReportedBy ?? []), { engine: drop.engine, rule: drop.rule }];
    // The kept report takes the partner's place (partner is this function's own copy, so it may be rewritten).
    const fixKind = [keep.fixKind, drop.fixKind].includes("safe") ? "safe" : (keep.fixKind ?? drop.fixKind);
    Object.assign(partner, {
      ...keep,
      fixable: keep.fixable || drop.fixable,
      ...(fixKind ? { fixKind } : {}),
      alsoReportedBy: reporters.filter((r) => r.engine !== keep.engine),
    });
  }
  return out.sort(compareIssues);
}

/**
 * One tsc report per diagnostic: a file in several programs (overlapping tsconfigs, a solution and a package config
 * in one check) is reported once per program, at the same place with the same code and the same text up to its quoted
 * types; the repeats are dropped (the first kept). The types are left out of the comparison because TypeScript prints
 * a union's members in the order it created them, which differs between a program checked whole and one re-checking
 * a few files (as `tsc --incremental` does): excalidraw's eight programs reported one error as `"link" | … 19 more`
 * and as `"width" | … 19 more`. TypeScript deduplicates within one program, and other engines run once per file, so
 * only tsc's repeats are the same problem.
 */
export function dropRepeatedReports<T extends RawIssue>(issues: readonly T[]): T[] {
  const seen = new Set<string>();
  return issues.filter((issue) => {
    if (issue.engine !== "tsc") return true;
    const key = [issue.file, issue.line, issue.col, issue.rule, issue.severity, templateQuoted(issue.message)].join("\0");
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Full ids for identity keys in order: the key's hash, with an ordinal added when a key repeats (ids stay unique). */
export function idsWithOrdinals(keys: readonly string[], hash: (text: string) => string): string[] {
  const seen = new Map<string, number>();
  return keys.map((key) => {
    const ordinal = seen.get(key) ?? 0;
    seen.set(key, ordinal + 1);
    return hash(ordinal === 0 ? key : `${key}\0${ordinal}`);
  });
}

/** The shortest prefix length (at least 12) that keeps every id unique. */
export function shortIdLength(fullIds: readonly string[]): number {
  for (let length = 12; length < 64; length += 2) {
    if (new Set(fullIds.map((id) => id.slice(0, length))).size === new Set(fullIds).size) return length;
  }
  return 64;
}

/**
 * Turn raw issues into normalized issues with stable ids: the hash of file, rule, line and the message with quoted
 * values templated; identical keys get an ordinal so ids stay unique.
 */
export function normalizeIssues(raw: readonly RawIssue[], hash: (text: string) => string): Issue[] {
  const merged = dedupeAcrossEngines(
    dropRepeatedReports(raw).map((issue) => ({ ...issue, message: normalizeMessage(issue.message), fullMessage: fullMessageOf(issue.message) })),
  );
  const fullIds = idsWithOrdinals(
    merged.map((issue) => [issue.file, issue.rule, issue.line, templateQuoted(issue.message)].join("\0")),
    hash,
  );
  const length = shortIdLength(fullIds);
  return merged.map((issue, index) => {
    const fullId = fullIds[index] as string;
    const base: Issue = {
      issueId: fullId.slice(0, length),
      file: issue.file,
      line: issue.line,
      col: issue.col,
      engine: issue.engine,
      rule: issue.rule,
      severity: issue.severity,
      message: issue.message,
      fixable: issue.fixable,
      ...(issue.fixable && issue.fixKind ? { fixKind: issue.fixKind } : {}),
      clusterId: null,
      fullId,
    };
    if (issue.causes) base.causes = issue.causes;
    const withFull = issue.fullMessage === undefined ? base : { ...base, fullMessage: issue.fullMessage };
    return issue.alsoReportedBy?.length ? { ...withFull, alsoReportedBy: issue.alsoReportedBy } : withFull;
  });
}

/** The engine's whole text (trailing spaces dropped, lines kept) when the normalized message cuts it, else undefined. */
function fullMessageOf(message: string): string | undefined {
  const full = message
    .split(/\r?\n/)
    .map((line) => line.trimEnd())
    .join("\n")
    .trim();
  return full.replace(/\s+/g, " ").length > MAX_MESSAGE_LENGTH ? full : undefined;
}

/** Strip the service-internal fields before an issue goes out in a check response. */
export function publicIssue(issue: Issue): NormalizedIssue {
  const { fullId: _fullId, fullMessage: _fullMessage, causes: _causes, ...rest } = issue;
  return rest;
}

/**
 * An issue as get_issue_detail returns it: the public fields without their defaults (fixable false, clusterId null,
 * and the clusterId the request named) plus `fullMessage` when the message was cut.
 */
export function detailIssue(issue: Issue, askedCluster?: string): DetailIssue {
  const { fullId: _fullId, causes: _causes, fixable, clusterId, ...rest } = issue;
  return { ...rest, ...(fixable ? { fixable: true as const } : {}), ...(clusterId !== null && clusterId !== askedCluster ? { clusterId } : {}) };
}
