// What each client's per-edit hook sends on stdin, read into the files an edit touched and the project directory.
// Claude Code PostToolUse (Edit, Write, MultiEdit): `{cwd, tool_input: {file_path}}`; Gemini CLI AfterTool (write_file,
// replace): the same shape; Cursor afterFileEdit: `{file_path, workspace_roots}`; Codex PostToolUse (apply_patch):
// `{cwd, tool_input: {command: "*** Begin Patch …"}}`, the patch naming its files in `*** Add File:` / `*** Update
// File:` / `*** Move to:` lines.

/** What a hook's stdin named: the edited files and the project directory, or why it names none. */
export type HookInput = { files: string[]; cwd: string | null } | { problem: string };

const SHAPES = "Claude Code PostToolUse, Cursor afterFileEdit, Codex PostToolUse, Gemini CLI AfterTool";

/** The files a Codex patch leaves behind (added, updated, or moved to); deleted files are nothing to check. */
export function patchFiles(patch: string): string[] {
  const files: string[] = [];
  for (const line of patch.split(/\r?\n/)) {
    const header = /^\*\*\* (Add File|Update File|Move to): (.+)$/.exec(line.trimEnd());
    if (!header) continue;
    // An update that moves its file leaves only the new path.
    if (header[1] === "Move to" && files.length) files.pop();
    files.push((header[2] as string).trim());
  }
  return [...new Set(files)];
}

type HookJson = {
  cwd?: unknown;
  tool_input?: { file_path?: unknown; command?: unknown; input?: unknown };
  file_path?: unknown;
  workspace_roots?: unknown;
};

/** The edited files the JSON names, in the order of the clients above. */
function namedFiles(value: HookJson): string[] {
  const file = value?.tool_input?.file_path ?? value?.file_path;
  if (typeof file === "string" && file !== "") return [file];
  const patch = [value?.tool_input?.command, value?.tool_input?.input].find((text) => typeof text === "string" && text.includes("*** Begin Patch"));
  return typeof patch === "string" ? patchFiles(patch) : [];
}

/** The edited files and the project directory named by a hook's JSON. */
export function hookTarget(input: string): HookInput {
  let value: HookJson;
  try {
    value = JSON.parse(input);
  } catch {
    // Not JSON: the problem says so.
    const what = input.trim() === "" ? "stdin was empty" : "stdin is not JSON";
    return { problem: `${what}; this verb reads the JSON an editor hook sends (${SHAPES})` };
  }
  const files = namedFiles(value);
  if (!files.length)
    return {
      problem:
        "the hook's JSON names no edited file (Claude Code, Gemini CLI: tool_input.file_path; Cursor: file_path; Codex: an apply_patch patch in tool_input.command), so nothing was checked",
    };
  const roots = Array.isArray(value.workspace_roots) ? value.workspace_roots : [];
  const cwd = typeof value.cwd === "string" ? value.cwd : typeof roots[0] === "string" ? (roots[0] as string) : null;
  return { files, cwd };
}
