// A check's named files first (issue 36 item 2): their diagnostics from a freshly built program, before the builder
// re-checks the rest of what the edit affects. Each file's are exactly what the whole answer will hold for it: the
// program's checker is new with every build and caches each file's diagnostics, so the builder's later pass reuses
// them rather than checking those files twice.
import type * as TS from "typescript";

type Ts = typeof TS;

/** The named files' part of a program's answer, and how many of its other files are still to be re-checked (at most). */
export interface NamedAnswer {
  diagnostics: readonly TS.Diagnostic[];
  pendingFiles: number;
}

/**
 * The named files' diagnostics as `tsc --noEmit -p` will report them (with the config file's own, which tsc reports
 * beside every other: its emitFilesAndReportErrors counts past them), or null when the whole answer is as near (then
 * the caller collects it): a syntax, options or global error means tsc reports no semantic diagnostics at all, a
 * program that also reports declaration diagnostics adds them only when no file has a semantic one, which a part
 * cannot tell, and a program that holds none of the files (by their names here) has no part of theirs to give first.
 * Nor when a named path is a config file or a directory: a config's issues are the program's (its diagnostics in
 * files outside the root are reported on it: engines/tsc.ts outsideRootIssue), which a part never holds whole.
 */
export function namedDiagnostics(ts: Ts, program: TS.Program, files: readonly string[]): NamedAnswer | null {
  if (files.some((file) => /\.json$/i.test(file) || ts.sys.directoryExists(file))) return null;
  const options = program.getCompilerOptions();
  if (options.noEmit && (options.declaration || options.composite)) return null;
  const early = [...program.getSyntacticDiagnostics(), ...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()];
  if (early.length) return null;
  const named = [...new Set(files.flatMap((file) => program.getSourceFile(file) ?? []))];
  if (!named.length) return null;
  const diagnostics = [...program.getConfigFileParsingDiagnostics(), ...named.flatMap((sourceFile) => program.getSemanticDiagnostics(sourceFile))];
  const others = program.getSourceFiles().filter((sourceFile) => !sourceFile.isDeclarationFile && !named.includes(sourceFile)).length;
  return { diagnostics: ts.sortAndDeduplicateDiagnostics(diagnostics), pendingFiles: others };
}
