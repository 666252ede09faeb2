import { workspaceRun, type WorkspaceRun } from "./workspace-runs.ts";

/** A type-checker a package.json script runs: tsc, tsgo (TypeScript 7), vue-tsc or svelte-check. */
export type TypeChecker = "tsc" | "tsgo" | "vue-tsc" | "svelte-check";

/** One type-checker invocation found in a script: which tool, build mode or not, and the configs it names. */
export interface TscInvocation {
  tool: TypeChecker;
  build: boolean;
  /** Config paths as written (relative to the package directory); empty: the package's tsconfig.json. */
  projects: string[];
  /** Set when a workspace runner runs it in packages (`pnpm -r exec tsc`): in each package it selects, not where the script runs. */
  packages?: WorkspaceRun;
}

const TOOLS = new Set<string>(["tsc", "tsgo", "vue-tsc", "svelte-check"]);
/** svelte-check options that take a value (`--tsconfig` and `--workspace` name the program; the rest are skipped). */
const SVELTE_VALUED = new Set(["--output", "--threshold", "--compiler-warnings", "--diagnostic-sources", "--ignore", "--config"]);
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
  const packages = workspaceRun(words.slice(0, at));
  const invocation = tool === "svelte-check" ? svelteCheckInvocation(args) : compilerInvocation(tool, args);
  return invocation && packages ? { ...invocation, packages } : invocation;
}

/** A tsc, tsgo or vue-tsc command's arguments: build mode and the configs they name. */
function compilerInvocation(tool: TypeChecker, args: readonly string[]): TscInvocation | null {
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
 * A svelte-check command: the program of `--tsconfig <config>`, else the tsconfig.json it finds from `--workspace`
 * (else the package directory) upward. `--no-tsconfig` checks .svelte files without a program, `--watch` never ends:
 * neither is a program Signalint runs.
 */
function svelteCheckInvocation(args: readonly string[]): TscInvocation | null {
  let tsconfig: string | null = null;
  let workspace: string | null = null;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    const [name, inline] = arg.startsWith("--") && arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, null];
    const value = () => inline ?? args[++index] ?? null;
    if (name === "--tsconfig") tsconfig = value();
    else if (name === "--workspace") workspace = value();
    else if (SVELTE_VALUED.has(name)) value();
    else if (["--no-tsconfig", "--watch", "--help", "-h", "--version", "-v"].includes(name)) return null;
  }
  // --tsconfig is relative to the workspace (svelte-check --help).
  const project = tsconfig !== null && workspace !== null && !/^([\\/]|[A-Za-z]:)/.test(tsconfig) ? `${workspace}/${tsconfig}` : (tsconfig ?? workspace);
  return { tool: "svelte-check", build: false, projects: project === null ? [] : [project] };
}

/**
 * The type-checker invocations of a package.json script (`tsc -p tsconfig.spec.json && vitest`, `tsc -b a b`,
 * `vue-tsc --noEmit`, `npx tsgo --project x`), in order. Each command of the script is read on its own.
 */
export function tscInvocations(script: string): TscInvocation[] {
  return scriptCommands(script).flatMap((words) => invocationOf(words) ?? []);
}

/** A vitest run that type-checks (`vitest --typecheck`, `--typecheck.only`): its `--typecheck.tsconfig`, if given. */
export interface VitestTypecheck {
  tsconfig: string | null;
}

/** Words that may stand before a command without being it: runners (`npx`, `pnpm exec`, `bunx`), their flags, env. */
const RUNNERS = new Set(["npx", "pnpx", "bunx", "pnpm", "yarn", "bun", "exec", "dlx", "x", "-y", "--yes", "--no-install", "cross-env", "--"]);

/**
 * The vitest commands of a script that type-check: `--typecheck`, `--typecheck.only` or `--typecheck.enabled` on the
 * command line, or any vitest run when its config enables type-checking (`configEnabled`); `--typecheck=false` and
 * `--no-typecheck` turn it off. Only `vitest` as the command counts (`pnpm --filter vitest build` is not a run).
 * Vitest runs the checker (tsc) on `typecheck.tsconfig`, else on the tsconfig.json its root finds.
 */
export function vitestTypechecks(script: string, configEnabled: boolean): VitestTypecheck[] {
  const out: VitestTypecheck[] = [];
  for (const words of scriptCommands(script)) {
    const at = words.findIndex((word) => !RUNNERS.has(word) && !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word));
    if (at < 0 || commandName(words[at] as string) !== "vitest") continue;
    const args = words.slice(at + 1);
    let typecheck = configEnabled;
    let tsconfig: string | null = null;
    for (let index = 0; index < args.length; index++) {
      const arg = args[index] as string;
      if (/^--typecheck(\.only|\.enabled)?(=true)?$/.test(arg)) typecheck = true;
      else if (/^--typecheck(\.enabled)?=false$/.test(arg) || arg === "--no-typecheck") typecheck = false;
      else if (arg === "--typecheck.tsconfig") tsconfig = args[++index] ?? null;
      else if (arg.startsWith("--typecheck.tsconfig=")) tsconfig = arg.slice("--typecheck.tsconfig=".length);
    }
    if (typecheck) out.push({ tsconfig });
  }
  return out;
}

/**
 * What a vitest config file's text says of type-checking (`test.typecheck` in vitest.config.* / vite.config.*): the
 * tsconfig it names and whether it enables type-checking on every run. Read from the text (the config is a module
 * Signalint does not run): comments dropped, the `typecheck: { … }` object taken to its matching brace (strings, such
 * as an `include` glob's `{test,spec}`, skipped), then a literal `tsconfig: '…'` and `enabled: true` in it.
 */
export function vitestTypecheckConfig(text: string): { tsconfig: string | null; enabled: boolean } {
  const code = withoutComments(text);
  const start = /\btypecheck\s*:\s*\{/.exec(code);
  if (!start) return { tsconfig: null, enabled: false };
  let depth = 0;
  let end = code.length;
  for (let index = start.index + start[0].length - 1; index < code.length; index++) {
    const char = code[index] as string;
    if (char === '"' || char === "'" || char === "`") index = stringEnd(code, index);
    else if (char === "{") depth++;
    else if (char === "}" && --depth === 0) {
      end = index;
      break;
    }
  }
  const block = code.slice(start.index, end);
  const tsconfig = /\btsconfig\s*:\s*(["'`])([^"'`]+)\1/.exec(block)?.[2] ?? null;
  return { tsconfig, enabled: /\benabled\s*:\s*true\b/.test(block) };
}

/** The index of the quote closing the string that starts at `at` (escapes skipped). */
function stringEnd(code: string, at: number): number {
  const quote = code[at];
  for (let index = at + 1; index < code.length; index++) {
    if (code[index] === "\\") index++;
    else if (code[index] === quote) return index;
  }
  return code.length;
}

/** JavaScript text without its comments (strings kept as they are). */
function withoutComments(text: string): string {
  let out = "";
  for (let index = 0; index < text.length; index++) {
    const char = text[index] as string;
    if (char === '"' || char === "'" || char === "`") {
      const end = stringEnd(text, index);
      out += text.slice(index, end + 1);
      index = end;
    } else if (char === "/" && text[index + 1] === "/") index = text.indexOf("\n", index) < 0 ? text.length : text.indexOf("\n", index) - 1;
    else if (char === "/" && text[index + 1] === "*") index = text.indexOf("*/", index + 2) < 0 ? text.length : text.indexOf("*/", index + 2) + 1;
    else out += char;
  }
  return out;
}
