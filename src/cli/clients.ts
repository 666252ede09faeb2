import { parseJsonc } from "../core/jsonc.ts";
import { setJsoncValue } from "../core/jsonc-edit.ts";

import { launchIn, type Launch } from "./launch.ts";

/** What one file change would do. */
export type Change = { kind: "create"; text: string } | { kind: "merge"; text: string } | { kind: "unchanged" } | { kind: "refused"; reason: string };

/** One file init may write: where, and what it would become given its current text (null: absent). */
export interface Target {
  label: string;
  /** Absolute path. */
  path: string;
  /** Printed instead of written unless a flag allows the write (files outside the project). */
  printOnly?: string;
  change: (current: string | null, force: boolean) => Change;
  /** The snippet `--print` shows. */
  snippet: string;
}

export const SERVER_NAME = "signalint";

/** Every client init knows, in the order it writes them. */
export const CLIENTS = ["claude", "cursor", "vscode", "codex", "zed", "windsurf"] as const;
export type Client = (typeof CLIENTS)[number];

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Merge `value` at `path` into a JSON(C) document with the smallest edit (core/jsonc-edit.ts): comments, other
 * entries and their layout stay where they were. An entry already there with other content is refused unless `force`.
 */
export function mergeJson(current: string | null, path: string[], value: unknown, force: boolean): Change {
  if (current === null || current.trim() === "") {
    return {
      kind: "create",
      text: `${JSON.stringify(
        path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value),
        null,
        2,
      )}\n`,
    };
  }
  const bom = current.startsWith("\uFEFF") ? "\uFEFF" : "";
  const text = current.slice(bom.length);
  let document: unknown;
  try {
    document = parseJsonc(text);
  } catch (error) {
    return { kind: "refused", reason: `not valid JSON (${(error as Error).message}); fix it or add the entry by hand (--print shows it)` };
  }
  if (typeof document !== "object" || document === null || Array.isArray(document)) return { kind: "refused", reason: "its top level is not an object" };
  let existing: unknown = document;
  for (const [depth, key] of path.entries()) {
    if (existing !== undefined && (typeof existing !== "object" || existing === null || Array.isArray(existing)))
      return { kind: "refused", reason: `its "${path.slice(0, depth).join(".")}" is not an object; fix it or add the entry by hand (--print shows it)` };
    existing = (existing as Record<string, unknown> | undefined)?.[key];
  }
  if (existing !== undefined && sameJson(existing, value)) return { kind: "unchanged" };
  if (existing !== undefined && !force)
    return { kind: "refused", reason: `it already has a different "${path.join(".")}" entry; remove it or re-run with --force` };
  const merged = `${bom}${setJsoncValue(text, path, value)}`;
  return { kind: "merge", text: merged.endsWith("\n") ? merged : `${merged}\n` };
}

/** A TOML basic string (JSON's escapes are TOML's). */
function tomlString(text: string): string {
  return JSON.stringify(text);
}

/**
 * Codex's table for our server. Codex starts a project's servers in the project directory, so the portable form
 * names no `cwd`; `root` (the absolute form) pins it.
 */
export function codexTable(launch: Launch, root: string | null): string {
  const { command, args } = launchIn(launch, root);
  return [
    `[mcp_servers.${SERVER_NAME}]`,
    `command = ${tomlString(command)}`,
    `args = [${args.map(tomlString).join(", ")}]`,
    ...(root === null ? [] : [`cwd = ${tomlString(root)}`]),
    // npx may fetch the package on a first start; a long check needs more than Codex's default tool timeout.
    "startup_timeout_sec = 60",
    "tool_timeout_sec = 900",
    "",
  ].join("\n");
}

/** Append our table to a Codex config.toml; one already there is refused (TOML tables cannot be defined twice). */
function mergeToml(current: string | null, table: string): Change {
  if (current === null || current.trim() === "") return { kind: "create", text: table };
  const header = new RegExp(`^\\s*\\[\\s*mcp_servers\\s*\\.\\s*("?)${SERVER_NAME}\\1\\s*\\]`, "m");
  if (current.includes(table.trim())) return { kind: "unchanged" };
  if (header.test(current)) return { kind: "refused", reason: `it already has [mcp_servers.${SERVER_NAME}]; edit or remove that table first` };
  return { kind: "merge", text: `${current}${current.endsWith("\n") ? "" : "\n"}\n${table}` };
}

/**
 * The MCP client config targets for a project. Portable (the default) entries name no absolute path: the project
 * root is each client's workspace variable (`${workspaceFolder}` in VS Code and Cursor) or the directory the client
 * starts project servers in (Claude Code, Codex, Zed); Windsurf's user-level file names the root, as it is not
 * committed. `launch.portable` false (--absolute) pins the root everywhere.
 */
export function clientTargets(launch: Launch, root: string, home: string | null, options: { windsurfGlobal: boolean; codexGlobal: boolean }) {
  const join = (...parts: string[]) => parts.join("/");
  // Clients that start servers in the project directory run a project script relative to it.
  const stdio = launchIn(launch, null);
  const rootedAt = (value: string) => ({ ...launchIn(launch, value), env: { SIGNALINT_PROJECT_ROOT: value } });
  const rooted = rootedAt(root);
  const json = (label: string, path: string, keys: string[], value: unknown, printOnly?: string): Target => ({
    label,
    path,
    printOnly,
    change: (current, force) => mergeJson(current, keys, value, force),
    snippet: `${JSON.stringify(
      keys.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value),
      null,
      2,
    )}\n`,
  });
  const portable = launch.portable;
  // A user-level Codex config serves every project: it needs the root, as the portable form's cwd is the project's.
  const codexRoot = portable && !options.codexGlobal ? null : root;
  const codexPath = options.codexGlobal ? join(home ?? "~", ".codex", "config.toml") : join(root, ".codex", "config.toml");
  const windsurfPath = join(home ?? "~", ".codeium", "windsurf", "mcp_config.json");
  const targets: Record<Client, Target> = {
    // Claude Code starts project servers in the project directory.
    claude: json("Claude Code", join(root, ".mcp.json"), ["mcpServers", SERVER_NAME], { type: "stdio", ...stdio }),
    cursor: json("Cursor", join(root, ".cursor", "mcp.json"), ["mcpServers", SERVER_NAME], portable ? rootedAt("${workspaceFolder}") : rooted),
    vscode: json("VS Code", join(root, ".vscode", "mcp.json"), ["servers", SERVER_NAME], { type: "stdio", ...rootedAt("${workspaceFolder}") }),
    codex: {
      label: "Codex",
      path: codexPath,
      printOnly: options.codexGlobal ? "Codex's user config is outside the project: add this table to it (or run without --codex-global)" : undefined,
      change: (current) => mergeToml(current, codexTable(launch, codexRoot)),
      snippet: codexTable(launch, codexRoot),
    },
    // Zed starts a project's context servers in the project's root directory.
    zed: json("Zed", join(root, ".zed", "settings.json"), ["context_servers", SERVER_NAME], portable ? stdio : rooted),
    windsurf: json(
      "Windsurf",
      windsurfPath,
      ["mcpServers", SERVER_NAME],
      rooted,
      options.windsurfGlobal ? undefined : "Windsurf has only a user config (outside the project): add this entry, or re-run with --windsurf-global",
    ),
  };
  return targets;
}

/** A shell word (POSIX single quotes) for a hook command line. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A hook's command line; a project script is rooted at `base` (a shell expression such as "$CLAUDE_PROJECT_DIR"). */
function hookCommand(launch: Launch, base: string | null): string {
  const { command, args } = launchIn(launch, null);
  if (!launch.projectScript || base === null) return [command, ...args, "hook"].map(shellWord).join(" ");
  return `${shellWord(command)} "${base}/${launch.projectScript}" hook`;
}

/** The Claude Code PostToolUse hook entry that checks each edited file (from the project root, wherever the shell is). */
export function claudeHook(launch: Launch): { matcher: string; hooks: { type: "command"; command: string; timeout: number }[] } {
  return { matcher: "Edit|Write|MultiEdit", hooks: [{ type: "command", command: hookCommand(launch, "$CLAUDE_PROJECT_DIR"), timeout: 300 }] };
}

/** Add our PostToolUse entry to .claude/settings.json (kept when an entry runs the same command). */
export function mergeClaudeHook(current: string | null, launch: Launch): Change {
  const entry = claudeHook(launch);
  let existing: unknown[] = [];
  if (current !== null && current.trim() !== "") {
    try {
      const document = parseJsonc(current) as { hooks?: { PostToolUse?: unknown } } | null;
      const list = document?.hooks?.PostToolUse;
      if (list !== undefined && !Array.isArray(list)) return { kind: "refused", reason: "its hooks.PostToolUse is not an array" };
      existing = list ?? [];
    } catch (error) {
      return { kind: "refused", reason: `not valid JSON (${(error as Error).message})` };
    }
  }
  if (existing.some((item) => JSON.stringify(item).includes(JSON.stringify(entry.hooks[0]?.command).slice(1, -1)))) return { kind: "unchanged" };
  const change = mergeJson(current, ["hooks", "PostToolUse"], [...existing, entry], true);
  return change.kind === "merge" || change.kind === "create" ? change : { kind: "refused", reason: "cannot add the hook" };
}

/** The Cursor equivalent (documented and printed; Cursor's afterFileEdit output is not fed back to the model). */
export function cursorHooksSnippet(launch: Launch): string {
  // Cursor runs a project's hooks from the project root.
  const command = hookCommand(launch, null);
  return `${JSON.stringify({ version: 1, hooks: { afterFileEdit: [{ command }] } }, null, 2)}\n`;
}

/** Codex's PostToolUse hook on apply_patch (`.codex/hooks.json`; Codex 0.124 and later), printed: docs/hooks.md. */
export function codexHooksSnippet(launch: Launch): string {
  const hooks = [{ type: "command", command: hookCommand(launch, null), timeout: 300 }];
  return `${JSON.stringify({ hooks: { PostToolUse: [{ matcher: "apply_patch", hooks }] } }, null, 2)}\n`;
}

/** Gemini CLI's AfterTool hook on its edit tools (`.gemini/settings.json`; its timeout is in milliseconds), printed. */
export function geminiHooksSnippet(launch: Launch): string {
  const hooks = [{ type: "command", command: hookCommand(launch, null), timeout: 300_000 }];
  return `${JSON.stringify({ hooks: { AfterTool: [{ matcher: "write_file|replace", hooks }] } }, null, 2)}\n`;
}
