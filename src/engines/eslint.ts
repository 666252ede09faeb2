import type { RawIssue } from "../core/issues.ts";
import type { SpawnResult } from "../runtime/types.ts";
import { excerpt, isRecord, parseJsonAfterPreamble, position, type EngineAdapter, type ParseOutcome, type PathMapper } from "./types.ts";

/** Flat config file names ESLint looks for. */
export const ESLINT_FLAT_CONFIGS = ["eslint.config.js", "eslint.config.mjs", "eslint.config.cjs", "eslint.config.ts", "eslint.config.mts", "eslint.config.cts"];

/**
 * Prettier's configuration and ignore files, which eslint-plugin-prettier reads for each file it lints: part of an ESLint
 * result's identity (a `.prettierrc.js` edit changes every prettier/prettier finding).
 */
export const PRETTIER_CONFIGS = [
  ".prettierrc",
  ".prettierrc.json",
  ".prettierrc.json5",
  ".prettierrc.yaml",
  ".prettierrc.yml",
  ".prettierrc.toml",
  ".prettierrc.js",
  ".prettierrc.cjs",
  ".prettierrc.mjs",
  ".prettierrc.ts",
  ".prettierrc.cts",
  ".prettierrc.mts",
  "prettier.config.js",
  "prettier.config.cjs",
  "prettier.config.mjs",
  "prettier.config.ts",
  "prettier.config.cts",
  "prettier.config.mts",
  ".prettierignore",
  ".editorconfig",
];

const EXTENSIONS = /\.(c|m)?(j|t)sx?$|\.(vue|svelte|astro)$/;

/** JS/TS-family files (and directories): what ESLint lints by default, and what its legacy configs are given. */
export function eslintAccepts(path: string): boolean {
  return path === "." || !/\.[^/]+$/.test(path) || EXTENSIONS.test(path);
}

/** What ESLint plugins commonly lint besides JS/TS: HTML templates, JSON, Markdown, YAML, TOML, CSS, GraphQL. */
const PLUGIN_EXTENSIONS = /\.(html?|jsonc?|json5|mdx?|markdown|ya?ml|toml|css|scss|less|graphql|gql)$/;

/**
 * The files a directory run of flat-config ESLint may lint: its config's `files` patterns decide (an Angular
 * project's `**\/*.html` templates), so a cached directory answer rests on these too (see lint-runner).
 */
export function eslintFlatTracks(path: string): boolean {
  return EXTENSIONS.test(path) || PLUGIN_EXTENSIONS.test(path);
}

/**
 * The files a legacy `.eslintrc*` run is given: JS/TS and what its scripts add with `--ext` (a file named on the command
 * line is linted whatever its extension, so only those; a `.html` given to the default parser is a parse error).
 */
export function eslintLegacyAccepts(ext: readonly string[]): (path: string) => boolean {
  const extensions = ext.map((extension) => (extension.startsWith(".") ? extension : `.${extension}`));
  return (path) => eslintAccepts(path) || extensions.some((extension) => path.endsWith(extension));
}

/** eslint's argv after the entry point. */
export function eslintArgs(paths: readonly string[]): string[] {
  return ["--format", "json", "--no-warn-ignored", "--no-error-on-unmatched-pattern", "--", ...paths];
}

/**
 * eslint's argv for a legacy `.eslintrc*` project (ESLint 8, or 9 with ESLINT_USE_FLAT_CONFIG=false): no
 * `--no-warn-ignored` (flat-only); directories are linted with the extensions that version lints by default, as the
 * project's own `eslint .` does, plus those its lint scripts add with `--ext`.
 */
export function eslintLegacyArgs(paths: readonly string[], ext: readonly string[] = []): string[] {
  return ["--format", "json", "--no-error-on-unmatched-pattern", ...(ext.length ? ["--ext", ext.join(",")] : []), "--", ...paths];
}

/**
 * The flag that makes ESLint 9 take each file's flat config from the file's directory up, as ESLint 10 does by
 * default: `unstable_config_lookup_from_file` from 9.12, renamed `v10_config_lookup_from_file` in 9.30 (read in
 * the packages' lib/shared/flags.js); null for any other version.
 */
export function eslintConfigLookupFlag(version: string | null | undefined): string | null {
  const [major = 0, minor = 0] = (version ?? "").split(".").map(Number);
  if (major !== 9 || minor < 12) return null;
  return minor >= 30 ? "v10_config_lookup_from_file" : "unstable_config_lookup_from_file";
}

/** The warning eslintrc mode gives for an ignored file named on the command line: not a finding. */
const IGNORED_WARNING = /^File ignored (because|by default)/;

/** Parse `eslint --format json` output strictly (exit 2 is a configuration or crash error). */
export function parseEslintOutput(result: SpawnResult, toRelative: PathMapper): ParseOutcome {
  let report: unknown;
  try {
    report = parseJsonAfterPreamble(result.stdout, "[");
  } catch {
    // Not JSON: ESLint's failure, reported below with its output.
    const detail = result.stderr.trim() ? result.stderr : result.stdout;
    const code = result.exitCode === 2 || !result.stdout.trim() ? "engine_failed" : "engine_output_invalid";
    return { ok: false, code, message: `eslint failed (exit ${result.exitCode}): ${excerpt(detail, 300)}` };
  }
  if (!Array.isArray(report)) return { ok: false, code: "engine_output_invalid", message: `eslint JSON is not an array: ${excerpt(result.stdout)}` };
  const issues: RawIssue[] = [];
  const linted: string[] = [];
  for (const fileResult of report) {
    if (!isRecord(fileResult) || typeof fileResult.filePath !== "string" || !Array.isArray(fileResult.messages)) {
      return { ok: false, code: "engine_output_invalid", message: `eslint result without filePath/messages: ${excerpt(JSON.stringify(fileResult))}` };
    }
    const file = toRelative(fileResult.filePath);
    if (file === null) continue;
    // eslintrc mode reports a file named on the command line and ignored with one warning and nothing else.
    const ignored = fileResult.messages.length === 1 && isRecord(fileResult.messages[0]) && ignoredWarning(fileResult.messages[0]);
    if (!ignored) linted.push(file);
    for (const message of fileResult.messages) {
      if (!isRecord(message) || typeof message.message !== "string") {
        return { ok: false, code: "engine_output_invalid", message: `eslint message without text: ${excerpt(JSON.stringify(message))}` };
      }
      if (ignoredWarning(message)) continue;
      issues.push({
        file,
        line: position(message.line),
        col: position(message.column),
        engine: "eslint",
        rule: typeof message.ruleId === "string" ? message.ruleId : message.fatal ? "parse-error" : "eslint",
        severity: message.severity === 2 || message.fatal ? "error" : "warning",
        message: message.message,
        ...eslintFixMark(message),
      });
    }
  }
  return { ok: true, issues, linted };
}

/** A message's `fix` is what `eslint --fix` applies; its `suggestions` are edits ESLint offers and never applies itself. */
function eslintFixMark(message: Record<string, unknown>): Pick<RawIssue, "fixable" | "fixKind"> {
  if (isRecord(message.fix)) return { fixable: true, fixKind: "safe" };
  if (Array.isArray(message.suggestions) && message.suggestions.some((suggestion) => isRecord(suggestion) && isRecord(suggestion.fix)))
    return { fixable: true, fixKind: "suggestion" };
  return { fixable: false };
}

const ignoredWarning = (message: Record<string, unknown>) =>
  message.ruleId == null && !message.fatal && typeof message.message === "string" && IGNORED_WARNING.test(message.message);

/** ESLint: on when the project root has a flat config. */
export const ESLINT: EngineAdapter = {
  pkg: "eslint",
  bin: "eslint",
  enabledBy: ESLINT_FLAT_CONFIGS,
  offReason: "no ESLint config (eslint.config.* or .eslintrc*) in the project root",
  // A flat config decides what it lints: every named file is given (one no entry matches is skipped silently).
  linter: {
    accepts: () => true,
    tracks: eslintFlatTracks,
    lintsUnasked: eslintAccepts,
    argsFor: eslintArgs,
    parse: parseEslintOutput,
    listsLinted: true,
    configFiles: [
      "eslint.config.js",
      "eslint.config.mjs",
      "eslint.config.cjs",
      "eslint.config.ts",
      "eslint.config.mts",
      "eslint.config.cts",
      // Legacy configs (ESLint 8, or 9 with ESLINT_USE_FLAT_CONFIG=false): cascading per directory.
      ".eslintrc.js",
      ".eslintrc.cjs",
      ".eslintrc.yaml",
      ".eslintrc.yml",
      ".eslintrc.json",
      ".eslintrc",
      ".eslintignore",
      ".gitignore",
      "package.json",
      "tsconfig.json",
      // Prettier's, which eslint-plugin-prettier reads for every file it lints (its prettier/prettier findings).
      ...PRETTIER_CONFIGS,
    ],
    // ESLint's flat config does not read .gitignore.
    ignoreArgs: (state) => ["--ignore-pattern", `${state}/`],
  },
};
