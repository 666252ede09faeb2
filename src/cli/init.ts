import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { quoteInput } from "../core/errors.ts";
import { openProject } from "../service/project/project.ts";
import type { Runtime } from "../runtime/types.ts";
import { CLIENTS, claudeHook, clientTargets, cursorHooksSnippet, mergeClaudeHook, type Change, type Client, type Launch, type Target } from "./clients.ts";
import type { CliIo } from "./io.ts";
import { UsageError } from "./usage.ts";

/** Deno permissions the server needs (the same as the README's deno line). */
const DENO_FLAGS = ["run", "--allow-read", "--allow-write", "--allow-run", "--allow-env"];

/** How this signalint-mcp was launched: a standalone binary, node + the bundle, or deno + the bundle's URL or path. */
export function detectLaunch(runtime: Runtime): Launch {
  if (runtime.isStandalone || runtime.mainScript === null) return { command: runtime.execPath, args: [], how: `standalone binary ${runtime.execPath}` };
  if (runtime.name === "deno") {
    const script = runtime.mainScript.startsWith("file://") ? decodeURIComponent(new URL(runtime.mainScript).pathname) : runtime.mainScript;
    return { command: runtime.execPath, args: [...DENO_FLAGS, script], how: `deno running ${script}` };
  }
  return { command: runtime.execPath, args: [runtime.mainScript], how: `node running ${runtime.mainScript}` };
}

/** The project-level files: config (when missing) and the .gitignore entry. */
function projectTargets(root: string): Target[] {
  return [
    {
      label: "Signalint config",
      path: join(root, "signalint.config.json"),
      change: (current) => (current === null ? { kind: "create", text: "{}\n" } : { kind: "unchanged" }),
      snippet: "{}\n",
    },
    {
      label: ".gitignore",
      path: join(root, ".gitignore"),
      change: (current) => {
        if (current !== null && current.split(/\r?\n/).some((line) => /^\/?\.signalint\/?$/.test(line.trim()))) return { kind: "unchanged" };
        if (current === null) return { kind: "create", text: ".signalint/\n" };
        return { kind: "merge", text: `${current}${current === "" || current.endsWith("\n") ? "" : "\n"}.signalint/\n` };
      },
      snippet: ".signalint/\n",
    },
  ];
}

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

function parseInitArgs(argv: string[]) {
  return parseArgs({
    args: argv,
    options: {
      client: { type: "string" },
      print: { type: "boolean", default: false },
      yes: { type: "boolean", default: false },
      force: { type: "boolean", default: false },
      hooks: { type: "boolean", default: false },
      "windsurf-global": { type: "boolean", default: false },
      "codex-global": { type: "boolean", default: false },
      root: { type: "string" },
    },
  }).values;
}

/** Every file init may touch, for these options. */
function initTargets(runtime: Runtime, launch: Launch, root: string, values: ReturnType<typeof parseInitArgs>): Target[] {
  const home = runtime.env("HOME")?.trim() || runtime.env("USERPROFILE")?.trim() || null;
  const all = clientTargets(launch, root, home, { windsurfGlobal: values["windsurf-global"], codexGlobal: values["codex-global"] });
  const targets = [...projectTargets(root), ...parseClients(values.client).map((client) => all[client])];
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

/** One plan line per file: create, merge into, unchanged, refused (why), or print (outside the project). */
function planLines(planned: readonly { target: Target; change: Change }[]): string[] {
  return planned.flatMap(({ target, change }) =>
    target.printOnly && (change.kind === "create" || change.kind === "merge")
      ? [`  print    ${target.label}: ${target.printOnly} (${target.path}):`, ...indent(target.snippet)]
      : [`  ${VERBS[change.kind].padEnd(11)} ${target.path}${change.kind === "refused" ? ` (${change.reason})` : ""}`],
  );
}

/** `signalint-mcp init`: show the plan; write it with --yes; print the snippets with --print. */
export async function runInit(io: CliIo, argv: string[]): Promise<number> {
  const values = parseInitArgs(argv);
  const { runtime } = io;
  const launch = detectLaunch(runtime);
  const project = await openProject(runtime, { root: values.root });
  const targets = initTargets(runtime, launch, project.root, values);
  const lines = [`signalint-mcp init: ${project.root} (launched as ${launch.how})`];
  if (values.print) {
    for (const target of targets) lines.push("", `# ${target.label}: ${target.path}`, target.snippet.trimEnd());
    if (values.hooks) lines.push("", `# Cursor hook (documentation): ${join(project.root, ".cursor", "hooks.json")}`, cursorHooksSnippet(launch).trimEnd());
    io.stdout(`${lines.join("\n")}\n`);
    return 0;
  }
  const planned: { target: Target; change: Change }[] = [];
  for (const target of targets) planned.push({ target, change: target.change(await runtime.readText(target.path).catch(() => null), values.force) });
  lines.push(...planLines(planned));
  if (values.hooks) lines.push("  Cursor: to check edits there too, add to .cursor/hooks.json:", ...indent(cursorHooksSnippet(launch)));
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
