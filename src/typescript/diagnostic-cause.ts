// The declaration a TypeScript error is about, read from the program that produced it: the assignment target's
// property or variable (TS2322), the called function's parameter (TS2345, TS2554), the type that lacks a member
// (TS2339, TS2551), the module an import names (TS2305, TS2614, TS2724), or the declaration the diagnostic's related
// information points at. Pure on (ts, program, diagnostic) so it can run wherever the program lives (a worker too).
import type * as TS from "typescript";
import { causeKey, type IssueCause } from "../core/issues.ts";

type Ts = typeof TS;

const ASSIGNABILITY = new Set([2322, 2326, 2353, 2375, 2559, 2561, 2739, 2740, 2741]);
const ARGUMENT = new Set([2345, 2379]);
const ARITY = new Set([2554, 2555, 2556]);
const MISSING_MEMBER = new Set([2339, 2551]);
const MISSING_EXPORT = new Set([2305, 2459, 2460, 2614, 2724]);

/** Deepest node spanning [start, start + length). */
function nodeAt(ts: Ts, file: TS.SourceFile, start: number, length: number): TS.Node | undefined {
  let found: TS.Node | undefined;
  const visit = (node: TS.Node): void => {
    if (node.getStart(file) <= start && start + length <= node.getEnd()) {
      found = node;
      ts.forEachChild(node, visit);
    }
  };
  ts.forEachChild(file, visit);
  return found;
}

/** The statement at the top of a declaration's file or namespace: the unit an edit changes (interface, function…). */
function topLevel(ts: Ts, node: TS.Node): TS.Node {
  let current = node;
  while (current.parent && !ts.isSourceFile(current.parent) && !ts.isModuleBlock(current.parent)) current = current.parent;
  return current;
}

function nameOf(ts: Ts, node: TS.Node, file: TS.SourceFile): string | null {
  if (ts.isVariableStatement(node)) return nameOf(ts, node.declarationList.declarations[0] as TS.Node, file);
  const name = (node as { name?: TS.Node }).name;
  if (name && (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isPrivateIdentifier(name))) return name.text;
  if (name) return name.getText(file);
  if (ts.isExportAssignment(node) || ts.isFunctionDeclaration(node) || ts.isClassDeclaration(node)) return "default";
  return null;
}

interface Context {
  ts: Ts;
  program: TS.Program;
  checker: TS.TypeChecker;
  toRelative: (path: string) => string | null;
}

/** A cause at a declaration of the project (never the default library or a dependency's types). */
function causeOf(context: Context, declaration: TS.Node | undefined, member?: string): IssueCause | null {
  if (!declaration) return null;
  const { ts, program } = context;
  const source = declaration.getSourceFile();
  if (program.isSourceFileDefaultLibrary(source) || program.isSourceFileFromExternalLibrary(source)) return null;
  const file = context.toRelative(source.fileName);
  if (file === null) return null;
  const top = topLevel(ts, declaration);
  const topName = ts.isSourceFile(declaration) ? null : nameOf(ts, top, source);
  if (!ts.isSourceFile(declaration) && topName === null) return null;
  const lineOf = (node: TS.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  if (ts.isSourceFile(declaration)) return { file, name: file, line: 1, module: true, ...(member ? { member: { name: member, line: 1 } } : {}) };
  const cause: IssueCause = { file, name: topName as string, line: lineOf(top) };
  const memberName = member ?? (declaration !== top ? nameOf(ts, declaration, source) : null);
  if (memberName && memberName !== topName) cause.member = { name: `${cause.name}.${memberName}`, line: lineOf(declaration) };
  return cause;
}

function symbolDeclaration(context: Context, symbol: TS.Symbol | undefined): TS.Declaration | undefined {
  if (!symbol) return undefined;
  const target = symbol.flags & context.ts.SymbolFlags.Alias ? context.checker.getAliasedSymbol(symbol) : symbol;
  return target.valueDeclaration ?? target.declarations?.[0];
}

/** The declaration an expression's value comes from (a property or variable of the project), if any. */
function sourceCause(context: Context, expression: TS.Expression | undefined): IssueCause | null {
  const { ts } = context;
  if (!expression || !(ts.isIdentifier(expression) || ts.isPropertyAccessExpression(expression))) return null;
  const declaration = symbolDeclaration(context, context.checker.getSymbolAtLocation(expression));
  if (!declaration || ts.isParameter(declaration) || (ts.isVariableDeclaration(declaration) && !ts.isSourceFile(topLevel(ts, declaration).parent))) return null;
  const cause = causeOf(context, declaration);
  return cause && { ...cause, role: "source" };
}

/** TS2322 and kin: the property or variable assigned to, and the declaration of the assigned value. */
function assignmentCauses(context: Context, node: TS.Node): (IssueCause | null)[] {
  const { ts, checker } = context;
  const parent = node.parent;
  if (parent && (ts.isPropertyAssignment(parent) || ts.isShorthandPropertyAssignment(parent)) && parent.name === node) {
    const literal = parent.parent;
    const contextual = checker.getContextualType(literal as TS.Expression);
    const property = contextual?.getProperty(parent.name.getText());
    const target = property ? symbolDeclaration(context, property) : symbolDeclaration(context, contextual?.aliasSymbol ?? contextual?.getSymbol());
    return [causeOf(context, target), ts.isPropertyAssignment(parent) ? sourceCause(context, parent.initializer) : null];
  }
  if (parent && ts.isBinaryExpression(parent) && parent.left === node) {
    return [causeOf(context, symbolDeclaration(context, checker.getSymbolAtLocation(node))), sourceCause(context, parent.right)];
  }
  if (parent && ts.isJsxAttribute(parent)) return [causeOf(context, symbolDeclaration(context, checker.getSymbolAtLocation(parent.name)))];
  if (parent && ts.isVariableDeclaration(parent) && parent.name === node) {
    const annotation = parent.type;
    const declared =
      annotation && ts.isTypeReferenceNode(annotation) ? symbolDeclaration(context, checker.getSymbolAtLocation(annotation.typeName)) : undefined;
    return [causeOf(context, declared), sourceCause(context, parent.initializer)];
  }
  return [];
}

function enclosingCall(ts: Ts, node: TS.Node): TS.CallExpression | TS.NewExpression | undefined {
  for (let current: TS.Node | undefined = node; current; current = current.parent) {
    if (ts.isCallExpression(current) || ts.isNewExpression(current)) return current;
    if (ts.isStatement(current)) return undefined;
  }
  return undefined;
}

/** TS2345/TS2554: the called function (the parameter, when one argument is wrong) and the argument's declaration. */
function callCauses(context: Context, node: TS.Node, code: number): (IssueCause | null)[] {
  const { ts, checker } = context;
  const call = enclosingCall(ts, node);
  if (!call) return [];
  const declaration = checker.getResolvedSignature(call)?.getDeclaration() ?? symbolDeclaration(context, checker.getSymbolAtLocation(call.expression));
  if (!declaration || !ARGUMENT.has(code)) return [causeOf(context, declaration)];
  const argument = call.arguments?.find((candidate) => candidate.getStart() <= node.getStart() && node.getEnd() <= candidate.getEnd());
  const index = argument ? (call.arguments?.indexOf(argument) ?? -1) : -1;
  const parameters = (declaration as TS.SignatureDeclaration).parameters ?? [];
  const parameter = parameters[Math.min(index, parameters.length - 1)];
  const function_ = causeOf(context, declaration);
  if (function_ && parameter && index >= 0) {
    const line = parameter.getSourceFile().getLineAndCharacterOfPosition(parameter.getStart()).line + 1;
    function_.member = { name: `${function_.member?.name ?? function_.name}(${parameter.name.getText()})`, line };
  }
  return [function_, sourceCause(context, argument)];
}

/** TS2339/TS2551: the declared type that lacks the member. */
function memberCauses(context: Context, node: TS.Node): (IssueCause | null)[] {
  const { ts, checker } = context;
  const access = node.parent;
  if (!access || !(ts.isPropertyAccessExpression(access) || ts.isQualifiedName(access))) return [];
  const object = ts.isPropertyAccessExpression(access) ? access.expression : access.left;
  const type = checker.getTypeAtLocation(object);
  return [causeOf(context, symbolDeclaration(context, type.aliasSymbol ?? type.getSymbol()))];
}

/** TS2305 and kin: the module an import names, with the missing export as the member. */
function exportCauses(context: Context, node: TS.Node): (IssueCause | null)[] {
  const { ts, checker } = context;
  let declaration: TS.Node | undefined = node;
  while (declaration && !ts.isImportDeclaration(declaration) && !ts.isExportDeclaration(declaration)) declaration = declaration.parent;
  const specifier = declaration && (declaration as TS.ImportDeclaration | TS.ExportDeclaration).moduleSpecifier;
  if (!specifier || !ts.isIdentifier(node)) return [];
  const module = checker.getSymbolAtLocation(specifier);
  const source = module?.valueDeclaration;
  if (!source || !ts.isSourceFile(source)) return [];
  return [causeOf(context, source, node.text)];
}

/** The declaration the first related-information entry points at ("'x' is declared here", "The expected type comes from…"). */
function relatedCause(context: Context, diagnostic: TS.Diagnostic): IssueCause | null {
  for (const related of diagnostic.relatedInformation ?? []) {
    if (!related.file || related.start === undefined) continue;
    // Only a span that is a declaration or its name ("'x' is declared here"), never an expression inside one.
    const node = nodeAt(context.ts, related.file, related.start, related.length ?? 0);
    const isDeclaration = (candidate: TS.Node | undefined) =>
      candidate && (context.ts.isDeclarationStatement(candidate) || isMemberDeclaration(context.ts, candidate));
    const named = node?.parent && isDeclaration(node.parent) && (node.parent as { name?: TS.Node }).name === node ? node.parent : undefined;
    const cause = causeOf(context, named ?? (isDeclaration(node) ? node : undefined));
    if (cause) return cause;
  }
  return null;
}

function isMemberDeclaration(ts: Ts, node: TS.Node): boolean {
  return ts.isPropertySignature(node) || ts.isPropertyDeclaration(node) || ts.isMethodSignature(node) || ts.isMethodDeclaration(node) || ts.isParameter(node);
}

/**
 * The declarations one diagnostic is about, most specific first (the target, then where the offending value comes
 * from); empty when nothing in the project explains it. Never throws: a failure means no cause.
 */
export function diagnosticCauses(ts: Ts, program: TS.Program, diagnostic: TS.Diagnostic, toRelative: (path: string) => string | null): IssueCause[] {
  if (!diagnostic.file || diagnostic.start === undefined) return [];
  try {
    const file = program.getSourceFile(diagnostic.file.fileName) ?? diagnostic.file;
    const node = nodeAt(ts, file, diagnostic.start, diagnostic.length ?? 0);
    if (!node) return [];
    const context: Context = { ts, program, checker: program.getTypeChecker(), toRelative };
    const code = diagnostic.code;
    let found: (IssueCause | null)[] = [];
    if (MISSING_EXPORT.has(code)) found = exportCauses(context, node);
    else if (MISSING_MEMBER.has(code)) found = memberCauses(context, node);
    else if (ARGUMENT.has(code) || ARITY.has(code)) found = callCauses(context, node, code);
    else if (ASSIGNABILITY.has(code)) found = [relatedCause(context, diagnostic), ...assignmentCauses(context, node)];
    else found = [relatedCause(context, diagnostic)];
    const here = (cause: IssueCause) =>
      cause.file === toRelative(file.fileName) &&
      (cause.member?.line ?? cause.line) === file.getLineAndCharacterOfPosition(diagnostic.start as number).line + 1;
    const unique = new Map<string, IssueCause>();
    // A declaration at the error's own line is that site's own business, not a cause other sites share.
    for (const cause of found) if (cause && !here(cause) && !unique.has(causeKey(cause))) unique.set(causeKey(cause), cause);
    return [...unique.values()];
  } catch {
    return [];
  }
}
