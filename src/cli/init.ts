import { dirname, join } from "node:path";
import { quoteInput } from "../core/errors.ts";
import { openProject } from "../service/project/project.ts";
import type { Runtime } from "../runtime/types.ts";
import {
  CLIENTS,
  claudeHook,
  clientTargets,
  codexHooksSnippet,
  cursorHooksSnippet,
  geminiHooksSnippet,
  mergeClaudeHook,
  type Change,
  type Client,
  type Target,
} from "./clients.ts";
import { defineCommand, ROOT_OPTION, type OptionValues } from "./command.ts";
import type { CliIo } from "./io.ts";
import { absoluteLaunch, portableLaunch, type Launch } from "./launch.ts";
import { UsageError } from "./usage.ts";

function parseClients(text: string | undefined): Client[] {
  if (text === undefined) return CLIENTS.filter((client) => client !== "windsurf");
  const names = text
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  for (const name of names)
    if (!CLIENTS.includes(name as Client)) throw new UsageError(`--client: unknown client ${quoteInput(name)}; one of ${CLIENTS.join(", ")}`);
  return [...new Set(names as Client[])];
}

const VERBS: Record<Change["kind"], string> = { create: "create", merge: "merge into", unchanged: "unchanged:", refused: "refused:" };

const indent = (text: string) =>
  text
    .trimEnd()
    .split("\n")
    .map((line) => `      ${line}`);

/** init's options, as the parser takes them and `init --help` prints them. */
const INIT_OPTIONS = {
  client: { type: "string", value: "NAMES", help: `comma-separated: ${CLIENTS.join(", ")} (default: all but windsurf)` },
  print: { type: "boolean", help: "print the configs instead of writing them" },
  yes: { type: "boolean", help: "write without asking (required when stdin is not a terminal or under CI)" },
  force: { type: "boolean", help: "replace a different signalint entry already in a client config (otherwise it is refused)" },
  absolute: {
    type: "boolean",
    help: "point the configs at this signalint-mcp's absolute path and the project's absolute root (works on this machine only)",
  },
  hooks: {
    type: "boolean",
    help: "also add a Claude Code PostToolUse hook that checks each edited file (and print Cursor's, Codex's and Gemini CLI's)",
  },
  "windsurf-global": { type: "boolean", help: "write ~/.codeium/windsurf/mcp_config.json (Windsurf has no project config)" },
  "codex-global": { type: "boolean", help: "print the entry for ~/.codex/config.toml instead of writing .codex/config.toml" },
  root: ROOT_OPTION,
} as const;

type InitValues = OptionValues<typeof INIT_OPTIONS>;

/** Every file init may touch, for these options. */
function initTargets(runtime: Runtime, launch: Launch, root: string, values: InitValues): Target[] {
  const home = runtime.env("HOME")?.trim() || runtime.env("USERPROFILE")?.trim() || null;
  const all = clientTargets(launch, root, home, { windsurfGlobal: values["windsurf-global"], codexGlobal: values["codex-global"] });
  // No signalint.config.json: nothing is required, and an empty one is a file the project's own tools may read
  // (zustand's ESLint lints `*.config.*`: `eslint .` failed on it). State lives outside the tree: no .gitignore entry.
  const targets = parseClients(values.client).map((client) => all[client]);
  if (values.hooks) {
    targets.push({
      label: "Claude Code hook",
      path: join(root, ".claude", "settings.json"),
      change: (current) => mergeClaudeHook(current, launch),
      snippet: `${JSON.stringify({ hooks: { PostToolUse: [claudeHook(launch)] } }, null, 2)}\n`,
    });
  }
  return targets;
}

/** The hooks init prints for the other clients that have one (docs/hooks.md): label, file, snippet. */
function otherHooks(root: string, launch: Launch): [string, string, string][] {
  return [
    ["Cursor", join(root, ".cursor", "hooks.json"), cursorHooksSnippet(launch)],
    ["Codex", join(root, ".codex", "hooks.json"), codexHooksSnippet(launch)],
    ["Gemini CLI", join(root, ".gemini", "settings.json"), geminiHooksSnippet(launch)],
  ];
}

/** One plan line per file: create, merge into, unchanged, refused (why), or print (outside the project). */
function planLines(planned: readonly { target: Target; change: Change }[]): string[] {
  return planned.flatMap(({ target, change }) =>
    target.printOnly && (change.kind === "create" || change.kind === "merge")
      ? [`  print    ${target.label}: ${target.printOnly} (${target.path}):`, ...indent(target.snippet)]
      : [`  ${VERBS[change.kind].padEnd(11)} ${target.path}${change.kind === "refused" ? ` (${change.reason})` : ""}`],
  );
}

/** The plan's first line: the project, and what the configs will run. */
function headline(root: string, launch: Launch, launched: Launch): string {
  const runs = launch.portable ? `configs run ${launch.how}; --absolute writes ${launched.how} instead` : `configs run ${launch.how}`;
  return `signalint-mcp init: ${root} (launched as ${launched.how}; ${runs})`;
}

/** `signalint-mcp init`: show the plan; write it with --yes; print the snippets with --print. */
async function runInit(io: CliIo, values: InitValues): Promise<number> {
  const { runtime } = io;
  const project = await openProject(runtime, { root: values.root });
  const launched = absoluteLaunch(runtime);
  const launch = values.absolute ? launched : await portableLaunch(runtime, project.root);
  const targets = initTargets(runtime, launch, project.root, values);
  const lines = [headline(project.root, launch, launched)];
  if (values.print) {
    for (const target of targets) lines.push("", `# ${target.label}: ${target.path}`, target.snippet.trimEnd());
    if (values.hooks)
      for (const [label, file, snippet] of otherHooks(project.root, launch)) lines.push("", `# ${label} hook (documentation): ${file}`, snippet.trimEnd());
    io.stdout(`${lines.join("\n")}\n`);
    return 0;
  }
  const planned: { target: Target; change: Change }[] = [];
  // No readable config yet: the change writes a new one.
  for (const target of targets) planned.push({ target, change: target.change(await runtime.readText(target.path).catch(() => null), values.force) });
  lines.push(...planLines(planned));
  if (values.hooks)
    for (const [label, file, snippet] of otherHooks(project.root, launch))
      lines.push(`  ${label}: to check edits there too, add to ${file}:`, ...indent(snippet));
  const writes = planned.flatMap(({ target, change }) =>
    !target.printOnly && (change.kind === "create" || change.kind === "merge") ? [{ target, text: change.text }] : [],
  );
  const refused = planned.some(({ change }) => change.kind === "refused");
  if (!values.yes && writes.length) lines.push(`Nothing written: re-run with --yes to make these ${writes.length} change(s).`);
  io.stdout(`${lines.join("\n")}\n`);
  if (!values.yes) return refused ? 1 : 0;
  for (const { target, text } of writes) {
    await runtime.mkdirp(dirname(target.path));
    await runtime.writeFileAtomic(target.path, text);
  }
  io.stdout(`Wrote ${writes.length} file(s).${refused ? " Some files were refused (see above)." : ""}\n`);
  return refused ? 1 : 0;
}

/** The init verb, declared once for its parser and its help. */
export const initCommand = defineCommand({
  name: "init",
  summary: "write the MCP client configs",
  description:
    "Set a project up for Signalint: the MCP client configs (no signalint.config.json: nothing is required, and " +
    "the project's own tools could read one). The configs are portable by default: they run the project's own installed signalint-mcp with node " +
    "when package.json lists it (else npx -y signalint-mcp) and find the project through each client's workspace variable or " +
    "working directory, so they can be committed. Shows every change first; existing files are merged where their " +
    "format allows (our server entry added, comments kept), never silently overwritten.",
  options: INIT_OPTIONS,
  run: (io, values) => runInit(io, values),
});
