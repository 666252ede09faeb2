import { commandName, scriptCommands } from "./tsc-scripts.ts";
import { workspaceRun, type WorkspaceRun } from "./workspace-runs.ts";

/**
 * One `oxlint` invocation found in a script (`oxlint -c .config/.oxlintrc.json --type-aware --deny-warnings`), its
 * flags read strictly: those that change which findings appear are kept to pass to Signalint's run, those that only
 * change the exit status or the output are recorded, any other is `unknown` (the run then keeps oxlint's defaults and
 * says which flag it did not follow: never a guess).
 */
export interface OxlintInvocation {
  /** The flags that change the findings, in order, each option and its value as separate words (`-c`, `x.json`). */
  args: string[];
  /** `-c`/`--config` as written (relative to the directory the script runs in), or null (oxlint looks for its config). */
  config: string | null;
  /** `--ignore-path` and `--tsconfig` values as written: files whose content changes the findings. */
  inputs: string[];
  /** Paths as written (relative to the package directory); empty: oxlint's default, the directory itself. */
  paths: string[];
  /** `--type-aware`: the rules that need types (run by oxlint-tsgolint). */
  typeAware: boolean;
  /** `--type-check`: TypeScript's own diagnostics reported as oxlint's (not passed: tsc reports them). */
  typeCheck: boolean;
  /** `--deny-warnings` / `--max-warnings N`: a warning fails the project's lint (the findings are the same). */
  failsOnWarnings: boolean;
  /** `--fix`, `--fix-suggestions`, `--fix-dangerously`: a fixing run (its findings are what it leaves). */
  fixes: boolean;
  /** Flags Signalint does not know, as written. */
  unknown: string[];
  /** Set when a workspace runner runs it in packages (`pnpm -r exec oxlint`). */
  packages?: WorkspaceRun;
}

/** Options that change the findings and take a value, with their long and short spellings. */
const VALUED_PASSED: Record<string, string> = {
  "-c": "-c",
  "--config": "-c",
  "--tsconfig": "--tsconfig",
  "-A": "-A",
  "--allow": "-A",
  "-W": "-W",
  "--warn": "-W",
  "-D": "-D",
  "--deny": "-D",
  "--ignore-path": "--ignore-path",
  "--ignore-pattern": "--ignore-pattern",
  "--report-unused-disable-directives-severity": "--report-unused-disable-directives-severity",
};

/** Switches that change the findings (plugins on or off, directives reported, nested configs, warnings dropped). */
const SWITCHES_PASSED = new Set([
  "--import-plugin",
  "--react-plugin",
  "--jsdoc-plugin",
  "--jest-plugin",
  "--vitest-plugin",
  "--jsx-a11y-plugin",
  "--nextjs-plugin",
  "--react-perf-plugin",
  "--promise-plugin",
  "--node-plugin",
  "--vue-plugin",
  "--disable-unicorn-plugin",
  "--disable-oxc-plugin",
  "--disable-typescript-plugin",
  "--report-unused-disable-directives",
  "--disable-nested-config",
  "--quiet",
]);

/** Options with a value that change neither the findings nor what is linted (output, threads, warning threshold). */
const VALUED_RECORDED = new Set(["-f", "--format", "--threads", "--max-warnings"]);

/** Switches that change neither the findings nor what is linted, or that Signalint sets itself. */
const SWITCHES_RECORDED = new Set(["--deny-warnings", "--silent", "--no-error-on-unmatched-pattern", "--type-aware", "--type-check"]);

const FIXES = new Set(["--fix", "--fix-suggestions", "--fix-dangerously"]);

/** Invocations that lint no files of the tree. */
const NOT_LINTING = new Set(["-h", "--help", "-V", "--version", "--rules", "--lsp", "--init", "--print-config", "--stdin-filename"]);

/** The invocation in one command's words, or null when the command runs no oxlint on files. */
function invocationOf(words: readonly string[]): OxlintInvocation | null {
  const at = words.findIndex((word) => commandName(word) === "oxlint");
  if (at < 0) return null;
  const invocation: OxlintInvocation = {
    args: [],
    config: null,
    inputs: [],
    paths: [],
    typeAware: false,
    typeCheck: false,
    failsOnWarnings: false,
    fixes: false,
    unknown: [],
  };
  const args = words.slice(at + 1);
  for (let index = 0; index < args.length; index++) {
    const word = args[index] as string;
    if (word === "--") {
      invocation.paths.push(...args.slice(index + 1));
      break;
    }
    const eq = word.startsWith("-") ? word.indexOf("=") : -1;
    const name = eq > 0 ? word.slice(0, eq) : word;
    if (NOT_LINTING.has(name)) return null;
    if (!word.startsWith("-")) invocation.paths.push(word);
    else if (name in VALUED_PASSED || VALUED_RECORDED.has(name)) {
      const value = eq > 0 ? word.slice(eq + 1) : args[++index];
      if (value === undefined) {
        invocation.unknown.push(word);
        continue;
      }
      if (name === "--max-warnings") invocation.failsOnWarnings = true;
      const option = VALUED_PASSED[name];
      if (option === undefined) continue;
      invocation.args.push(option, value);
      if (option === "-c") invocation.config = value;
      if (option === "--ignore-path" || option === "--tsconfig") invocation.inputs.push(value);
    } else if (eq > 0) invocation.unknown.push(word);
    else if (SWITCHES_PASSED.has(word)) invocation.args.push(word);
    else if (FIXES.has(word)) invocation.fixes = true;
    else if (SWITCHES_RECORDED.has(word)) {
      if (word === "--type-aware") invocation.typeAware = true;
      if (word === "--type-check") invocation.typeCheck = true;
      if (word === "--deny-warnings") invocation.failsOnWarnings = true;
    } else invocation.unknown.push(word);
  }
  const packages = workspaceRun(words.slice(0, at));
  return packages ? { ...invocation, packages } : invocation;
}

/**
 * The oxlint invocations of a package.json script (`oxlint -c .config/.oxlintrc.json`, `tsc && oxlint src`, `npx
 * oxlint --fix .`), in order. Shares the script reading of tsc-scripts.ts.
 */
export function oxlintInvocations(script: string): OxlintInvocation[] {
  return scriptCommands(script).flatMap((words) => invocationOf(words) ?? []);
}
