// The declarations a TypeScript 7 error is about, asked of tsgo's own checker through its synchronous API (the
// project's program and checker of the snapshot that produced the diagnostics); cause-finder.ts does the reading, so
// the causes (and the cluster texts) are the ones TypeScript 5.x gives. Nodes of TypeScript 7's AST have the shape the
// finder reads; its guards come from the package's AST module.
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type * as TS from "typescript";
import type { IssueCause } from "../core/issues.ts";
import { exactStamp } from "../engines/file-stamp.ts";
import { type CauseEnv, findCauses, type Guards, type RelatedSpan } from "./cause-finder.ts";

/** The subset of TypeScript 7's API objects the causes need (all marked unstable: any mismatch means no cause). */
interface Ts7Handle {
  resolve(project?: Ts7Project): TS.Node | undefined;
}
interface Ts7Symbol {
  flags: number;
  declarations: readonly Ts7Handle[];
  valueDeclaration: Ts7Handle | undefined;
}
interface Ts7Type {
  getSymbol(): Ts7Symbol | undefined;
  getAliasSymbol(): Ts7Symbol | undefined;
}
interface Ts7Checker {
  getSymbolAtLocation(node: TS.Node): Ts7Symbol | undefined;
  getAliasedSymbol(symbol: Ts7Symbol): Ts7Symbol;
  getContextualType(node: TS.Node): Ts7Type | undefined;
  getPropertyOfType(type: Ts7Type, name: string): Ts7Symbol | undefined;
  getResolvedSignature(node: TS.Node): { declaration?: Ts7Handle } | undefined;
  getTypeAtLocation(node: TS.Node): Ts7Type | undefined;
}
/** A project of a TypeScript 7 snapshot: its program and checker. */
export interface Ts7Project {
  program: {
    getSourceFile(file: string): TS.SourceFile | undefined;
    isSourceFileDefaultLibrary(file: TS.SourceFile): boolean;
    isSourceFileFromExternalLibrary(file: TS.SourceFile): boolean;
  };
  checker: Ts7Checker;
}
/** A TypeScript 7 API diagnostic (UTF-16 offsets). */
export interface Ts7CauseDiagnostic {
  fileName?: string;
  pos: number;
  end: number;
  code: number;
  relatedInformation?: readonly { fileName?: string; pos: number; end: number }[];
}

/** What the causes load from a TypeScript 7 package: its AST guards and the alias flag of its symbols. */
export interface Ts7CauseModules {
  is: Guards;
  alias: number;
}

const loaded = new Map<string, Ts7CauseModules | null>();

/** require(esm) where the runtime has it, import() otherwise; after an in-place upgrade, a fresh import (see loadTs7Api). */
async function load(packageDir: string, file: string, fresh: string | null): Promise<Record<string, unknown>> {
  const entry = join(packageDir, "dist", file);
  try {
    if (fresh) throw new Error("load the upgraded module afresh");
    return createRequire(join(packageDir, "package.json"))(entry) as Record<string, unknown>;
  } catch {
    // Not loadable with require (ESM only), or asked afresh: imported instead.
    return (await import(`${pathToFileURL(entry).href}${fresh ? `?${encodeURIComponent(fresh)}` : ""}`)) as Record<string, unknown>;
  }
}

/**
 * The AST guards and symbol flags of the TypeScript 7 package at `packageDir` (cached by its identity, as the API
 * class is: guards test node kinds, which a new version may number differently); null when it has none (no causes).
 */
export async function loadTs7CauseModules(packageDir: string): Promise<Ts7CauseModules | null> {
  const identity = `${packageDir}\0${exactStamp(join(packageDir, "package.json")) ?? "-"}`;
  if (loaded.has(identity)) return loaded.get(identity) ?? null;
  const fresh = [...loaded.keys()].some((key) => key.startsWith(`${packageDir}\0`)) ? identity : null;
  let modules: Ts7CauseModules | null = null;
  try {
    const is = await load(packageDir, join("ast", "is.js"), fresh);
    const api = await load(packageDir, join("api", "sync", "api.js"), fresh);
    const alias = (api.SymbolFlags as Record<string, number> | undefined)?.Alias;
    // TypeScript 7 names three guards by their node type's full name.
    const guards: Record<string, unknown> = {
      ...is,
      isParameter: is.isParameterDeclaration,
      isPropertySignature: is.isPropertySignatureDeclaration,
      isMethodSignature: is.isMethodSignatureDeclaration,
    };
    if (typeof alias === "number" && typeof guards.isParameter === "function" && typeof guards.isStatement === "function")
      modules = { is: guards as unknown as Guards, alias };
  } catch {
    // A TypeScript 7 without these internals: causes are not named.
    modules = null;
  }
  loaded.set(identity, modules);
  return modules;
}

function causeEnv7(modules: Ts7CauseModules, project: Ts7Project, toRelative: (path: string) => string | null): CauseEnv {
  const { checker, program } = project;
  const declarationOf = (symbol: Ts7Symbol | undefined): TS.Node | undefined => {
    if (!symbol) return undefined;
    const target = symbol.flags & modules.alias ? checker.getAliasedSymbol(symbol) : symbol;
    return (target.valueDeclaration ?? target.declarations[0])?.resolve(project);
  };
  const typeDeclaration = (type: Ts7Type | undefined) => declarationOf(type?.getAliasSymbol() ?? type?.getSymbol());
  return {
    is: modules.is,
    forEachChild: (node, visit) => void (node as unknown as { forEachChild(visit: (child: TS.Node) => void): void }).forEachChild(visit),
    isExternal: (file) => program.isSourceFileDefaultLibrary(file) || program.isSourceFileFromExternalLibrary(file),
    toRelative,
    declarationAt: (node) => declarationOf(checker.getSymbolAtLocation(node)),
    contextualProperty: (literal, name) => {
      const contextual = checker.getContextualType(literal);
      const property = contextual && checker.getPropertyOfType(contextual, name);
      return property ? declarationOf(property) : typeDeclaration(contextual);
    },
    signatureDeclaration: (call) => checker.getResolvedSignature(call)?.declaration?.resolve(project),
    typeDeclarationAt: (node) => typeDeclaration(checker.getTypeAtLocation(node)),
    moduleAt: (specifier) => declarationOf(checker.getSymbolAtLocation(specifier)),
  };
}

/**
 * A function giving each diagnostic of one TypeScript 7 project its causes (see cause-finder.ts). Every question is a
 * round trip to tsgo, so past `limit` diagnostics the rest are not asked (undefined: their rule clusters say so).
 * Never throws.
 */
export function ts7CauseReader(
  modules: Ts7CauseModules,
  project: Ts7Project,
  toRelative: (path: string) => string | null,
  limit = 2000,
): (diagnostic: Ts7CauseDiagnostic) => IssueCause[] | undefined {
  const env = causeEnv7(modules, project, toRelative);
  const files = new Map<string, TS.SourceFile | undefined>();
  const file = (name: string) => (files.has(name) ? files.get(name) : files.set(name, project.program.getSourceFile(name)).get(name));
  let asked = 0;
  return (diagnostic) => {
    if (!diagnostic.fileName) return [];
    if (++asked > limit) return undefined;
    try {
      const source = file(diagnostic.fileName);
      if (!source) return [];
      const related: RelatedSpan[] = (diagnostic.relatedInformation ?? []).flatMap((info) => {
        const relatedFile = info.fileName ? file(info.fileName) : undefined;
        return relatedFile ? [{ file: relatedFile, start: info.pos, length: info.end - info.pos }] : [];
      });
      return findCauses(env, { code: diagnostic.code, file: source, start: diagnostic.pos, length: diagnostic.end - diagnostic.pos, related });
    } catch {
      // A tsgo API that throws on this diagnostic: no cause named (never a wrong one).
      return [];
    }
  };
}
