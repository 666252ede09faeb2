import type { EngineName } from "./contracts.ts";
import { autoFixable, causeKey, type Issue, type IssueCause } from "./issues.ts";
import { quotedValues } from "./normalize.ts";

const MAX_SUMMARY = 240;

function mostCommon(values: readonly string[]): [string, number] | null {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  let best: [string, number] | null = null;
  for (const entry of counts) if (!best || entry[1] > best[1]) best = entry;
  return best;
}

/** `1 file`, `2 files`: a count and its noun. */
export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

function cut(text: string): string {
  return text.length <= MAX_SUMMARY ? text : `${text.slice(0, MAX_SUMMARY - 1).trimEnd()}…`;
}

/**
 * Each engine's fix command (null: it has none of its own — TypeScript's code fixes are Signalint's `fix`); a new
 * engine without an entry is a compile error.
 */
const FIX_COMMANDS: Record<EngineName, string | null> = {
  eslint: "eslint --fix",
  oxlint: "oxlint --fix",
  biome: "biome lint --write",
  tsc: null,
  deno: "deno lint --fix",
};

/** What an agent should do about a rule cluster (no shared declaration known): never "one cause" from wording alone. */
function ruleAction(issues: readonly Issue[], rule: string): string {
  const first = issues[0] as Issue;
  const where = `${first.file}:${first.line}`;
  if (issues.every(autoFixable)) {
    const files = [...new Set(issues.map((issue) => issue.file))];
    const target = files.length <= 4 ? files.join(" ") : `<the ${files.length} files>`;
    return `Auto-fixable: run \`${FIX_COMMANDS[first.engine] ?? "signalint-mcp fix"} ${target}\`, then re-check.`;
  }
  if (rule === "no-unused-vars") {
    return `Remove the ${issues.length} unused declarations (or prefix intentional ones with _); first at ${where}.`;
  }
  if (rule === "TS2307" || rule === "TS2792") {
    const module = mostCommon(issues.flatMap((issue) => quotedValues(issue.message).slice(0, 1)));
    return `Fix the import path or install the package${module ? ` '${module[0]}'` : ""}; every file importing it fails.`;
  }
  // TypeScript results from tsc's command line (a first check, a path without a warm program) carry no declarations:
  // say the grouping is by rule for that reason, rather than imply the sites share nothing.
  if (issues.every((issue) => issue.engine === "tsc") && issues.some((issue) => issue.causes === undefined)) {
    return `Fix each of the ${issues.length} places; first at ${where}. Grouped by rule: tsc's command line names no declarations, so a shared cause is not known.`;
  }
  return `Fix each of the ${issues.length} places; first at ${where}.`;
}

/**
 * The quoted value most of a cluster's messages share, ignoring boilerplate: a value that sits at the same distance
 * from the end of every message that has it (like the '_' in "…should start with a '_'.") is part of the template.
 */
function sharedToken(issues: readonly Issue[]): [string, number] | null {
  const offsets = new Map<string, Set<number>>();
  const perIssue = issues.map((issue) => {
    const values = new Set<string>();
    for (const match of issue.message.matchAll(/'([^']{2,})'|"([^"]{2,})"|`([^`]{2,})`/g)) {
      const value = (match[1] ?? match[2] ?? match[3]) as string;
      values.add(value);
      const fromEnd = issue.message.length - (match.index ?? 0);
      offsets.set(value, (offsets.get(value) ?? new Set()).add(fromEnd));
    }
    return [...values];
  });
  const distinctMessages = new Set(issues.map((issue) => issue.message)).size;
  const meaningful = perIssue.flat().filter((value) => distinctMessages === 1 || (offsets.get(value)?.size ?? 0) > 1);
  const best = mostCommon(meaningful);
  return best && best[1] >= 2 && best[1] >= issues.length * 0.6 ? best : null;
}

function ruleSummary(issues: readonly Issue[], ruleIds: readonly string[], fileCount: number): string {
  // ruleIds names the rules: the summary says what they found.
  const base = `${issues.length} issues in ${plural(fileCount, "file")}`;
  const messages = new Set(issues.map((issue) => issue.message));
  if (messages.size === 1) return `${base}: ${issues[0]?.message}`;
  const token = sharedToken(issues);
  if (token) return cut(`${base}; ${token[1]} mention '${token[0]}' (e.g. ${issues[0]?.message})`);
  const hotspot = mostCommon(issues.map((issue) => issue.file));
  if (hotspot && fileCount > 1 && hotspot[1] >= 2 && hotspot[1] * 2 >= issues.length)
    return cut(`${base}, mostly ${hotspot[0]} (${hotspot[1]}); e.g. ${issues[0]?.message}`);
  return cut(`${base}; e.g. ${issues[0]?.message}`);
}

/** Texts of a cluster grouped by rule: issues in example order (the first is the example and "first at"). */
export function ruleClusterTexts(issues: readonly Issue[], rule: string, ruleIds: readonly string[], fileCount: number): { summary: string; action: string } {
  return { summary: ruleSummary(issues, ruleIds, fileCount), action: ruleAction(issues, rule) };
}

const MISSING_MEMBER_RULES = new Set(["TS2339", "TS2551", "TS2353", "TS2561"]);

/** The name TypeScript suggests instead ("Did you mean 'x'?", "Did you mean to write 'x'?") most often, if any. */
function suggestion(issues: readonly Issue[]): string | null {
  return mostCommon(issues.flatMap((issue) => /Did you mean (?:to write )?'([^']+)'\?/.exec(issue.message)?.[1] ?? []))?.[0] ?? null;
}

/**
 * The declared type of the cause and the type the sites give or expect, when every issue is a TS2322/TS2345 whose
 * message names the same pair: the target's type is the expected one, a source's type is the given one.
 */
function sharedTypes(issues: readonly Issue[], cause: IssueCause): { declared: string; other: string } | null {
  const assignments = issues.filter((issue) => issue.rule !== "TS2367");
  const pairs = new Set(
    assignments.map((issue) => {
      const values = quotedValues(issue.message);
      if ((issue.rule !== "TS2322" && issue.rule !== "TS2345") || values.length !== 2) return "";
      return JSON.stringify(chosenCause(issue, cause)?.role === "source" ? values : values.reverse());
    }),
  );
  const [only] = pairs;
  if (pairs.size !== 1 || !only) return null;
  const [declared, other] = JSON.parse(only) as [string, string];
  // A comparison of the two types ("'string' and 'number' have no overlap") is the same mismatch.
  const compared = issues
    .filter((issue) => issue.rule === "TS2367")
    .every((issue) => new Set(quotedValues(issue.message)).size === 2 && quotedValues(issue.message).every((value) => value === declared || value === other));
  return compared ? { declared, other } : null;
}

/**
 * Texts of a cluster whose issues share one declaration (the evidence for "fix it once"): what it is, where, and
 * what to change. `cause` is the shared cause as the example issue names it; `member` is set when every issue names
 * the same member.
 */
export function causeClusterTexts(issues: readonly Issue[], cause: IssueCause, sameMember: boolean, fileCount: number): { summary: string; action: string } {
  const n = issues.length;
  const first = issues[0] as Issue;
  const firstAt = `first at ${first.file}:${first.line}`;
  const rules = new Set(issues.map((issue) => issue.rule));
  const member = sameMember ? cause.member : undefined;
  const where = cause.module ? cause.file : `${cause.file}:${member?.line ?? cause.line}`;
  const name = member?.name ?? cause.name;
  const label = cause.module ? (member ? `${cause.file} has no export \`${member.name}\`` : cause.file) : `\`${name}\` (${where})`;
  const sites = `${plural(n, "site")} in ${plural(fileCount, "file")}`;
  if (cause.module) {
    const suggested = suggestion(issues);
    const to = suggested ? `\`${suggested}\`` : "its new name";
    if (member) {
      return {
        summary: `${n} errors: ${label}; ${plural(n, "import")} in ${plural(fileCount, "file")} name it`,
        action: `Export \`${member.name}\` from ${cause.file} again, or change the ${n} imports to ${to}; ${firstAt}.`,
      };
    }
    return {
      summary: cut(`${n} errors: imports at ${sites} name exports ${label} lacks (e.g. ${first.message})`),
      action: `Restore the missing exports of ${cause.file}, or change the ${n} imports to what it exports now; ${firstAt}.`,
    };
  }
  if ([...rules].every((rule) => MISSING_MEMBER_RULES.has(rule))) {
    const members = [...new Set(issues.flatMap((issue) => quotedValues(issue.message).slice(0, 1)))].map((value) => `'${value}'`);
    const listed = members.length <= 3 ? members.join(", ") : `${members.slice(0, 3).join(", ")} and ${members.length - 3} more`;
    const suggested = members.length === 1 ? suggestion(issues) : null;
    return {
      summary: cut(`${n} errors: ${label} has no member ${listed}; used at ${sites}`),
      action: `Add ${listed} to \`${name}\` at ${where}, or update the ${n} uses${suggested ? ` to '${suggested}'` : ""} if it was renamed; ${firstAt}.`,
    };
  }
  const types = sharedTypes(issues, cause);
  if (types) {
    const roles = new Set(issues.map((issue) => chosenCause(issue, cause)?.role ?? "target"));
    const verb = roles.has("source") ? (roles.size === 1 ? "use it where" : "treat it as") : rules.size === 1 && rules.has("TS2345") ? "pass" : "assign";
    const usage = verb === "use it where" ? `use it where \`${types.other}\` is expected` : `${verb} \`${types.other}\``;
    return {
      summary: `${n} errors: ${label} is \`${types.declared}\`; ${sites} ${usage}`,
      action: `If \`${name}\` should be \`${types.other}\`, change it at ${where} once; else fix the ${n} sites for \`${types.declared}\`; ${firstAt}.`,
    };
  }
  if ([...rules].every((rule) => rule === "TS2554" || rule === "TS2555")) {
    return {
      summary: cut(`${n} errors: calls at ${sites} do not match the parameters of ${label} (e.g. ${first.message})`),
      action: `Update the ${n} calls to the parameters of \`${name}\` at ${where}, or restore its old parameters there; ${firstAt}.`,
    };
  }
  return {
    summary: cut(`${n} errors (${[...rules].sort().join("/")}) at ${sites} trace to ${label}; e.g. ${first.message}`),
    action: `Start at \`${name}\` (${where}): fix it there once if its declaration is wrong, else fix the ${n} sites; ${firstAt}.`,
  };
}

/** The cause of an issue with the same key as `cause` (its role may differ: a target at one site, a source at another). */
export function chosenCause(issue: Issue, cause: IssueCause): IssueCause | undefined {
  return issue.causes?.find((candidate) => causeKey(candidate) === causeKey(cause));
}

/**
 * Texts of one edit's errors: new issues whose causes are several declarations of one file (most reached first),
 * named each with its own line, so the agent reviews that edit once rather than fixing each site.
 */
export function editClusterTexts(
  issues: readonly Issue[],
  causes: readonly { cause: IssueCause; count: number }[],
  fileCount: number,
): { summary: string; action: string } {
  const n = issues.length;
  const first = issues[0] as Issue;
  const rules = [...new Set(issues.map((issue) => issue.rule))].sort().join("/");
  const named = causes.map(({ cause }) => `\`${cause.member?.name ?? cause.name}\` (${cause.file}:${cause.member?.line ?? cause.line})`);
  const listed = causes.map(({ count }, index) => `${named[index]} for ${count}`);
  const file = causes[0]?.cause.file;
  return {
    summary: cut(`${n} errors (${rules}) at ${plural(n, "site")} in ${plural(fileCount, "file")} since the last check trace to ${file}: ${listed.join(", ")}`),
    action: `Start at ${named.slice(0, 3).join(" and ")}: if that change to ${file} is wrong, fix it there once; else fix the ${n} sites; first at ${first.file}:${first.line}.`,
  };
}
