import { eslintFlatTracks } from "../engines/eslint.ts";
import { relativeToRoot } from "../core/paths.ts";
import { pathApi } from "../runtime/path-api.ts";
import { openApi } from "../client/open.ts";
import { hookTarget } from "./hook-input.ts";
import { hookReport } from "./hook-report.ts";
import type { CliIo } from "./io.ts";
import { defineCommand } from "./command.ts";

/**
 * Files worth a check after an edit: what the engines look at — every file a flat ESLint config may lint (JS/TS,
 * single-file components, and what its plugins take: an Angular template, JSON, Markdown, YAML …) covers the rest.
 */
const worthChecking = eslintFlatTracks;

/**
 * `signalint-mcp hook`: check the files an editor hook names on stdin, and compare with the last check of them. Exit 2
 * with what the edit leaves on stderr (Claude Code and Codex feed it to the model, Gemini CLI replaces the tool's
 * result with it), 0 when it leaves no errors or names no file Signalint checks, 1 when the check is incomplete.
 */
async function runHook(io: CliIo): Promise<number> {
  const target = hookTarget(await io.readStdin());
  if ("problem" in target) {
    io.runtime.writeStderr(`signalint-mcp hook: ${target.problem}. Add it as a hook with signalint-mcp init --hooks; see signalint-mcp hook --help\n`);
    return 1;
  }
  const { isAbsolute, resolve } = pathApi(io.runtime);
  const base = target.cwd ?? io.runtime.cwd();
  const candidates = target.files.filter(worthChecking).map((file) => (isAbsolute(file) ? file : resolve(base, file)));
  // A file the edit deleted (or a directory) is nothing to check: known before a daemon or service is started.
  const existing: string[] = [];
  for (const file of candidates) if ((await io.runtime.stat(file))?.isFile) existing.push(file);
  if (!existing.length) return 0;
  // After every edit: the project's daemon answers warm when one may run (started on the first hook).
  const opened = await openApi(io.runtime, { root: target.cwd ?? undefined, oneShot: true });
  if (opened.notice) io.runtime.writeStderr(`${opened.notice}\n`);
  try {
    const files = existing.flatMap((file) => {
      const relative = relativeToRoot(opened.project.root, file) ?? relativeToRoot(opened.project.realRoot, file);
      return relative === null ? [] : [relative];
    });
    if (!files.length) return 0;
    // An after-edit check: the files' issues, the errors the edit introduced in other files, and what it fixed —
    // within the hook's budget, else what could not be checked is said (a client kills a hook that takes too long).
    const budget = new AbortController();
    const timer = setTimeout(() => budget.abort(), opened.settings.hookBudgetMs);
    const answer = await opened.api
      .afterEdit({ files, tool: "hook", withIssues: true }, { signal: budget.signal })
      .catch((error: unknown) => {
        if (budget.signal.aborted) return null;
        throw error;
      })
      .finally(() => clearTimeout(timer));
    if (answer === null) {
      const seconds = opened.settings.hookBudgetMs / 1000;
      io.runtime.writeStderr(
        `Signalint after editing ${files.join(", ")}: the check did not finish within ${seconds} s (hook.budgetSeconds in signalint.config.json), so the edited files and the files that import them may have errors: run \`signalint-mcp check\`\n`,
      );
      return 1;
    }
    if ("status" in answer) {
      io.runtime.writeStderr(`signalint-mcp hook: ${answer.message}\n`);
      return 1;
    }
    const { lines, exitCode } = hookReport({
      files,
      response: answer.response,
      issues: answer.issues ?? [],
      delta: answer.delta,
      failOn: opened.settings.hookFailOn,
      switches: opened.settings.engines,
    });
    if (lines.length) io.runtime.writeStderr(`${lines.join("\n")}\n`);
    return exitCode;
  } finally {
    await opened.close();
  }
}

/** The hook verb, declared once for its parser and its help. */
export const hookCommand = defineCommand({
  name: "hook",
  summary: "check the files an editor hook names on stdin (exit 2 when the edit leaves errors)",
  description:
    "For editor hooks (Claude Code PostToolUse, Cursor afterFileEdit, Codex PostToolUse on apply_patch, Gemini CLI " +
    "AfterTool): reads the hook's JSON from stdin, checks the edited files and compares with the last check of them. " +
    "Exits 2 when the edit leaves errors, with at most 20 lines on stderr: the edited files' errors, then the errors it " +
    "introduced in other files, what it fixed, warnings, and engines that did not run; 0 when it leaves no errors " +
    '(warnings listed; config hook.failOn "warning" makes them exit 2 too) or names no file Signalint checks; 1 when ' +
    "stdin names no file or the check is incomplete.",
  options: {},
  run: (io) => runHook(io),
});
