/** A type-checker a package.json script runs: tsc, tsgo (TypeScript 7) or vue-tsc. */
export type TypeChecker = "tsc" | "tsgo" | "vue-tsc";

/** One type-checker invocation found in a script: which tool, build mode or not, and the configs it names. */
export interface TscInvocation {
  tool: TypeChecker;
  build: boolean;
  /** Config paths as written (relative to the package directory); empty: the package's tsconfig.json. */
  projects: string[];
}

const TOOLS = new Set<string>(["tsc", "tsgo", "vue-tsc"]);
/** Options of tsc -b that take a value (so the value is not mistaken for a project). */
const VALUED = new Set(["--generateTrace", "--declarationDir", "--outDir", "--target", "--module", "--lib", "--jsx", "--rootDir", "--locale"]);

/** Split a script into its commands at shell separators (`&&`, `||`, `;`, `|`, `&`), then into words (quotes removed). */
export function scriptCommands(script: string): string[][] {
  return script
    .split(/&&|\|\||[;|&\n]/)
    .map((command) => (command.match(/"[^"]*"|'[^']*'|\S+/g) ?? []).map((word) => word.replace(/^["']|["']$/g, "")))
    .filter((words) => words.length > 0);
}

/** The command name a word runs: `./node_modules/.bin/tsc` → `tsc`. */
export function commandName(word: string): string {
  return word.split(/[\\/]/).pop() ?? word;
}

/** The tool a word runs (`tsc`, `./node_modules/.bin/tsc`, `vue-tsc`), or null. */
function toolOf(word: string): TypeChecker | null {
  const name = commandName(word);
  return TOOLS.has(name) ? (name as TypeChecker) : null;
}

/** The invocation in one command's words, or null when the command runs no type-checker on a config. */
function invocationOf(words: readonly string[]): TscInvocation | null {
  const at = words.findIndex((word) => toolOf(word) !== null);
  if (at < 0) return null;
  const tool = toolOf(words[at] as string) as TypeChecker;
  const args = words.slice(at + 1);
  const build = args[0] === "-b" || args[0] === "--build";
  const projects: string[] = [];
  for (let index = build ? 1 : 0; index < args.length; index++) {
    const arg = args[index] as string;
    if (arg === "-p" || arg === "--project") {
      const value = args[++index];
      if (value) projects.push(value);
    } else if (arg.startsWith("--project=")) projects.push(arg.slice("--project=".length));
    else if (build && !arg.startsWith("-")) projects.push(arg);
    else if (VALUED.has(arg)) index++;
    // Files named on the command line make a program without any tsconfig: not a config the project checks.
    else if (!build && !arg.startsWith("-") && /\.[cm]?[jt]sx?$/.test(arg)) return null;
    else if (arg === "--help" || arg === "-h" || arg === "--version" || arg === "-v" || arg === "--init" || arg === "--showConfig") return null;
  }
  return { tool, build, projects };
}

/**
 * The type-checker invocations of a package.json script (`tsc -p tsconfig.spec.json && vitest`, `tsc -b a b`,
 * `vue-tsc --noEmit`, `npx tsgo --project x`), in order. Each command of the script is read on its own.
 */
export function tscInvocations(script: string): TscInvocation[] {
  return scriptCommands(script).flatMap((words) => invocationOf(words) ?? []);
}
