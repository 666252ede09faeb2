import type { RawIssue } from "../core/issues.ts";
import { compareVersions } from "../core/semver.ts";
import type { SpawnResult } from "../runtime/types.ts";
import { excerpt, isRecord, parseJsonAfterPreamble, position, type EngineAdapter, type FileFailure, type ParseOutcome, type PathMapper } from "./types.ts";

// What oxlint prints (without a filename) for a file it cannot read or decode, then it lints every other file.
const FAILED_FILE = /^Failed to open file (.+) with error "(.*)"$/s;

const EXTENSIONS = /\.(c|m)?(j|t)sx?$|\.(vue|svelte|astro)$/;

/** oxlint lints these files; others are not passed to it. */
export function oxlintAccepts(path: string): boolean {
  return path === "." || !/\.[^/]+$/.test(path) || EXTENSIONS.test(path);
}

/**
 * oxlint 1.60 made a path that matches no file an error and added `--no-error-on-unmatched-pattern` for it; before, an
 * unmatched path was no error and the switch was refused ("is not expected in this context"). Unknown version: the
 * switch (the current behaviour).
 */
function unmatchedSwitch(version: string | null): string[] {
  return version === null || compareVersions(version, "1.60.0") >= 0 ? ["--no-error-on-unmatched-pattern"] : [];
}

/**
 * oxlint's argv after the entry point (`typeAware`: also the rules that need types, run by oxlint-tsgolint; `script`:
 * the flags of the project's lint script that change its findings, such as `-c .config/.oxlintrc.json`).
 */
export function oxlintArgs(paths: readonly string[], version: string | null, typeAware = false, script: readonly string[] = []): string[] {
  // oxlint lints node_modules unless told not to (it only honours .gitignore), which no user wants.
  return [
    ...script,
    "--format",
    "json",
    ...(typeAware ? ["--type-aware"] : []),
    ...unmatchedSwitch(version),
    "--ignore-pattern",
    "**/node_modules/**",
    "--",
    ...paths,
  ];
}

/**
 * oxlint's argv for fixing files in place (run on private copies, never the user's files): `--fix` for its safe fixes,
 * `--fix-suggestions` for its suggestions (oxlint 1.x), no fix flag (`kind` null) for the copy's own baseline; the
 * config given explicitly (`-c`: no nested or upward lookup on a copy); `rules`: a lint script's rule and plugin switches
 * (`-A no-var`, `--import-plugin`), as its check ran them.
 */
export function oxlintFixArgs(
  files: readonly string[],
  options: { config: string; kind: "safe" | "suggestion" | null; version: string | null; rules?: readonly string[] },
): string[] {
  const flag = options.kind === "safe" ? ["--fix"] : options.kind === "suggestion" ? ["--fix-suggestions"] : [];
  return [...flag, "-c", options.config, ...(options.rules ?? []), "--format", "json", ...unmatchedSwitch(options.version), "--", ...files];
}

/** The environment that points oxlint at oxlint-tsgolint (it would otherwise look only in ./node_modules/.bin). */
export function oxlintTypeAwareEnv(tsgolint: string): Record<string, string> {
  return { OXLINT_TSGOLINT_PATH: tsgolint };
}

function severityOf(value: unknown): RawIssue["severity"] {
  return value === "error" ? "error" : "warning";
}

/** Parse `oxlint --format json` output strictly. */
export function parseOxlintOutput(result: SpawnResult, toRelative: PathMapper): ParseOutcome {
  let report: unknown;
  try {
    report = parseJsonAfterPreamble(result.stdout, "{");
  } catch {
    // Not JSON: oxlint's failure, reported below with its output.
    return {
      ok: false,
      code: "engine_output_invalid",
      message: `oxlint printed output that is not JSON (exit ${result.exitCode}): ${excerpt(result.stdout || result.stderr)}`,
    };
  }
  if (!isRecord(report) || !Array.isArray(report.diagnostics)) {
    return { ok: false, code: "engine_output_invalid", message: `oxlint JSON has no diagnostics array: ${excerpt(result.stdout)}` };
  }
  const issues: RawIssue[] = [];
  const failures: FileFailure[] = [];
  for (const diagnostic of report.diagnostics) {
    if (!isRecord(diagnostic) || typeof diagnostic.message !== "string") {
      return { ok: false, code: "engine_output_invalid", message: `oxlint diagnostic without a message: ${excerpt(JSON.stringify(diagnostic))}` };
    }
    const failed = typeof diagnostic.filename !== "string" ? FAILED_FILE.exec(diagnostic.message) : null;
    if (failed) {
      failures.push({ file: toRelative(failed[1] as string) ?? (failed[1] as string), reason: failed[2] as string });
      continue;
    }
    if (typeof diagnostic.filename !== "string") {
      return { ok: false, code: "engine_failed", message: `oxlint: ${excerpt(diagnostic.message)}` };
    }
    const file = toRelative(diagnostic.filename);
    if (file === null) continue;
    const label = Array.isArray(diagnostic.labels) && isRecord(diagnostic.labels[0]) ? diagnostic.labels[0] : {};
    const span = isRecord(label.span) ? label.span : {};
    issues.push({
      file,
      line: position(span.line),
      col: position(span.column),
      engine: "oxlint",
      rule: typeof diagnostic.code === "string" && diagnostic.code ? diagnostic.code : "oxlint",
      severity: severityOf(diagnostic.severity),
      message: diagnostic.message,
      // oxlint's JSON report (1.x, checked on 1.94) says nothing of fixes, so nothing it reports is claimed fixable
      // (preview still runs `oxlint --fix` on copies of the files asked: service/fix/oxlint-fixes.ts).
      fixable: false,
    });
  }
  return { ok: true, issues, ...(failures.length ? { failures } : {}) };
}

/** oxlint: on by default; `--type-aware` is added by the lint room when oxlint-tsgolint resolves. */
export const OXLINT: EngineAdapter = {
  pkg: "oxlint",
  bin: "oxlint",
  enabledBy: null,
  linter: {
    accepts: oxlintAccepts,
    argsFor: oxlintArgs,
    parse: parseOxlintOutput,
    configFiles: [".oxlintrc.json", ".oxlintrc.jsonc", "oxlint.config.ts", ".gitignore", ".eslintignore", "tsconfig.json", "package.json"],
    ignoreArgs: (state) => ["--ignore-pattern", `${state}/**`],
  },
};
