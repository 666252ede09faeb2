import { eslintFlatTracks } from "../engines/eslint.ts";
import { relativeToRoot } from "../core/paths.ts";
import { pathApi } from "../runtime/path-api.ts";
import { openApi } from "../client/open.ts";
import type { Elsewhere } from "../core/contracts.ts";
import { failedEngines } from "./report.ts";
import { cliCheck } from "./check.ts";
import type { CliIo } from "./io.ts";
import { defineCommand } from "./command.ts";

/**
 * Files worth a check after an edit: what the engines look at — every file a flat ESLint config may lint (JS/TS,
 * single-file components, and what its plugins take: an Angular template, JSON, Markdown, YAML …) covers the rest.
 */
const worthChecking = eslintFlatTracks;

/** What a hook's stdin named: the edited file and the project directory, or why it names none. */
export type HookInput = { file: string; cwd: string | null } | { problem: string };

/** The edited file and the project directory named by a hook's JSON (Claude Code's PostToolUse, Cursor's afterFileEdit). */
export function hookTarget(input: string): HookInput {
  let value: { cwd?: unknown; tool_input?: { file_path?: unknown; notebook_path?: unknown }; file_path?: unknown; workspace_roots?: unknown };
  try {
    value = JSON.parse(input);
  } catch {
    const what = input.trim() === "" ? "stdin was empty" : "stdin is not JSON";
    return { problem: `${what}; this verb reads the JSON an editor hook sends (Claude Code PostToolUse, Cursor afterFileEdit)` };
  }
  const file = value?.tool_input?.file_path ?? value?.file_path;
  if (typeof file !== "string" || file === "")
    return { problem: "the hook's JSON names no edited file (Claude Code: tool_input.file_path; Cursor: file_path), so nothing was checked" };
  const roots = Array.isArray(value.workspace_roots) ? value.workspace_roots : [];
  const cwd = typeof value.cwd === "string" ? value.cwd : typeof roots[0] === "string" ? (roots[0] as string) : null;
  return { file, cwd };
}

/** The errors an edit caused in other files, as the hook prints them: each listed one, then what to do. */
function elsewhereLines(elsewhere: Elsewhere): string[] {
  const listed = elsewhere.issues.map(
    (issue) => `${issue.file}:${issue.line}:${issue.col} ${issue.severity} ${issue.rule} (${issue.engine}): ${issue.message}`,
  );
  const more = elsewhere.introduced - listed.length;
  const step =
    "signalint: errors in other files that were not there before (this change, or another since the last whole-project check): fix them or undo the change; signalint-mcp check checks the whole project";
  return [...listed, ...(more > 0 ? [`… and ${more} more in other files`] : []), step];
}

/**
 * `signalint-mcp hook`: check the file an editor hook names on stdin. Exit 2 with its problems on stderr (Claude Code
 * shows them to the model), 0 when clean or not a file Signalint checks, 1 when the check could not be completed.
 */
async function runHook(io: CliIo): Promise<number> {
  const target = hookTarget(await io.readStdin());
  if ("problem" in target) {
    io.runtime.writeStderr(`signalint-mcp hook: ${target.problem}. Add it as a hook with signalint-mcp init --hooks; see signalint-mcp hook --help\n`);
    return 1;
  }
  if (!worthChecking(target.file)) return 0;
  const { isAbsolute, resolve } = pathApi(io.runtime);
  const base = target.cwd ?? io.runtime.cwd();
  const absolute = isAbsolute(target.file) ? target.file : resolve(base, target.file);
  // A file the edit deleted (or a directory) is nothing to check: known before a daemon or service is started.
  if (!(await io.runtime.stat(absolute))?.isFile) return 0;
  // After every edit: the project's daemon answers warm when one may run (started on the first hook).
  const opened = await openApi(io.runtime, { root: target.cwd ?? undefined, oneShot: true });
  if (opened.notice) io.runtime.writeStderr(`${opened.notice}\n`);
  try {
    const relative = relativeToRoot(opened.project.root, absolute) ?? relativeToRoot(opened.project.realRoot, absolute);
    if (relative === null) return 0;
    const { report } = await cliCheck({ ...io, stderrIsTty: false }, opened, [relative], null, { incremental: true });
    const failed = failedEngines(report);
    const lines = report.issues.map((issue) => `${issue.file}:${issue.line}:${issue.col} ${issue.severity} ${issue.rule} (${issue.engine}): ${issue.message}`);
    for (const [engine, status] of failed) lines.push(`signalint: ${engine} failed: ${status.message ?? "error"}`);
    // An incomplete check (core/completeness.ts) says which files went unchecked: never a silent pass.
    const incomplete = report.status === "error" ? (report.notChecked ?? []) : [];
    for (const note of incomplete) lines.push(`signalint: not checked: ${note.sample.join(", ")} (${note.reason})`);
    // Errors elsewhere count only when this service knew those files before (a daemon's): unattributed ones may be old.
    const elsewhere = report.elsewhere?.introduced ? report.elsewhere : null;
    if (elsewhere) lines.push(...elsewhereLines(elsewhere));
    if (report.issues.length || elsewhere) {
      const count = report.issues.length + (elsewhere?.introduced ?? 0);
      io.runtime.writeStderr(`Signalint found ${count} problem(s) after editing ${relative}:\n${lines.join("\n")}\n`);
      return 2;
    }
    if (failed.length || report.status === "error") {
      io.runtime.writeStderr(`${lines.join("\n")}\n`);
      return 1;
    }
    return 0;
  } finally {
    await opened.close();
  }
}

/** The hook verb, declared once for its parser and its help. */
export const hookCommand = defineCommand({
  name: "hook",
  summary: "check the file an editor hook names on stdin (exit 2 with its problems)",
  description:
    "For editor hooks (Claude Code PostToolUse, Cursor afterFileEdit): reads the hook's JSON from stdin, checks the edited " +
    "file, and exits 2 with its problems on stderr (Claude Code feeds them back to the model; tsc errors the edit caused in " +
    "other files the project's daemon checked before count too), 0 when clean or when the " +
    "file is not one Signalint checks, 1 when stdin names no file or the check could not be completed.",
  options: {},
  run: (io) => runHook(io),
});
