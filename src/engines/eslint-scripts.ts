import { commandName, scriptCommands } from "./tsc-scripts.ts";

/** One `eslint` invocation found in a script: the paths it lints (as written) and its `--ext` extensions. */
export interface EslintInvocation {
  /** Paths and globs as written (relative to the package directory); empty: ESLint's default, the directory itself. */
  paths: string[];
  /** `--ext .ts,.tsx` (ESLint 8): the extensions linted in named directories, with their dots. */
  ext: string[];
}

/** ESLint 8 and 9 options that take a value (so the value is not mistaken for a path). */
const VALUED = new Set([
  "-c",
  "--config",
  "--env",
  "--ext",
  "--global",
  "--parser",
  "--parser-options",
  "--resolve-plugins-relative-to",
  "--rulesdir",
  "--plugin",
  "--rule",
  "--ignore-path",
  "--ignore-pattern",
  "--stdin-filename",
  "-f",
  "--format",
  "-o",
  "--output-file",
  "--max-warnings",
  "--cache-location",
  "--cache-file",
  "--cache-strategy",
  "--fix-type",
  "--report-unused-disable-directives-severity",
  "--flag",
  "--concurrency",
  "--suppressions-location",
]);

/** Invocations that lint no files of the tree (help, config printing, stdin). */
const NOT_LINTING = new Set(["-h", "--help", "-v", "--version", "--init", "--env-info", "--print-config", "--inspect-config", "--stdin"]);

/** The extensions an `--ext` value names: `.ts,.tsx` or `ts` → `.ts`, `.tsx`. */
function extensions(value: string): string[] {
  return value
    .split(",")
    .filter(Boolean)
    .map((ext) => (ext.startsWith(".") ? ext : `.${ext}`));
}

/** The invocation in one command's words, or null when the command runs no eslint on files. */
function invocationOf(words: readonly string[]): EslintInvocation | null {
  const at = words.findIndex((word) => commandName(word) === "eslint");
  if (at < 0) return null;
  const paths: string[] = [];
  const ext: string[] = [];
  const args = words.slice(at + 1);
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    if (NOT_LINTING.has(arg)) return null;
    if (arg === "--ext") ext.push(...extensions(args[++index] ?? ""));
    else if (arg.startsWith("--ext=")) ext.push(...extensions(arg.slice("--ext=".length)));
    else if (VALUED.has(arg)) index++;
    else if (arg === "--") paths.push(...args.slice(index + 1));
    else if (!arg.startsWith("-")) paths.push(arg);
    if (arg === "--") break;
  }
  return { paths, ext };
}

/**
 * The eslint invocations of a package.json script (`eslint ./src --ext .ts`, `tsc && eslint src test`,
 * `npx eslint --fix .`), in order. Shares the script reading of tsc-scripts.ts.
 */
export function eslintInvocations(script: string): EslintInvocation[] {
  return scriptCommands(script).flatMap((words) => invocationOf(words) ?? []);
}
