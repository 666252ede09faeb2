import type { EngineName } from "./contracts.ts";

/** tsc codes that mean the same as a linter rule, so the two reports of one problem can be merged. */
const TSC_EQUIVALENTS: Record<string, string> = {
  TS6133: "no-unused-vars",
  TS6196: "no-unused-vars",
  TS6192: "no-unused-vars",
  TS6198: "no-unused-vars",
  TS6138: "no-unused-vars",
  TS7027: "no-unreachable",
  TS1117: "no-dupe-keys",
  TS2300: "no-redeclare",
};

/** Biome rule names whose ESLint counterpart is not just the kebab-cased name. */
const BIOME_EQUIVALENTS: Record<string, string> = {
  noUnusedVariables: "no-unused-vars",
  noUnusedImports: "no-unused-vars",
  noDoubleEquals: "eqeqeq",
  useConst: "prefer-const",
  noEmptyBlockStatements: "no-empty",
  noDuplicateObjectKeys: "no-dupe-keys",
  noDuplicateCase: "no-duplicate-case",
  noConstantCondition: "no-constant-condition",
  noUnsafeFinally: "no-unsafe-finally",
  noSparseArray: "no-sparse-arrays",
  noGlobalAssign: "no-global-assign",
  useIsNan: "use-isnan",
  noExplicitAny: "no-explicit-any",
  noNonNullAssertion: "no-non-null-assertion",
};

function kebab(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase();
}

/**
 * The engine-neutral name of a rule: "eslint(no-unused-vars)", "@typescript-eslint/no-unused-vars",
 * "lint/correctness/noUnusedVariables" and tsc's TS6133 all become "no-unused-vars".
 */
export function canonicalRule(engine: EngineName, rule: string): string {
  if (engine === "tsc") return TSC_EQUIVALENTS[rule] ?? rule;
  if (engine === "biome") {
    const name = rule.split("/").pop() ?? rule;
    return BIOME_EQUIVALENTS[name] ?? kebab(name);
  }
  const oxc = /^[\w-]+\((.+)\)$/.exec(rule);
  const bare = oxc ? (oxc[1] as string) : rule;
  const slash = bare.lastIndexOf("/");
  return slash >= 0 ? bare.slice(slash + 1) : bare;
}
