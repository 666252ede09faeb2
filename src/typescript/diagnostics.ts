// TypeScript diagnostics (from a warm program) as raw issues, read the way the tsc output parser reads the CLI's
// text; and the causes a host names, made project-relative by the server.
import type * as TS from "typescript";
import { isAbsolute } from "node:path";
import type { IssueCause, RawIssue } from "../core/issues.ts";
import { isConfigDiagnosticFile } from "../engines/tsc.ts";
import { diagnosticCauses } from "./diagnostic-cause.ts";

type Ts = typeof TS;

/**
 * Convert TS diagnostics into raw issues the way the tsc output parser would read the CLI's text; with the program
 * that produced them (or, for a solution, the project program that reported each), each issue also carries the
 * declarations it is about (its causes).
 */
export function diagnosticsToIssues(
  ts: Ts,
  diagnostics: readonly TS.Diagnostic[],
  toRelative: (path: string) => string | null,
  configFile: string,
  program?: TS.Program | ((diagnostic: TS.Diagnostic) => TS.Program | undefined),
): RawIssue[] {
  const issues: RawIssue[] = [];
  for (const diagnostic of diagnostics) {
    const category = diagnostic.category === ts.DiagnosticCategory.Error ? "error" : "warning";
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
    const base = { engine: "tsc" as const, rule: `TS${diagnostic.code}`, severity: category as RawIssue["severity"], message, fixable: false };
    if (!diagnostic.file || diagnostic.start === undefined) {
      issues.push({ ...base, file: configFile, line: 1, col: 1, programWide: true });
      continue;
    }
    const file = toRelative(diagnostic.file.fileName);
    if (file === null) continue;
    const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
    const from = typeof program === "function" ? program(diagnostic) : program;
    const extra = {
      ...(isConfigDiagnosticFile(file) ? { programWide: true } : {}),
      ...(from ? { causes: diagnosticCauses(ts, from, diagnostic, toRelative) } : {}),
    };
    issues.push({ ...base, file, line: line + 1, col: character + 1, ...extra });
  }
  return issues;
}

/** A host names causes by absolute path (a module cause by its file, too): project-relative here; others dropped. */
export function relativeCauses(causes: readonly IssueCause[], toRelative: (path: string) => string | null): IssueCause[] {
  return causes.flatMap((cause) => {
    const file = isAbsolute(cause.file) ? toRelative(cause.file) : cause.file;
    if (file === null) return [];
    return [{ ...cause, file, ...(cause.module ? { name: file } : {}) }];
  });
}
