// The files of a program whose types an edit of some of its files can change: every file that imports them, directly or
// through others (a re-export passes a type on). ESLint's typed rules read those types, so an edit's check lints these
// files too (issue 36 item 1). Edges are found as TypeScript's builder finds them (BuilderState.getReferencedFiles):
// each import's module symbol, through the checker, to the files that declare it; and `/// <reference path>`.
import { dirname, resolve } from "node:path";
import type * as TS from "typescript";

type Ts = typeof TS;

/** The internal list of a SourceFile's module specifiers (imports, exports, import types, require in JavaScript). */
type WithImports = TS.SourceFile & {
  imports?: readonly TS.StringLiteralLike[];
  moduleAugmentations?: readonly TS.Node[];
  commonJsModuleIndicator?: TS.Node;
};

/**
 * Who imports whom in a program, reversed: for each file (by its name), the files that import it. Built once per
 * program (the checker resolves each specifier once).
 */
const reversed = new WeakMap<TS.Program, Map<string, Set<string>>>();

function importersMap(program: TS.Program): Map<string, Set<string>> {
  const known = reversed.get(program);
  if (known) return known;
  const checker = program.getTypeChecker();
  const map = new Map<string, Set<string>>();
  const add = (target: string, importer: string) => {
    if (target === importer) return;
    const set = map.get(target);
    if (set) set.add(importer);
    else map.set(target, new Set([importer]));
  };
  for (const sourceFile of program.getSourceFiles() as readonly WithImports[]) {
    for (const specifier of sourceFile.imports ?? []) {
      const symbol = checker.getSymbolAtLocation(specifier);
      for (const declaration of symbol?.declarations ?? []) add(declaration.getSourceFile().fileName, sourceFile.fileName);
    }
    for (const reference of sourceFile.referencedFiles) add(resolve(dirname(sourceFile.fileName), reference.fileName), sourceFile.fileName);
  }
  reversed.set(program, map);
  return map;
}

/** What a program says of an edit's named files: which of them it holds, and the files importing those. */
export interface ProgramDependents {
  /** The named files (as asked) this program holds; empty: it can say nothing of any. */
  held: string[];
  /** The files (as the program names them) that depend on the held ones, nearest first. */
  files: string[];
}

/**
 * The files (as the program names them) that depend on `files` (absolute paths), nearest first (breadth first, each
 * level sorted), declaration files left out; the named files are not among them. A named file that is no module (its
 * declarations are global) or augments another module changes what every file sees: then every file of the program.
 * `held` says which of `files` the program holds: of the others it knows nothing (none of its files imports them, but
 * another program's may), which is never an empty list of importers.
 */
export function dependentsOf(ts: Ts, program: TS.Program, files: readonly string[]): ProgramDependents {
  const held = files.filter((file) => program.getSourceFile(file));
  const named = held.map((file) => program.getSourceFile(file) as WithImports);
  if (!named.length) return { held, files: [] };
  const namedNames = new Set(named.map((sourceFile) => sourceFile.fileName));
  const own = (sourceFile: TS.SourceFile) => !sourceFile.isDeclarationFile && !namedNames.has(sourceFile.fileName);
  if (named.some((sourceFile) => !(ts.isExternalModule(sourceFile) || sourceFile.commonJsModuleIndicator) || (sourceFile.moduleAugmentations?.length ?? 0) > 0))
    return {
      held,
      files: program
        .getSourceFiles()
        .filter(own)
        .map((sourceFile) => sourceFile.fileName)
        .sort(),
    };
  const map = importersMap(program);
  const seen = new Set(namedNames);
  const order: string[] = [];
  let level = [...namedNames];
  while (level.length) {
    const next = new Set<string>();
    for (const file of level) for (const importer of map.get(file) ?? []) if (!seen.has(importer)) next.add(importer);
    level = [...next].sort();
    for (const file of level) seen.add(file);
    order.push(...level);
  }
  return { held, files: order.filter((file) => !program.getSourceFile(file)?.isDeclarationFile) };
}
