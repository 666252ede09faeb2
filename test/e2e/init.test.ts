import assert from "node:assert/strict";
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { parseJsonc } from "../../src/core/jsonc.ts";
import { BUNDLE, CLEAN_PATH, removeDir, tempDir } from "../helpers.ts";
import { initProject as project, parseToml, readIn as read, runIn as run } from "./init-project.ts";

/** The portable launch init writes by default. */
const NPX = { command: "npx", args: ["-y", "signalint-mcp"] };

const init = (cwd: string, args: string[], env?: Record<string, string>) => run(process.execPath, [BUNDLE, "init", ...args], cwd, { env });

/** The project's installed signalint-mcp entry, as init names it. */
const ENTRY = "node_modules/signalint-mcp/dist/signalint-mcp.mjs";
const copies: string[] = [];
after(() => copies.forEach(removeDir));

/**
 * Copy an initialized project to another path and start a server from each client config written there, as each
 * client does (in the project directory, its workspace variable expanded): each must serve the copy. Returns the copy.
 */
async function serveFromCopy(dir: string): Promise<string> {
  const copy = join(tempDir("signalint-init-copy-"), "elsewhere");
  copies.push(join(copy, ".."));
  cpSync(dir, copy, { recursive: true, verbatimSymlinks: true });
  const codex = parseToml(read(copy, ".codex/config.toml"))["mcp_servers.signalint"] as { command: string; args: string[] };
  const entries: [string, { command: string; args: string[]; env?: Record<string, string> }][] = [
    ["Claude Code", JSON.parse(read(copy, ".mcp.json")).mcpServers.signalint],
    ["Cursor", JSON.parse(read(copy, ".cursor/mcp.json")).mcpServers.signalint],
    ["VS Code", JSON.parse(read(copy, ".vscode/mcp.json")).servers.signalint],
    [
      "Zed",
      (parseJsonc(read(copy, ".zed/settings.json")) as { context_servers: { signalint: { command: string; args: string[] } } }).context_servers.signalint,
    ],
    ["Codex", codex],
  ];
  const expand = (value: string) => value.replace("${workspaceFolder}", copy);
  for (const [client, entry] of entries) {
    const env = Object.fromEntries(Object.entries(entry.env ?? {}).map(([name, value]) => [name, expand(value)]));
    const transport = new StdioClientTransport({
      command: entry.command,
      args: entry.args.map(expand),
      cwd: copy,
      env: { PATH: CLEAN_PATH, HOME: copy, SIGNALINT_DAEMON: "0", npm_config_cache: join(copy, "..", "npm-cache"), ...env },
      stderr: "pipe",
    });
    const client = new Client({ name: "init-test", version: "1.0.0" });
    await client.connect(transport);
    try {
      const pong = await client.callTool({ name: "ping", arguments: {} });
      assert.deepEqual(pong.structuredContent, { pong: true, projectRoot: copy }, `${client} config serves the copy`);
    } finally {
      await client.close();
    }
  }
  return copy;
}

describe("init", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  it("shows the plan and writes nothing without --yes; --print prints every client's config", () => {
    const dir = project();
    dirs.push(dir);
    const plan = init(dir, []);
    assert.equal(plan.status, 0, plan.stderr);
    assert.match(plan.stdout, /launched as node running .*signalint-mcp\.mjs; configs run npx -y signalint-mcp .*--absolute writes node running/);
    assert.match(plan.stdout, /create +.*\.mcp\.json/);
    assert.match(plan.stdout, /Nothing written: re-run with --yes/);
    assert.ok(!existsSync(join(dir, ".mcp.json")) && !existsSync(join(dir, ".gitignore")));
    const printed = init(dir, ["--print", "--client", "claude,codex,windsurf", "--hooks"]);
    assert.match(printed.stdout, /# Claude Code: .*\.mcp\.json\n\{\n {2}"mcpServers"/);
    assert.match(printed.stdout, /\[mcp_servers\.signalint\]\ncommand = /);
    assert.match(printed.stdout, /# Windsurf: .*\.codeium\/windsurf\/mcp_config\.json/);
    assert.match(printed.stdout, /# Cursor hook \(documentation\): .*\.cursor\/hooks\.json\n\{\n {2}"version": 1,\n {2}"hooks": \{\n {4}"afterFileEdit"/);
    assert.match(
      printed.stdout,
      /# Codex hook \(documentation\): .*\.codex\/hooks\.json\n\{\n {2}"hooks": \{\n {4}"PostToolUse": \[\n {6}\{\n {8}"matcher": "apply_patch"/,
    );
    assert.match(
      printed.stdout,
      /# Gemini CLI hook \(documentation\): .*\.gemini\/settings\.json\n\{\n {2}"hooks": \{\n {4}"AfterTool": \[\n {6}\{\n {8}"matcher": "write_file\|replace"/,
    );
    assert.match(printed.stdout, /# Claude Code hook: .*\.claude\/settings\.json\n\{\n {2}"hooks": \{\n {4}"PostToolUse"/);
    assert.ok(!existsSync(join(dir, ".mcp.json")));
  });

  it("--yes writes config and every project client config, each parseable and portable, and no .gitignore entry", () => {
    const dir = project();
    dirs.push(dir);
    const result = init(dir, ["--yes", "--hooks"]);
    assert.equal(result.status, 0, result.stdout + result.stderr);
    assert.ok(!existsSync(join(dir, "signalint.config.json")), "no config: nothing is required, and the project's own tools could read one");
    assert.ok(!existsSync(join(dir, ".gitignore")), "state lives outside the tree: nothing to ignore");
    assert.deepEqual(JSON.parse(read(dir, ".mcp.json")), { mcpServers: { signalint: { type: "stdio", ...NPX } } });
    assert.deepEqual(JSON.parse(read(dir, ".cursor/mcp.json")).mcpServers.signalint, { ...NPX, env: { SIGNALINT_PROJECT_ROOT: "${workspaceFolder}" } });
    assert.deepEqual(JSON.parse(read(dir, ".vscode/mcp.json")), {
      servers: { signalint: { type: "stdio", ...NPX, env: { SIGNALINT_PROJECT_ROOT: "${workspaceFolder}" } } },
    });
    assert.deepEqual(parseJsonc(read(dir, ".zed/settings.json")), { context_servers: { signalint: NPX } });
    const codex = parseToml(read(dir, ".codex/config.toml"))["mcp_servers.signalint"];
    assert.deepEqual(codex, { ...NPX, startup_timeout_sec: 60, tool_timeout_sec: 900 });
    const hooks = JSON.parse(read(dir, ".claude/settings.json")).hooks.PostToolUse;
    assert.equal(hooks.length, 1);
    assert.equal(hooks[0].matcher, "Edit|Write|MultiEdit");
    assert.equal(hooks[0].hooks[0].command, "npx -y signalint-mcp hook");
    assert.ok(!existsSync(join(dir, ".codeium")), "Windsurf's user config is not written without --windsurf-global");
    for (const file of [".mcp.json", ".cursor/mcp.json", ".vscode/mcp.json", ".zed/settings.json", ".codex/config.toml", ".claude/settings.json"])
      assert.ok(!read(dir, file).includes(dir), `${file} names no absolute path of this machine`);
    const again = init(dir, ["--yes", "--hooks"]);
    assert.equal(again.status, 0);
    assert.doesNotMatch(again.stdout, /create|merge into/, "a second run changes nothing");
  });

  it("the written configs start a working server from a copy of the project at another path", async () => {
    const dir = project();
    dirs.push(dir);
    assert.equal(init(dir, ["--yes"]).status, 0);
    await serveFromCopy(dir);
  });

  it("with signalint-mcp a devDependency, configs and hooks run node on the project's installed entry (no npx), from a copy too", async () => {
    const dir = project();
    dirs.push(dir);
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "init-me", private: true, devDependencies: { "signalint-mcp": "^0.0.0" } }));
    const result = init(dir, ["--yes", "--hooks"]);
    assert.equal(result.status, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /configs run the project's own signalint-mcp \(node node_modules\/signalint-mcp\/dist\/signalint-mcp\.mjs\)/);
    const local = { command: "node", args: [ENTRY] };
    const rooted = { command: "node", args: [`\${workspaceFolder}/${ENTRY}`], env: { SIGNALINT_PROJECT_ROOT: "${workspaceFolder}" } };
    assert.deepEqual(JSON.parse(read(dir, ".mcp.json")).mcpServers.signalint, { type: "stdio", ...local });
    assert.deepEqual(JSON.parse(read(dir, ".cursor/mcp.json")).mcpServers.signalint, rooted);
    assert.deepEqual(JSON.parse(read(dir, ".vscode/mcp.json")).servers.signalint, { type: "stdio", ...rooted });
    assert.deepEqual(parseJsonc(read(dir, ".zed/settings.json")), { context_servers: { signalint: local } });
    assert.deepEqual(parseToml(read(dir, ".codex/config.toml"))["mcp_servers.signalint"], { ...local, startup_timeout_sec: 60, tool_timeout_sec: 900 });
    const command = JSON.parse(read(dir, ".claude/settings.json")).hooks.PostToolUse[0].hooks[0].command as string;
    assert.equal(command, `node "$CLAUDE_PROJECT_DIR/${ENTRY}" hook`);
    const copy = await serveFromCopy(dir);
    // Claude Code runs the hook wherever its shell is, with CLAUDE_PROJECT_DIR naming the project.
    const hook = run("/bin/sh", ["-c", command], join(copy, "src"), {
      env: { CLAUDE_PROJECT_DIR: copy },
      input: JSON.stringify({ hook_event_name: "PostToolUse", cwd: copy, tool_name: "Write", tool_input: { file_path: join(copy, "src", "bad.ts") } }),
    });
    assert.equal(hook.status, 2, hook.stderr);
    assert.match(hook.stderr, /^src\/bad\.ts:1:14 error TS2322/m);
  });

  it("--absolute points every config at this bundle and the project's absolute root", async () => {
    const dir = project();
    dirs.push(dir);
    const result = init(dir, ["--yes", "--absolute"]);
    assert.equal(result.status, 0, result.stdout + result.stderr);
    const launch = { command: process.execPath, args: [BUNDLE] };
    assert.deepEqual(JSON.parse(read(dir, ".mcp.json")), { mcpServers: { signalint: { type: "stdio", ...launch } } });
    assert.deepEqual(JSON.parse(read(dir, ".cursor/mcp.json")).mcpServers.signalint, { ...launch, env: { SIGNALINT_PROJECT_ROOT: dir } });
    assert.deepEqual(parseJsonc(read(dir, ".zed/settings.json")), { context_servers: { signalint: { ...launch, env: { SIGNALINT_PROJECT_ROOT: dir } } } });
    assert.deepEqual(parseToml(read(dir, ".codex/config.toml"))["mcp_servers.signalint"], {
      ...launch,
      cwd: dir,
      startup_timeout_sec: 60,
      tool_timeout_sec: 900,
    });
    const entry = JSON.parse(read(dir, ".mcp.json")).mcpServers.signalint;
    const transport = new StdioClientTransport({
      command: entry.command,
      args: entry.args,
      cwd: dir,
      env: { PATH: CLEAN_PATH, HOME: dir, SIGNALINT_DAEMON: "0" },
      stderr: "pipe",
    });
    const client = new Client({ name: "init-test", version: "1.0.0" });
    await client.connect(transport);
    try {
      const pong = await client.callTool({ name: "ping", arguments: {} });
      assert.deepEqual(pong.structuredContent, { pong: true, projectRoot: dir });
    } finally {
      await client.close();
    }
  });

  it("merges into existing files (keeping other servers and comments) and refuses a different entry of ours", () => {
    const dir = project();
    dirs.push(dir);
    writeFileSync(join(dir, ".mcp.json"), '{ "mcpServers": { "other": { "command": "other-server" } } }\n');
    mkdirSync(join(dir, ".zed"));
    writeFileSync(join(dir, ".zed", "settings.json"), '// my settings\n{\n  "tab_size": 4,\n}\n');
    mkdirSync(join(dir, ".codex"));
    writeFileSync(join(dir, ".codex", "config.toml"), 'model = "o3"\n\n[mcp_servers.other]\ncommand = "other"\n');
    mkdirSync(join(dir, ".cursor"));
    const cursor = '{ "mcpServers": { "signalint": { "command": "/old/signalint-mcp" } } }\n';
    writeFileSync(join(dir, ".cursor", "mcp.json"), cursor);
    writeFileSync(join(dir, ".gitignore"), "node_modules");
    mkdirSync(join(dir, ".vscode"));
    const vscode = '{\n  // team servers\n  "servers": {\n    "other": { "command": "x" } // the other one\n    // keep this last\n  }\n}\n';
    writeFileSync(join(dir, ".vscode", "mcp.json"), vscode);
    const result = init(dir, ["--yes"]);
    assert.equal(result.status, 1, "a refused file is reported in the exit code");
    assert.match(
      result.stdout,
      /refused: +.*\.cursor\/mcp\.json \(it already has a different "mcpServers\.signalint" entry; remove it or re-run with --force\)/,
    );
    assert.equal(read(dir, ".cursor/mcp.json"), cursor, "never overwritten silently");
    assert.deepEqual(Object.keys(JSON.parse(read(dir, ".mcp.json")).mcpServers), ["other", "signalint"]);
    const zed = read(dir, ".zed/settings.json");
    assert.match(zed, /^\/\/ my settings/);
    assert.equal((parseJsonc(zed) as { tab_size: number }).tab_size, 4);
    const codex = parseToml(read(dir, ".codex/config.toml"));
    assert.deepEqual(Object.keys(codex), ["", "mcp_servers.other", "mcp_servers.signalint"]);
    assert.equal(codex[""]?.model, "o3");
    assert.equal(read(dir, ".gitignore"), "node_modules", "the project's .gitignore is left alone");
    // Comments stay where they were: each on its own line, the other entry untouched, ours added after it.
    const merged = read(dir, ".vscode/mcp.json");
    assert.ok(merged.startsWith('{\n  // team servers\n  "servers": {\n    "other": { "command": "x" }, // the other one\n    "signalint": {'), merged);
    assert.match(merged, /\n {4}\}\n {4}\/\/ keep this last\n {2}\}\n\}\n$/);
    const forced = init(dir, ["--yes", "--force", "--client", "cursor"]);
    assert.equal(forced.status, 0);
    assert.equal(JSON.parse(read(dir, ".cursor/mcp.json")).mcpServers.signalint.command, "npx");
  });

  it("writes Windsurf's user config only with --windsurf-global", () => {
    const dir = project();
    dirs.push(dir);
    const home = tempDir("signalint-home-");
    dirs.push(home);
    const printed = init(dir, ["--yes", "--client", "windsurf"], { HOME: home });
    assert.match(printed.stdout, /print +Windsurf: .*--windsurf-global/);
    assert.ok(!existsSync(join(home, ".codeium")));
    const written = init(dir, ["--yes", "--client", "windsurf", "--windsurf-global"], { HOME: home });
    assert.equal(written.status, 0, written.stdout);
    const config = JSON.parse(readFileSync(join(home, ".codeium", "windsurf", "mcp_config.json"), "utf8"));
    // Windsurf's file is the user's, not the project's: it names the root (it is never committed).
    assert.deepEqual(config.mcpServers.signalint, { ...NPX, env: { SIGNALINT_PROJECT_ROOT: dir } });
  });

  it("refuses a config file that is not JSON, with a clear message", () => {
    const dir = project();
    dirs.push(dir);
    writeFileSync(join(dir, ".mcp.json"), "{ broken");
    const result = init(dir, ["--yes", "--client", "claude"]);
    assert.equal(result.status, 1);
    assert.match(result.stdout, /refused: +.*\.mcp\.json \(not valid JSON/);
    assert.equal(read(dir, ".mcp.json"), "{ broken");
  });
});

describe("hook", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  it("the Claude Code hook init writes exits 2 with the edited file's problems on stderr, 0 when it is clean", () => {
    const dir = project();
    dirs.push(dir);
    init(dir, ["--yes", "--hooks", "--client", "claude"]);
    const command = JSON.parse(read(dir, ".claude/settings.json")).hooks.PostToolUse[0].hooks[0].command as string;
    const hook = (file: string) =>
      run("/bin/sh", ["-c", command], dir, {
        input: JSON.stringify({ hook_event_name: "PostToolUse", cwd: dir, tool_name: "Edit", tool_input: { file_path: file } }),
      });
    const bad = hook(join(dir, "src", "bad.ts"));
    assert.equal(bad.status, 2, bad.stderr);
    assert.match(bad.stderr, /src\/bad\.ts:1:14 error TS2322 \(tsc\): Type 'string' is not assignable to type 'number'/);
    assert.equal(bad.stdout, "");
    const good = hook(join(dir, "src", "good.ts"));
    assert.equal(good.status, 0, good.stderr);
    assert.equal(hook(join(dir, "README.md")).status, 0, "not a file Signalint checks");
    const cursor = run("/bin/sh", ["-c", command], dir, {
      input: JSON.stringify({ hook_event_name: "afterFileEdit", workspace_roots: [dir], file_path: join(dir, "src", "bad.ts") }),
    });
    assert.equal(cursor.status, 2, "Cursor's afterFileEdit input works too");
    assert.equal(run("/bin/sh", ["-c", command], dir, { input: "not json" }).status, 1);
  });
});
