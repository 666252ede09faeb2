import { isAbsolute, resolve } from "node:path";
import { relativeToRoot } from "../core/paths.ts";
import { SignalintService } from "../service/signalint.ts";
import { failedEngines } from "./report.ts";
import { cliCheck } from "./check.ts";
import type { CliIo } from "./io.ts";

/** Files worth a check after an edit (what the engines look at). */
const CHECKED = /\.(?:[cm]?[jt]sx?|json|jsonc|vue|svelte|astro)$/;

/** The edited file and the project directory named by a hook's JSON (Claude Code's PostToolUse, Cursor's afterFileEdit). */
export function hookTarget(input: string): { file: string; cwd: string | null } | null {
  let value: { cwd?: unknown; tool_input?: { file_path?: unknown; notebook_path?: unknown }; file_path?: unknown; workspace_roots?: unknown };
  try {
    value = JSON.parse(input);
  } catch {
    return null;
  }
  const file = value?.tool_input?.file_path ?? value?.file_path;
  if (typeof file !== "string" || file === "") return null;
  const roots = Array.isArray(value.workspace_roots) ? value.workspace_roots : [];
  const cwd = typeof value.cwd === "string" ? value.cwd : typeof roots[0] === "string" ? (roots[0] as string) : null;
  return { file, cwd };
}

/**
 * `signalint-mcp hook`: check the file an editor hook names on stdin. Exit 2 with its problems on stderr (Claude Code
 * shows them to the model), 0 when clean or not a file Signalint checks, 1 when the check could not be completed.
 */
export async function runHook(io: CliIo, _argv: string[]): Promise<number> {
  const target = hookTarget(await io.readStdin());
  if (!target) {
    io.runtime.writeStderr("signalint-mcp hook: no file_path in the hook input on stdin\n");
    return 1;
  }
  if (!CHECKED.test(target.file)) return 0;
  const base = target.cwd ?? io.runtime.cwd();
  const absolute = isAbsolute(target.file) ? target.file : resolve(base, target.file);
  const service = await SignalintService.create(io.runtime, { root: target.cwd ?? undefined });
  try {
    const relative = relativeToRoot(service.project.root, absolute) ?? relativeToRoot(service.project.realRoot, absolute);
    if (relative === null) return 0;
    if (!(await io.runtime.stat(absolute))?.isFile) return 0;
    const report = await cliCheck({ ...io, stderrIsTty: false }, service, [relative], null);
    const failed = failedEngines(report);
    const lines = report.issues.map((issue) => `${issue.file}:${issue.line}:${issue.col} ${issue.severity} ${issue.rule} (${issue.engine}): ${issue.message}`);
    for (const [engine, status] of failed) lines.push(`signalint: ${engine} failed: ${status.message ?? "error"}`);
    if (report.issues.length) {
      io.runtime.writeStderr(`Signalint found ${report.issues.length} problem(s) after editing ${relative}:\n${lines.join("\n")}\n`);
      return 2;
    }
    if (failed.length) {
      io.runtime.writeStderr(`${lines.join("\n")}\n`);
      return 1;
    }
    return 0;
  } finally {
    service.close();
  }
}
