// The declarations a TypeScript error is about, found the same way whichever compiler produced it: the syntax around
// the error and a few checker questions (what a name refers to, the contextual type, the called signature, the type
// of an expression), asked through a CauseEnv that TypeScript 5.x/6.x (diagnostic-cause.ts) and TypeScript 7
// (diagnostic-cause7.ts) each implement. Written against TypeScript 5.x's node types; TypeScript 7's nodes have the
// same shape (kind, parent, name, getStart, getText) and its own guards.
import type * as TS from "typescript";
import { causeKey, type IssueCause } from "../core/issues.ts";

/** The node guards the finder uses (TypeScript's own `ts.isX`, or TypeScript 7's from its AST module). */
export interface Guards {
  isSourceFile(node: TS.Node): node is TS.SourceFile;
  isModuleBlock(node: TS.Node): node is TS.ModuleBlock;
  isVariableStatement(node: TS.Node): node is TS.VariableStatement;
  isVariableDeclaration(node: TS.Node): node is TS.VariableDeclaration;
  isIdentifier(node: TS.Node): node is TS.Identifier;
  isStringLiteral(node: TS.Node): node is TS.StringLiteral;
  isPrivateIdentifier(node: TS.Node): node is TS.PrivateIdentifier;
  isExportAssignment(node: TS.Node): node is TS.ExportAssignment;
  isFunctionDeclaration(node: TS.Node): node is TS.FunctionDeclaration;
  isClassDeclaration(node: TS.Node): node is TS.ClassDeclaration;
  isInterfaceDeclaration(node: TS.Node): node is TS.InterfaceDeclaration;
  isTypeAliasDeclaration(node: TS.Node): node is TS.TypeAliasDeclaration;
  isEnumDeclaration(node: TS.Node): node is TS.EnumDeclaration;
  isEnumMember(node: TS.Node): node is TS.EnumMember;
  isParameter(node: TS.Node): node is TS.ParameterDeclaration;
  isPropertySignature(node: TS.Node): node is TS.PropertySignature;
  isPropertyDeclaration(node: TS.Node): node is TS.PropertyDeclaration;
  isMethodSignature(node: TS.Node): node is TS.MethodSignature;
  isMethodDeclaration(node: TS.Node): node is TS.MethodDeclaration;
  isPropertyAccessExpression(node: TS.Node): node is TS.PropertyAccessExpression;
  isPropertyAssignment(node: TS.Node): node is TS.PropertyAssignment;
  isShorthandPropertyAssignment(node: TS.Node): node is TS.ShorthandPropertyAssignment;
  isBinaryExpression(node: TS.Node): node is TS.BinaryExpression;
  isParenthesizedExpression(node: TS.Node): node is TS.ParenthesizedExpression;
  isReturnStatement(node: TS.Node): node is TS.ReturnStatement;
  isJsxAttribute(node: TS.Node): node is TS.JsxAttribute;
  isTypeReferenceNode(node: TS.Node): node is TS.TypeReferenceNode;
  isCallExpression(node: TS.Node): node is TS.CallExpression;
  isNewExpression(node: TS.Node): node is TS.NewExpression;
  isStatement(node: TS.Node): node is TS.Statement;
  isQualifiedName(node: TS.Node): node is TS.QualifiedName;
  isImportDeclaration(node: TS.Node): node is TS.ImportDeclaration;
  isExportDeclaration(node: TS.Node): node is TS.ExportDeclaration;
}

/** What the finder asks the compiler; every declaration comes back alias-followed, undefined when unknown. */
export interface CauseEnv {
  is: Guards;
  forEachChild(node: TS.Node, visit: (child: TS.Node) => void): void;
  /** A file of the default library or a dependency (never a cause). */
  isExternal(file: TS.SourceFile): boolean;
  toRelative(path: string): string | null;
  /** The declaration a name or expression refers to. */
  declarationAt(node: TS.Node): TS.Node | undefined;
  /** The declaration of property `name` of an object literal's contextual type, else of that type itself. */
  contextualProperty(literal: TS.Node, name: string): TS.Node | undefined;
  /** The declaration of the signature a call or `new` resolved to. */
  signatureDeclaration(call: TS.Node): TS.Node | undefined;
  /** The declaration of an expression's type (its alias, else its symbol: an interface, class, enum or alias). */
  typeDeclarationAt(node: TS.Node): TS.Node | undefined;
  /** The source file a module specifier names. */
  moduleAt(specifier: TS.Node): TS.Node | undefined;
}

const ASSIGNABILITY = new Set([2322, 2326, 2353, 2375, 2559, 2561, 2739, 2740, 2741]);
const ARGUMENT = new Set([2345, 2379]);
const ARITY = new Set([2554, 2555, 2556]);
const OVERLOAD = new Set([2769]);
const COMPARISON = new Set([2365, 2367]);
const MISSING_MEMBER = new Set([2339, 2551]);
const MISSING_EXPORT = new Set([2305, 2459, 2460, 2614, 2724]);

/** Deepest node spanning [start, start + length). */
export function nodeAt(env: CauseEnv, file: TS.SourceFile, start: number, length: number): TS.Node | undefined {
  let found: TS.Node | undefined;
  const visit = (node: TS.Node): void => {
    if (node.getStart(file) <= start && start + length <= node.getEnd()) {
      found = node;
      env.forEachChild(node, visit);
    }
  };
  env.forEachChild(file, visit);
  return found;
}

/** The statement at the top of a declaration's file or namespace: the unit an edit changes (interface, function…). */
function topLevel(env: CauseEnv, node: TS.Node): TS.Node {
  let current = node;
  while (current.parent && !env.is.isSourceFile(current.parent) && !env.is.isModuleBlock(current.parent)) current = current.parent;
  return current;
}

function nameOf(env: CauseEnv, node: TS.Node, file: TS.SourceFile): string | null {
  const { is } = env;
  if (is.isVariableStatement(node)) return nameOf(env, node.declarationList.declarations[0] as TS.Node, file);
  const name = (node as { name?: TS.Node }).name;
  if (name && (is.isIdentifier(name) || is.isStringLiteral(name) || is.isPrivateIdentifier(name))) return name.text;
  if (name) return name.getText(file);
  if (is.isExportAssignment(node) || is.isFunctionDeclaration(node) || is.isClassDeclaration(node)) return "default";
  return null;
}

function lineOf(node: TS.Node, source: TS.SourceFile): number {
  return source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
}

/** A member of a declaration: the level a cause is named at when the error reaches one. */
function isMember(env: CauseEnv, node: TS.Node): boolean {
  const { is } = env;
  return (
    is.isPropertySignature(node) ||
    is.isPropertyDeclaration(node) ||
    is.isMethodSignature(node) ||
    is.isMethodDeclaration(node) ||
    is.isParameter(node) ||
    is.isEnumMember(node)
  );
}

/** A cause at a declaration of the project (never the default library or a dependency's types). */
function causeOf(env: CauseEnv, declaration: TS.Node | undefined, options: { member?: string; absent?: string } = {}): IssueCause | null {
  if (!declaration) return null;
  const source = declaration.getSourceFile();
  if (env.isExternal(source)) return null;
  const file = env.toRelative(source.fileName);
  if (file === null) return null;
  if (env.is.isSourceFile(declaration)) {
    return { file, name: file, line: 1, module: true, ...(options.member ? { member: { name: options.member, line: 1 } } : {}) };
  }
  const top = topLevel(env, declaration);
  const topName = nameOf(env, top, source);
  if (topName === null) return null;
  const cause: IssueCause = { file, name: topName, line: lineOf(top, source) };
  if (options.absent) cause.absent = options.absent;
  // A member's own name and line, prefixed by what holds it (`AppConfig.port`, `Color.Red`, `Queue.push`).
  const memberName = declaration !== top && isMember(env, declaration) ? nameOf(env, declaration, source) : null;
  if (memberName && memberName !== topName) cause.member = { name: `${cause.name}.${memberName}`, line: lineOf(declaration, source) };
  return cause;
}

/** The declaration an expression's value comes from (a property or module-level variable of the project), if any. */
function sourceCause(env: CauseEnv, expression: TS.Node | undefined): IssueCause | null {
  const { is } = env;
  if (!expression || !(is.isIdentifier(expression) || is.isPropertyAccessExpression(expression))) return null;
  const declaration = env.declarationAt(expression);
  if (!declaration || is.isParameter(declaration)) return null;
  if (is.isVariableDeclaration(declaration) && !is.isSourceFile(topLevel(env, declaration).parent)) return null;
  const cause = causeOf(env, declaration);
  return cause && { ...cause, role: "source" };
}

/** The named type (alias, interface, enum) an expression's value has: the shared cause when a type was widened. */
function typeCause(env: CauseEnv, expression: TS.Node | undefined): IssueCause | null {
  if (!expression) return null;
  const declaration = env.typeDeclarationAt(expression);
  if (!declaration || !(env.is.isTypeAliasDeclaration(declaration) || env.is.isEnumDeclaration(declaration))) return null;
  const cause = causeOf(env, declaration);
  return cause && { ...cause, role: "source" };
}

/** Where a value comes from: the expression itself, else the operands of arithmetic or a parenthesized expression. */
function valueCauses(env: CauseEnv, expression: TS.Node | undefined, depth = 0): (IssueCause | null)[] {
  const { is } = env;
  if (!expression || depth > 3) return [];
  if (is.isParenthesizedExpression(expression)) return valueCauses(env, expression.expression, depth + 1);
  if (is.isBinaryExpression(expression)) return [...valueCauses(env, expression.left, depth + 1), ...valueCauses(env, expression.right, depth + 1)];
  return [sourceCause(env, expression), typeCause(env, expression)];
}

/** TS2322 and kin: the property or variable assigned to, and the declaration of the assigned value. */
function assignmentCauses(env: CauseEnv, node: TS.Node): (IssueCause | null)[] {
  const { is } = env;
  const parent = node.parent;
  if (parent && (is.isPropertyAssignment(parent) || is.isShorthandPropertyAssignment(parent)) && parent.name === node) {
    const name = parent.name.getText();
    const target = env.contextualProperty(parent.parent, name);
    // A property the contextual type lacks (TS2353) is about that missing member, as a TS2339 reading it is.
    const cause = causeOf(env, target, target && isMember(env, target) ? {} : { absent: name });
    return [cause, ...(is.isPropertyAssignment(parent) ? valueCauses(env, parent.initializer) : [])];
  }
  if (parent && is.isBinaryExpression(parent) && parent.left === node) return [causeOf(env, env.declarationAt(node)), ...valueCauses(env, parent.right)];
  if (parent && is.isJsxAttribute(parent)) return [causeOf(env, env.declarationAt(parent.name))];
  if (parent && is.isVariableDeclaration(parent) && parent.name === node) {
    const annotation = parent.type;
    const declared = annotation && is.isTypeReferenceNode(annotation) ? env.declarationAt(annotation.typeName) : undefined;
    return [causeOf(env, declared), ...valueCauses(env, parent.initializer)];
  }
  if (parent && is.isReturnStatement(parent)) return valueCauses(env, node);
  if (is.isReturnStatement(node)) return valueCauses(env, node.expression);
  return valueCauses(env, node);
}

function enclosingCall(env: CauseEnv, node: TS.Node): TS.CallExpression | TS.NewExpression | undefined {
  for (let current: TS.Node | undefined = node; current; current = current.parent) {
    if (env.is.isCallExpression(current) || env.is.isNewExpression(current)) return current;
    if (env.is.isStatement(current)) return undefined;
  }
  return undefined;
}

/** TS2345/TS2554/TS2769: the called function (the parameter, when one argument is wrong) and the argument's declaration. */
function callCauses(env: CauseEnv, node: TS.Node, code: number): (IssueCause | null)[] {
  const call = enclosingCall(env, node);
  if (!call) return [];
  const declaration = env.signatureDeclaration(call) ?? env.declarationAt(call.expression);
  if (!declaration || !ARGUMENT.has(code)) return [causeOf(env, declaration)];
  const argument = call.arguments?.find((candidate) => candidate.getStart() <= node.getStart() && node.getEnd() <= candidate.getEnd());
  const index = argument ? (call.arguments?.indexOf(argument) ?? -1) : -1;
  const parameters = (declaration as TS.SignatureDeclaration).parameters ?? [];
  const parameter = parameters[Math.min(index, parameters.length - 1)];
  const function_ = causeOf(env, declaration);
  if (function_ && parameter && index >= 0) {
    const line = lineOf(parameter, parameter.getSourceFile());
    function_.member = { name: `${function_.member?.name ?? function_.name}(${parameter.name.getText()})`, line };
  }
  return [function_, ...valueCauses(env, argument)];
}

/** TS2339/TS2551: the declared type that lacks the member, with the member it lacks (its own cause per member). */
function memberCauses(env: CauseEnv, node: TS.Node): (IssueCause | null)[] {
  const { is } = env;
  const access = node.parent;
  if (!access || !(is.isPropertyAccessExpression(access) || is.isQualifiedName(access))) return [];
  const object = is.isPropertyAccessExpression(access) ? access.expression : access.left;
  const missing = is.isPropertyAccessExpression(access) ? access.name.getText() : access.right.getText();
  const declaration = env.typeDeclarationAt(object) ?? env.declarationAt(object);
  return [causeOf(env, declaration && is.isVariableDeclaration(declaration) ? undefined : declaration, { absent: missing })];
}

/** TS2305 and kin: the module an import names, with the missing export as the member. */
function exportCauses(env: CauseEnv, node: TS.Node): (IssueCause | null)[] {
  const { is } = env;
  let declaration: TS.Node | undefined = node;
  while (declaration && !is.isImportDeclaration(declaration) && !is.isExportDeclaration(declaration)) declaration = declaration.parent;
  const specifier = declaration && (declaration as TS.ImportDeclaration | TS.ExportDeclaration).moduleSpecifier;
  if (!specifier || !is.isIdentifier(node)) return [];
  const source = env.moduleAt(specifier);
  if (!source || !is.isSourceFile(source)) return [];
  return [causeOf(env, source, { member: node.text })];
}

/** A declaration span in related information ("'x' is declared here", "The expected type comes from…"). */
export interface RelatedSpan {
  file: TS.SourceFile;
  start: number;
  length: number;
}

/** The declaration the first related-information entry that names one points at. */
function relatedCause(env: CauseEnv, related: readonly RelatedSpan[]): IssueCause | null {
  const { is } = env;
  const isDeclaration = (candidate: TS.Node | undefined) =>
    candidate !== undefined &&
    (isMember(env, candidate) ||
      is.isFunctionDeclaration(candidate) ||
      is.isClassDeclaration(candidate) ||
      is.isInterfaceDeclaration(candidate) ||
      is.isTypeAliasDeclaration(candidate) ||
      is.isEnumDeclaration(candidate) ||
      is.isVariableDeclaration(candidate));
  for (const span of related) {
    // Only a span that is a declaration or its name ("'x' is declared here"), never an expression inside one.
    const node = nodeAt(env, span.file, span.start, span.length);
    const named = node?.parent && isDeclaration(node.parent) && (node.parent as { name?: TS.Node }).name === node ? node.parent : undefined;
    const declaration = named ?? (isDeclaration(node) ? node : undefined);
    if (declaration && is.isVariableDeclaration(declaration) && !is.isSourceFile(topLevel(env, declaration).parent)) continue;
    const cause = causeOf(env, declaration);
    if (cause) return cause;
  }
  return null;
}

/** One diagnostic as the finder reads it: its code, file, span and related information. */
export interface FoundDiagnostic {
  code: number;
  file: TS.SourceFile;
  start: number;
  length: number;
  related: readonly RelatedSpan[];
}

/**
 * The declarations one diagnostic is about, most specific first (the target, then where the offending value comes
 * from, then the named type of that value); empty when nothing in the project explains it. Never throws.
 */
export function findCauses(env: CauseEnv, diagnostic: FoundDiagnostic): IssueCause[] {
  try {
    const { file, code } = diagnostic;
    const node = nodeAt(env, file, diagnostic.start, diagnostic.length);
    if (!node) return [];
    let found: (IssueCause | null)[] = [];
    if (MISSING_EXPORT.has(code)) found = exportCauses(env, node);
    else if (MISSING_MEMBER.has(code)) found = memberCauses(env, node);
    else if (ARGUMENT.has(code) || ARITY.has(code)) found = callCauses(env, node, code);
    else if (OVERLOAD.has(code)) found = [relatedCause(env, diagnostic.related), ...callCauses(env, node, code)];
    else if (COMPARISON.has(code)) found = env.is.isBinaryExpression(node) ? [...valueCauses(env, node.left), ...valueCauses(env, node.right)] : [];
    else if (ASSIGNABILITY.has(code)) found = [relatedCause(env, diagnostic.related), ...assignmentCauses(env, node)];
    else found = [relatedCause(env, diagnostic.related)];
    const relative = env.toRelative(file.fileName);
    const line = file.getLineAndCharacterOfPosition(diagnostic.start).line + 1;
    // A declaration at the error's own line is that site's own business, not a cause other sites share.
    const here = (cause: IssueCause) => cause.file === relative && (cause.member?.line ?? cause.line) === line;
    const unique = new Map<string, IssueCause>();
    for (const cause of found) if (cause && !here(cause) && !unique.has(causeKey(cause))) unique.set(causeKey(cause), cause);
    return [...unique.values()];
  } catch {
    // A compiler API that throws on this node: no cause named (never a wrong one).
    return [];
  }
}
