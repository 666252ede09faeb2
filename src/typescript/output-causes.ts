// A referenced project's program (tsc -b, warm solutions) sees its references through the declarations they emit, so
// a cause found there is at a line of an emitted `.d.ts`. The user edits the source that declaration came from: the
// cause moves to that file and to the line of the same declaration (and member) there.
import type * as TS from "typescript";
import type { IssueCause } from "../core/issues.ts";

type Ts = typeof TS;

/** The program's own map from a reference's output declaration file to its source (TypeScript 5.x/6.x internals). */
interface RedirectProgram {
  getRedirectFromOutput?(path: string): { source?: string } | undefined;
}

function declarationName(ts: Ts, node: TS.Node): string | undefined {
  if (ts.isVariableStatement(node)) return declarationName(ts, node.declarationList.declarations[0] as TS.Node);
  const name = (node as { name?: TS.Node }).name;
  return name && (ts.isIdentifier(name) || ts.isStringLiteral(name)) ? name.text : undefined;
}

/** The line of the declaration `name` (and of its member, `Type.member` or `fn(param)`) in a parsed source file. */
function relocate(ts: Ts, source: TS.SourceFile, cause: IssueCause): IssueCause | null {
  const lineOf = (node: TS.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const top = source.statements.find((statement) => declarationName(ts, statement) === cause.name);
  if (!top) return null;
  const moved: IssueCause = { ...cause, line: lineOf(top) };
  if (!cause.member) return moved;
  const rest = cause.member.name.slice(cause.name.length);
  const wanted = rest.startsWith(".") ? rest.slice(1) : rest.startsWith("(") ? rest.slice(1, -1) : undefined;
  let member: TS.Node | undefined;
  const visit = (node: TS.Node): void => {
    if (member) return;
    if (node !== top && declarationName(ts, node) === wanted) member = node;
    else ts.forEachChild(node, visit);
  };
  visit(top);
  return member ? { ...moved, member: { ...cause.member, line: lineOf(member) } } : null;
}

/**
 * Causes at a reference's emitted declarations, moved to their source files (absolute names in, absolute names out);
 * a cause whose source or declaration cannot be found is dropped rather than pointing into an output file.
 */
export function causesAtSources(ts: Ts, program: TS.Program, causes: readonly IssueCause[]): IssueCause[] {
  const redirects = program as unknown as RedirectProgram;
  const sources = new Map<string, TS.SourceFile | null>();
  return causes.flatMap((cause) => {
    const output = program.getSourceFile(cause.file);
    if (!output?.isDeclarationFile || !redirects.getRedirectFromOutput) return [cause];
    const redirect = redirects.getRedirectFromOutput((output as unknown as { resolvedPath: string }).resolvedPath);
    if (!redirect?.source) return [cause];
    const path = redirect.source;
    if (!sources.has(path)) {
      const text = ts.sys.readFile(path);
      sources.set(path, text === undefined ? null : ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true));
    }
    const source = sources.get(path);
    if (!source) return [];
    if (cause.module) return [{ ...cause, file: path, name: path }];
    const moved = relocate(ts, source, cause);
    return moved ? [{ ...moved, file: path }] : [];
  });
}
