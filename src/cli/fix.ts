import type { FixKind } from "../core/contracts.ts";
import { quoteInput, SignalintError } from "../core/errors.ts";
import { openApi } from "../client/open.ts";
import { defineCommand, ROOT_OPTION, type OptionValues } from "./command.ts";
import { cliPaths } from "./check.ts";
import type { CliIo } from "./io.ts";
import { UsageError } from "./usage.ts";

const KINDS: readonly FixKind[] = ["safe", "suggestion"];

/** The fix verb's options, as the parser takes them and `fix --help` prints them. */
const FIX_OPTIONS = {
  kinds: {
    type: "string",
    value: "KINDS",
    help:
      "the engine edits to apply, comma-separated: safe (what the engines' own --fix applies; the default), suggestion (ESLint's " +
      "suggestions, Biome's unsafe fixes (only together with safe), oxlint's --fix-suggestions)",
  },
  "dry-run": { type: "boolean", help: "print the unified diff of the fixes and write nothing" },
  root: ROOT_OPTION,
} as const;

function fixKinds(values: OptionValues<typeof FIX_OPTIONS>): FixKind[] {
  const kinds = (values.kinds ?? "safe").split(",").map((kind) => kind.trim());
  const unknown = kinds.find((kind) => !KINDS.includes(kind as FixKind));
  if (unknown !== undefined) throw new UsageError(`--kinds takes ${KINDS.join(", ")}, not ${quoteInput(unknown)}`);
  return kinds as FixKind[];
}

/**
 * `signalint-mcp fix`: check the paths, then preview_diagnostic_fix's transaction for the issues found whose engine
 * marks an edit of the asked kinds (ESLint, Biome, TypeScript's TS6192/TS6205) and every oxlint issue (unmarked: oxlint
 * decides), applied with verify. Exit codes as `eslint --fix`: 0 when no error remains, 1 when errors remain (or the
 * fix was rolled back, or the check was incomplete), 2 usage or configuration error.
 */
async function runFix(io: CliIo, values: OptionValues<typeof FIX_OPTIONS>, positionals: string[]): Promise<number> {
  const kinds = fixKinds(values);
  const opened = await openApi(io.runtime, { ...(values.root !== undefined ? { root: values.root } : {}), oneShot: true });
  if (opened.notice) io.runtime.writeStderr(`${opened.notice}\n`);
  try {
    const paths = cliPaths(io.runtime, opened.project, positionals);
    const { response, issues } = await opened.api.check({ paths, incremental: false, tool: "cli-fix" });
    // oxlint's issues carry no fix mark (its report has none): oxlint is asked for each, as its own --fix would be.
    const fixable = issues.filter((issue) => (issue.fixable && kinds.includes(issue.fixKind ?? "safe")) || issue.engine === "oxlint");
    const errors = issues.filter((issue) => issue.severity === "error");
    const incomplete = response.status === "error" || response.status === "pending" || response.pending ? 1 : 0;
    if (fixable.length === 0) {
      io.stdout(`Nothing to fix: no issue has a ${kinds.join(" or ")} engine edit.\n`);
      return errors.length ? 1 : incomplete;
    }
    let preview;
    try {
      preview = await opened.api.preview({ issueIds: fixable.map((issue) => issue.issueId), kinds, checkId: response.checkId });
    } catch (error) {
      if (!(error instanceof SignalintError) || error.code !== "nothing_to_fix") throw error;
      io.stdout(`${error.message}\n`);
      return errors.length ? 1 : incomplete;
    }
    const addressed = new Set(preview.files.flatMap((file) => (file.fixes ?? []).flatMap((fix) => fix.issueIds)));
    const remaining = errors.filter((issue) => !addressed.has(issue.issueId)).length;
    for (const entry of preview.notFixed ?? []) io.runtime.writeStderr(`not fixed ${entry.issue}: ${entry.reason}\n`);
    if (values["dry-run"]) {
      io.stdout(preview.files.map((file) => file.diff ?? "").join(""));
      await opened.api.discard({ transactionId: preview.transactionId });
      return remaining ? 1 : incomplete;
    }
    const applied = await opened.api.apply({ transactionId: preview.transactionId, confirm: true });
    if ("status" in applied) throw new SignalintError(applied.code, applied.message);
    if (applied.rollback) {
      io.stdout(`Rolled back: ${applied.rollback.reason}.\n`);
      for (const issue of applied.rollback.introduced) io.stdout(`  ${issue.file}:${issue.line}:${issue.col} ${issue.rule} ${issue.message}\n`);
      return 1;
    }
    io.stdout(`Fixed ${addressed.size} issue(s) in ${applied.files.length} file(s): ${applied.files.join(", ")}\n`);
    const introduced = applied.result?.delta && !("status" in applied.result.delta) ? applied.result.delta.introduced.length : 0;
    return remaining || introduced ? 1 : incomplete;
  } finally {
    await opened.close();
  }
}

/** The fix verb, declared once for its parser and its help. */
export const fixCommand = defineCommand({
  name: "fix",
  summary: "apply the engines' own fixes to the paths (ESLint, Biome, oxlint; TypeScript's marked ones), rolled back if worse",
  positionals: "[paths…]",
  description:
    "Check the paths (default: the working directory), then ask the engines for their edits of the issues found, of the asked kinds: " +
    "ESLint's and Biome's for the issues they mark fixable, oxlint's for every oxlint issue (its report says nothing of fixes: " +
    "oxlint --fix on a private copy decides), TypeScript's only for the issues it marks fixable (TS6192, an import whose bindings " +
    "are all unused; TS6205, unused type parameters; its other code fixes, such as a missing import, are offered by the MCP tool " +
    "preview_diagnostic_fix); deno lint's are never applied. The edits apply as one transaction, all files or none; the files " +
    "are checked again and every file is restored when errors rose or a fixed issue is still reported. Each issue asked that no " +
    "edit addresses is named on stderr, with why. --dry-run prints the unified diff instead and writes nothing.",
  options: FIX_OPTIONS,
  notes: "Exit codes (as eslint --fix): 0 no error remains; 1 errors remain, the fix was rolled back, or the check was incomplete; 2 usage error.",
  run: (io, values, positionals) => runFix(io, values, positionals),
});
