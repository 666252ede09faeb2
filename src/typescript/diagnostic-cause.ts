// The declarations a TypeScript 5.x/6.x error is about, read from the program that produced it (cause-finder.ts does
// the reading; this is its window on that compiler's checker). Pure on (ts, program, diagnostic) so it can run
// wherever the program lives (a worker too).
import type * as TS from "typescript";
import type { IssueCause } from "../core/issues.ts";
import { type CauseEnv, findCauses } from "./cause-finder.ts";
import { causesAtSources } from "./output-causes.ts";

type Ts = typeof TS;

const absolute = (path: string) => path;

function declarationOf(ts: Ts, checker: TS.TypeChecker, symbol: TS.Symbol | undefined): TS.Declaration | undefined {
  if (!symbol) return undefined;
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  return target.valueDeclaration ?? target.declarations?.[0];
}

/** The finder's questions, answered by a TypeScript 5.x/6.x program's checker. */
export function causeEnv(ts: Ts, program: TS.Program, toRelative: (path: string) => string | null): CauseEnv {
  const checker = program.getTypeChecker();
  return {
    is: ts,
    forEachChild: (node, visit) => ts.forEachChild(node, visit),
    isExternal: (file) => program.isSourceFileDefaultLibrary(file) || program.isSourceFileFromExternalLibrary(file),
    toRelative,
    declarationAt: (node) => declarationOf(ts, checker, checker.getSymbolAtLocation(node)),
    contextualProperty: (literal, name) => {
      const contextual = checker.getContextualType(literal as TS.Expression);
      const property = contextual?.getProperty(name);
      return declarationOf(ts, checker, property ?? contextual?.aliasSymbol ?? contextual?.getSymbol());
    },
    signatureDeclaration: (call) => checker.getResolvedSignature(call as TS.CallExpression)?.getDeclaration(),
    typeDeclarationAt: (node) => {
      const type = checker.getTypeAtLocation(node);
      return declarationOf(ts, checker, type.aliasSymbol ?? type.getSymbol());
    },
    moduleAt: (specifier) => checker.getSymbolAtLocation(specifier)?.valueDeclaration,
  };
}

/**
 * The declarations one diagnostic is about, most specific first (see cause-finder.ts); empty when nothing in the
 * project explains it. `env` (made with absolute names) may be shared by the diagnostics of one program. Never throws.
 */
export function diagnosticCauses(
  ts: Ts,
  program: TS.Program,
  diagnostic: TS.Diagnostic,
  toRelative: (path: string) => string | null,
  env?: CauseEnv,
): IssueCause[] {
  if (!diagnostic.file || diagnostic.start === undefined) return [];
  try {
    const file = program.getSourceFile(diagnostic.file.fileName) ?? diagnostic.file;
    const related = (diagnostic.relatedInformation ?? []).flatMap((info) =>
      info.file && info.start !== undefined ? [{ file: info.file, start: info.start, length: info.length ?? 0 }] : [],
    );
    // Found by absolute names, so a cause at a reference's emitted declarations can move to its source first.
    const found = findCauses(env ?? causeEnv(ts, program, absolute), {
      code: diagnostic.code,
      file,
      start: diagnostic.start,
      length: diagnostic.length ?? 0,
      related,
    });
    return causesAtSources(ts, program, found).flatMap((cause) => {
      const relative = toRelative(cause.file);
      return relative === null ? [] : [{ ...cause, file: relative, ...(cause.module ? { name: relative } : {}) }];
    });
  } catch {
    // A compiler API that throws on this diagnostic: no cause named (never a wrong one).
    return [];
  }
}
