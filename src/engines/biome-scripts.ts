import { commandName, scriptCommands } from "./tsc-scripts.ts";
import { workspaceRun, type WorkspaceRun } from "./workspace-runs.ts";

/** One Biome run that lints, found in a script: the paths it lints (as written) and where a workspace runner runs it. */
export interface BiomeInvocation {
  /** Paths as written (relative to the package directory); empty: Biome's default, the directory itself. */
  paths: string[];
  /** Set when a workspace runner runs it in packages (`pnpm -r exec biome check src`). */
  packages?: WorkspaceRun;
}

/** The subcommands that lint (`biome format` only formats; `biome lint` is what Signalint runs). */
const LINTING = new Set(["check", "lint", "ci"]);

/** Biome options that take a value when written apart from it (`--config-path biome.ci.json`). */
const VALUED = new Set([
  "--config-path",
  "--reporter",
  "--max-diagnostics",
  "--diagnostic-level",
  "--log-level",
  "--log-kind",
  "--log-file",
  "--log-path",
  "--log-prefix-name",
  "--stdin-file-path",
  "--since",
  "--skip",
  "--only",
  "--vcs-root",
  "--vcs-client-kind",
  "--vcs-default-branch",
  "--reporter-file",
  "--threads",
]);

/** Invocations that lint no files of the tree. */
const NOT_LINTING = new Set(["-h", "--help", "-V", "--version", "--stdin-file-path"]);

/** The invocation in one command's words, or null when the command runs no Biome lint on files. */
function invocationOf(words: readonly string[]): BiomeInvocation | null {
  const at = words.findIndex((word) => commandName(word) === "biome");
  if (at < 0 || !LINTING.has(words[at + 1] ?? "")) return null;
  const paths: string[] = [];
  const args = words.slice(at + 2);
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    if (NOT_LINTING.has(arg) || arg.startsWith("--stdin-file-path=")) return null;
    if (VALUED.has(arg)) index++;
    else if (!arg.startsWith("-")) paths.push(arg);
  }
  const packages = workspaceRun(words.slice(0, at));
  return packages ? { paths, packages } : { paths };
}

/**
 * The Biome lint invocations of a package.json script (`biome check src`, `biome ci .`, `tsc && biome lint
 * ./src ./test`), in order: `biome check`, `lint` and `ci` lint; `biome format` does not.
 */
export function biomeInvocations(script: string): BiomeInvocation[] {
  return scriptCommands(script).flatMap((words) => invocationOf(words) ?? []);
}
