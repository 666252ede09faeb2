import { VERSION } from "../version.ts";

const ROOT_OPTION = `  --root DIR             project root (default: SIGNALINT_PROJECT_ROOT, else the nearest directory at or above the
                         working directory with signalint.config.json, else with package.json or .git)`;

/** Per-verb help (`signalint-mcp VERB --help`). */
export const VERB_HELP: Record<string, string> = {
  check: `Usage: signalint-mcp check [options] [paths…]

Check the project (default: the working directory) with its own Oxlint, tsc, Biome and ESLint; paths are relative to
the working directory.

Options:
  --format FORMAT        text (default), json (every issue with its location), sarif (SARIF 2.1.0) or github
                         (workflow annotations); response prints the MCP server's CheckResponse instead
  --compact              compact keys in the response format (v, total, remaining, omitted, filteredOut)
  --max-warnings N       exit 1 when there are more than N warnings (default: warnings alone exit 0)
  --shard I/N            check only the I-th of N slices of the project, split by package and tsconfig project
                         (for a CI matrix; the shards' issues add up to the whole check; no paths with --shard)
${ROOT_OPTION}
  -h, --help             this help

Exit codes: 0 no errors (and warnings within --max-warnings); 1 errors, too many warnings, or an engine failed (the
check is incomplete); 2 usage or configuration error.
A progress line is shown on stderr when it is a terminal (not under CI).
`,
  init: `Usage: signalint-mcp init [options]

Set a project up for Signalint: signalint.config.json (when missing), a .gitignore entry for .signalint/, and the
MCP client configs, pointing at this signalint-mcp as it was launched. Shows every change first; existing files are
merged where their format allows (our server entry added), never silently overwritten.

Options:
  --client NAMES         comma-separated: claude, cursor, vscode, codex, zed, windsurf (default: all but windsurf)
  --print                print the configs instead of writing them
  --yes                  write without asking (required when stdin is not a terminal or under CI)
  --hooks                also add a Claude Code PostToolUse hook that checks each edited file
  --windsurf-global      write ~/.codeium/windsurf/mcp_config.json (Windsurf has no project config)
  --codex-global         print the entry for ~/.codex/config.toml instead of writing .codex/config.toml
${ROOT_OPTION}
  -h, --help             this help
`,
  hook: `Usage: signalint-mcp hook

For editor hooks (Claude Code PostToolUse, Cursor afterFileEdit): reads the hook's JSON from stdin, checks the edited
file, and exits 2 with its problems on stderr (Claude Code feeds them back to the model), 0 when clean or when the
file is not one Signalint checks.
`,
  doctor: `Usage: signalint-mcp doctor [--json] [--root DIR]

Show config resolution, payload mode and how each engine resolves; a bad signalint.config.json is reported, not fatal.
`,
  stats: `Usage: signalint-mcp stats [--json] [--root DIR]

Checks run, cache hits/misses per engine, cache and artifact sizes.
`,
  serve: `Usage: signalint-mcp serve

Start the MCP server on stdio (also what a bare signalint-mcp does when stdin is not a terminal).
`,
};

/** Usage text for --help and a bare invocation on a terminal. */
export const HELP = `signalint-mcp ${VERSION} — fresh, compact JS/TS diagnostics for AI coding agents (MCP over stdio)

Usage:
  signalint-mcp                      start the MCP server on stdio (when stdin is not a terminal)
  signalint-mcp serve                start the MCP server on stdio
  signalint-mcp check [paths…]       check the project and print the result (text, json, sarif, github)
  signalint-mcp init                 write signalint.config.json, .gitignore entry and MCP client configs
  signalint-mcp hook                 check the file an editor hook names on stdin (exit 2 with its problems)
  signalint-mcp doctor               show config resolution and how each engine resolves
  signalint-mcp stats                checks run, cache use, cache and artifact sizes
  signalint-mcp VERB --help          options of one command
  signalint-mcp --version | --help

Exit codes (check): 0 no errors, 1 errors (or too many warnings, or an engine failed), 2 usage or configuration error.
Environment: SIGNALINT_PROJECT_ROOT, SIGNALINT_STATE_DIR, SIGNALINT_CACHE_DIR, SIGNALINT_MCP_PAYLOAD, SIGNALINT_COMPACT,
SIGNALINT_STRUCTURED_MAX_BYTES.
`;
