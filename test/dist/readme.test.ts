// Every command the README shows runs here (issue 34), in README order, in a copy of fixtures/systemic-ts:
// - ```sh lines are commands, run with `sh -c` as written, except `npm i -D …`, where the package names become local
//   paths: signalint-mcp is this checkout's `npm pack` tarball (the package is not fetched from a registry) and each
//   engine is this repository's installed package (npm links a directory outside the project). npm runs with
//   --offline and an empty cache throughout, so `npx -y signalint-mcp` is the installed tarball, never the registry.
// - `claude mcp add signalint -- <command>` is a client's command: the part after `--` is started as that client
//   would start it, and must answer MCP.
// - ```json / ```toml blocks are client configs (their server is started with `${workspaceFolder}` replaced by the
//   project, and must answer `ping` for that project), Cursor's hooks file (its command runs with Cursor's input),
//   or signalint.config.json (written into the project; `doctor` must accept it).
// - ```yaml is the GitHub Actions usage: its `with` keys must be inputs of action.yml, its version package.json's.
// - ```text is the real answer, which test/e2e/readme-answer.test.ts compares with `check`.
// - The Contributing block (`npm ci && npm run build`, `npm test`) is not run here (it would run this suite): its
//   commands must be the ones package.json and .ci/run use.
// A block or command of any other kind fails the test until it is added here.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { after, before, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { parse as parseJsonc } from "jsonc-parser";
import { parseToml } from "../e2e/init-project.ts";
import { CLEAN_PATH, DENO, fixture, removeDir, REPO, tempDir } from "../helpers.ts";

const README = readFileSync(join(REPO, "README.md"), "utf8");
const MANIFEST = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { version: string; scripts: Record<string, string> };

interface Block {
  lang: string;
  body: string;
  section: string;
}

/** The README's fenced blocks in order, each with the `## ` section it is in. */
function blocks(): Block[] {
  const found: Block[] = [];
  let section = "";
  for (const part of README.split(/^(?=## )/m)) {
    section = part.startsWith("## ") ? (part.split("\n")[0] ?? "").slice(3) : section;
    for (const match of part.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)) found.push({ lang: match[1] ?? "", body: match[2] ?? "", section });
  }
  return found;
}

/** The command lines of a sh block, without trailing `# comments`. */
const commandLines = (block: Block) =>
  block.body
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter(Boolean);

/** The engines the README's install line names, as this repository has them installed. */
const LOCAL_PACKAGES: Record<string, string> = {
  oxlint: join(REPO, "node_modules", "oxlint"),
  typescript: join(REPO, "node_modules", "typescript"),
};

describe("every command in the README, run against a fixture project with the packed package", () => {
  let work: string;
  let project: string;
  let env: Record<string, string>;
  let tarball: string;
  const all = blocks();

  before(() => {
    work = tempDir("signalint-readme-");
    project = join(work, "project");
    cpSync(fixture("systemic-ts"), project, { recursive: true });
    env = {
      // deno on PATH for the Deno line; no node_modules/.bin; no CI variable, so a daemon runs as on a desktop.
      PATH: `${dirname(DENO)}:${CLEAN_PATH}`,
      HOME: work,
      XDG_STATE_HOME: join(work, "state-home"),
      XDG_CACHE_HOME: join(work, "cache-home"),
      npm_config_cache: join(work, "npm-cache"),
      npm_config_offline: "true",
      npm_config_update_notifier: "false",
      npm_config_audit: "false",
      npm_config_fund: "false",
    };
    const packed = spawnSync("npm", ["pack", "--json", "--pack-destination", work], { cwd: REPO, encoding: "utf8", env });
    assert.equal(packed.status, 0, packed.stderr);
    tarball = join(work, (JSON.parse(packed.stdout) as { filename: string }[])[0]?.filename ?? "");
  });
  after(() => {
    // A daemon a failed step left running: this test started it, so it ends it by the pid its record names.
    const record = join(stateDir(), "daemon.record");
    if (existsSync(record)) {
      try {
        process.kill((JSON.parse(readFileSync(record, "utf8")) as { pid: number }).pid, "SIGTERM");
      } catch {
        // Gone already.
      }
    }
    removeDir(work);
  });

  /** The project's state directory under this test's state home (one project, so one directory). */
  function stateDir(): string {
    const projects = join(env.XDG_STATE_HOME ?? "", "signalint", "projects");
    const [only] = existsSync(projects) ? readdirSync(projects) : [];
    return join(projects, only ?? "none");
  }

  const sh = (line: string, input = "") => spawnSync("sh", ["-c", line], { cwd: project, encoding: "utf8", env, input });

  /** Start a client's server command in the project and ask it who it is. */
  async function serves(command: string, args: string[], serverEnv: Record<string, string> = {}) {
    const workspace = (value: string) => value.replaceAll("${workspaceFolder}", project);
    const transport = new StdioClientTransport({
      command,
      args: args.map(workspace),
      cwd: project,
      env: { ...env, ...Object.fromEntries(Object.entries(serverEnv).map(([key, value]) => [key, workspace(value)])) },
      stderr: "pipe",
    });
    const client = new Client({ name: "readme-test", version: "1.0.0" });
    await client.connect(transport);
    try {
      const tools = (await client.listTools()).tools.map((tool) => tool.name);
      assert.ok(tools.includes("check_project") && tools.includes("after_edit_check"), tools.join());
      const pong = await client.callTool({ name: "ping", arguments: {} });
      assert.equal((pong.structuredContent as { projectRoot: string }).projectRoot, project);
    } finally {
      await client.close();
    }
  }

  /** What each README command must do; a command not listed here fails the test. */
  const COMMANDS: Record<string, (line: string) => void | Promise<void>> = {
    "npm i -D signalint-mcp oxlint typescript": (line) => {
      const local = line.replace(/(?<=npm i -D )(.+)$/, (names) =>
        names
          .split(" ")
          .map((name) => (name === "signalint-mcp" ? tarball : (LOCAL_PACKAGES[name] ?? name)))
          .join(" "),
      );
      const result = sh(local);
      assert.equal(result.status, 0, result.stderr);
      for (const name of ["signalint-mcp", "oxlint", "typescript"]) assert.ok(existsSync(join(project, "node_modules", name, "package.json")), name);
    },
    "npx -y signalint-mcp init --yes": (line) => {
      const result = sh(line);
      assert.equal(result.status, 0, result.stderr);
      for (const file of [".mcp.json", ".cursor/mcp.json", ".vscode/mcp.json", ".codex/config.toml", ".zed/settings.json"])
        assert.ok(existsSync(join(project, file)), file);
      assert.ok(!existsSync(join(project, "signalint.config.json")), "init writes no config the project's tools could read");
    },
    "claude mcp add signalint -- npx -y signalint-mcp": async (line) => {
      const [command = "", ...args] = (line.split(" -- ")[1] ?? "").split(" ");
      await serves(command, args);
    },
    "npx -y signalint-mcp init --hooks --yes": (line) => {
      const result = sh(line);
      assert.equal(result.status, 0, result.stderr);
      // The hook init writes (the installed bundle, rooted at $CLAUDE_PROJECT_DIR) runs with Claude Code's input.
      const settings = JSON.parse(readFileSync(join(project, ".claude", "settings.json"), "utf8"));
      const command: string = settings.hooks.PostToolUse[0].hooks[0].command;
      assert.match(command, /signalint-mcp(?:\.mjs"?)? hook$/);
      const input = JSON.stringify({ hook_event_name: "PostToolUse", cwd: project, tool_input: { file_path: join(project, "src", "search.ts") } });
      const hook = spawnSync("sh", ["-c", command], { cwd: project, encoding: "utf8", env: { ...env, CLAUDE_PROJECT_DIR: project }, input });
      assert.equal(hook.status, 2, hook.stderr);
      assert.match(hook.stderr, /src\/search\.ts/);
    },
    "npx signalint-mcp check": (line) => {
      const result = sh(line);
      assert.equal(result.status, 1, result.stderr);
      assert.match(result.stdout, /RetryPolicy\.backoffMs/);
    },
    "npx signalint-mcp check src --format json": (line) => {
      const result = sh(line);
      assert.equal(result.status, 1, result.stderr);
      assert.ok((JSON.parse(result.stdout) as { issues: unknown[] }).issues.length > 0);
    },
    "npx signalint-mcp check --format sarif > signalint.sarif": (line) => {
      const result = sh(line);
      assert.equal(result.status, 1, result.stderr);
      assert.equal((JSON.parse(readFileSync(join(project, "signalint.sarif"), "utf8")) as { version: string }).version, "2.1.0");
    },
    "npx signalint-mcp doctor": (line) => {
      const result = sh(line);
      assert.equal(result.status, 0, result.stderr);
      assert.match(result.stdout, /tsc\s+on; \d/);
    },
    "npx -y signalint-mcp init --yes --force": (line) => {
      const result = sh(line);
      assert.equal(result.status, 0, result.stderr);
    },
    "npx signalint-mcp daemon status": (line) => {
      // The checks above started the project's daemon (no CI variable here).
      const result = sh(line);
      assert.equal(result.status, 0, result.stderr);
      assert.match(result.stdout, /^daemon pid \d+/);
    },
    "npx signalint-mcp daemon stop": (line) => {
      const result = sh(line);
      assert.equal(result.status, 0, result.stderr);
      assert.match(result.stdout, /^stopped the daemon/);
    },
    "deno run --allow-read --allow-write --allow-run --allow-env --allow-sys --allow-net node_modules/signalint-mcp/dist/signalint-mcp.mjs check": (line) => {
      // With the daemon stopped above, this run starts one under Deno: no notice that it could not.
      const result = sh(line);
      assert.equal(result.status, 1, result.stderr);
      assert.equal(result.stderr, "", "no notice: the daemon started under the documented permissions");
      assert.match(result.stdout, /RetryPolicy\.backoffMs/);
      const status = sh("npx signalint-mcp daemon status --json");
      assert.equal(status.status, 0, status.stderr);
      const pid = (JSON.parse(status.stdout) as { pid: number }).pid;
      if (process.platform === "linux") assert.match(readFileSync(`/proc/${pid}/cmdline`, "utf8"), /deno\0run\0/, "the daemon runs on Deno");
      // The README's stop works on it too: the daemon recorded its start time though Deno cannot read /proc itself.
      const stop = sh("npx signalint-mcp daemon stop");
      assert.equal(stop.status, 0, stop.stderr);
      assert.match(stop.stdout, /^stopped the daemon/);
    },
  };

  /** What each config block must do, by what it configures. */
  async function config(block: Block) {
    if (block.lang === "toml") {
      const server = parseToml(block.body)["mcp_servers.signalint"] as { command: string; args: string[] };
      return serves(server.command, server.args);
    }
    const value = parseJsonc(block.body) as Record<string, unknown>;
    const servers = (value.mcpServers ?? value.servers) as Record<string, { command: string; args?: string[]; env?: Record<string, string> }> | undefined;
    if (servers) {
      const server = servers.signalint;
      assert.ok(server, "the config names the signalint server");
      return serves(server.command, server.args ?? [], server.env);
    }
    const hooks = value.hooks as { afterFileEdit?: { command: string }[] } | undefined;
    if (hooks?.afterFileEdit) {
      // Cursor's afterFileEdit input; src/search.ts has an error of its own.
      const input = JSON.stringify({ hook_event_name: "afterFileEdit", file_path: join(project, "src", "search.ts"), workspace_roots: [project], edits: [] });
      const result = sh(hooks.afterFileEdit[0]?.command ?? "", input);
      assert.equal(result.status, 2, result.stdout + result.stderr);
      assert.match(result.stdout + result.stderr, /search\.ts/);
      return;
    }
    assert.ok("engines" in value || "ignore" in value, `a json block of an unknown kind: ${block.body.slice(0, 80)}`);
    writeFileSync(join(project, "signalint.config.json"), block.body);
    const doctor = sh("npx signalint-mcp doctor");
    assert.equal(doctor.status, 0, doctor.stderr);
    assert.match(doctor.stdout, /^config\s+.*signalint\.config\.json/m);
  }

  /** The GitHub Actions usage: inputs action.yml has, at package.json's version. */
  function action(block: Block) {
    const uses = /uses: signalint\/signalint-mcp@v(\S+)/.exec(block.body);
    assert.equal(uses?.[1], MANIFEST.version);
    const inputs = [...readFileSync(join(REPO, "action.yml"), "utf8").matchAll(/^ {2}([\w-]+):$/gm)].map((match) => match[1]);
    const used = [...(/with: \{([^}]*)\}/.exec(block.body)?.[1]?.matchAll(/([\w-]+):/g) ?? [])].map((match) => match[1]);
    assert.ok(used.length > 0);
    for (const key of used) assert.ok(inputs.includes(key), `action.yml has the input ${key}`);
  }

  it("knows every block: text, sh, json, toml, yaml", () => {
    assert.ok(all.length > 10, `${all.length} blocks`);
    for (const block of all) assert.ok(["text", "sh", "json", "toml", "yaml"].includes(block.lang), `a block of an unknown kind: \`\`\`${block.lang}`);
    const user = all.filter((block) => block.lang === "sh" && block.section !== "Contributing").flatMap(commandLines);
    for (const line of user) assert.ok(COMMANDS[line], `a README command this test does not run yet: ${line}`);
  });

  it("names no command inline that its code blocks do not show (so every command is run here)", () => {
    const userText = README.slice(0, README.indexOf("## Contributing")).replace(/^```[\s\S]*?^```$/gm, "");
    const shown = new Set(all.filter((block) => block.lang === "sh").flatMap(commandLines));
    for (const [, span] of userText.matchAll(/`([^`\n]+)`/g)) {
      if (/^(npx|npm|deno|node) /.test(span ?? "")) assert.ok(shown.has(span ?? ""), `an inline command no block shows: ${span}`);
    }
  });

  it("runs each user block in order: install, init, the client configs, hooks, check, CI, configuration, troubleshooting, Deno", async (t) => {
    for (const block of all) {
      if (block.section === "Contributing" || block.lang === "text") continue;
      const started = performance.now();
      if (block.lang === "sh") for (const line of commandLines(block)) await (COMMANDS[line] as (line: string) => Promise<void>)(line);
      else if (block.lang === "yaml") action(block);
      else await config(block);
      // Each step's time, for the record (a new user's trial); never asserted.
      t.diagnostic(`${block.section}: ${block.lang} ${block.body.split("\n")[0]?.slice(0, 70)} — ${Math.round(performance.now() - started)} ms`);
    }
  });

  it("the Contributing commands are the set-up and test commands of package.json and .ci/run", () => {
    const setup = all.filter((block) => block.section === "Contributing" && block.lang === "sh").flatMap(commandLines);
    assert.deepEqual(setup, ["npm ci && npm run build", "npm test"]);
    assert.ok(MANIFEST.scripts.build && MANIFEST.scripts.test);
    const ci = readFileSync(join(REPO, ".ci", "run"), "utf8");
    assert.match(ci, /^npm ci /m);
    assert.match(ci, /^npm test$/m);
    const contributing = README.slice(README.indexOf("## Contributing"));
    for (const [, script] of contributing.matchAll(/`npm run ([\w:]+)/g)) assert.ok(MANIFEST.scripts[script ?? ""], `package.json has the script ${script}`);
  });
});
