// What the programs of one tsc run answered, put together: one outcome over every config (a file in two programs
// reported once), TypeScript 5/6's fix marks, and which compiler module the output overlay loads.
import { join } from "node:path";
import { majorVersion } from "../../engines/resolve.ts";
import { tscFixMark } from "../../engines/tsc-fix.ts";
import type { ParseOutcome, ResolvedEngine } from "../../engines/types.ts";

/**
 * The findings of every tsconfig that answered; a failure of its own only when none did. The configs that failed
 * (a timeout) are named as failures, so tsc is `engine_partial` rather than clean.
 */
export function combine(outcomes: readonly [string, ParseOutcome][], label: (tsconfig: string) => string): ParseOutcome {
  const failed = outcomes.flatMap(([tsconfig, outcome]) => (outcome.ok ? [] : [{ file: label(tsconfig), outcome }]));
  if (failed.length && failed.length === outcomes.length) return failed[0]?.outcome as ParseOutcome;
  // A file in two programs (tsconfig.json and tsconfig.spec.json) gets the same diagnostic from each: one issue.
  const seen = new Set<string>();
  const issues = outcomes
    .flatMap(([, outcome]) => (outcome.ok ? outcome.issues : []))
    .filter((issue) => {
      const key = [issue.file, issue.line, issue.col, issue.rule, issue.severity, issue.message].join("\0");
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  const failures = failed.map(({ file, outcome }) => ({ file, reason: outcome.ok ? "" : outcome.message }));
  return { ok: true, issues, ...(failures.length ? { failures } : {}) };
}

/**
 * TypeScript 5.x/6.x's fix marks (engines/tsc-fix.ts: by code, where it always gives a safe fix), set where its code
 * fixes can be asked (its package run through node); a warm, command-line or repeated answer passes here alike.
 */
export function withFixMarks(outcome: ParseOutcome, resolved: ResolvedEngine): ParseOutcome {
  if (!outcome.ok || overlayCompiler(resolved) === null) return outcome;
  return { ...outcome, issues: outcome.issues.map((issue) => ({ ...issue, ...tscFixMark(issue) })) };
}

/**
 * The compiler module the output overlay loads (tsconfig.ts): TypeScript 5.x/6.x (JavaScript, with the build API the
 * overlay uses) run through node; null otherwise (TypeScript 7 is native: generated configs serve).
 */
export function overlayCompiler(resolved: ResolvedEngine): string | null {
  const major = majorVersion(resolved);
  const throughNode = resolved.prefixArgs.at(-1) === resolved.path;
  return resolved.packageDir && throughNode && (major === 5 || major === 6) ? join(resolved.packageDir, "lib", "typescript.js") : null;
}
