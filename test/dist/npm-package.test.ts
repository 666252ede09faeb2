import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CLEAN_PATH, linkPackage, removeDir, REPO, tempDir } from "../helpers.ts";

const MANIFEST = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as Record<string, unknown> & { version: string };

/** Every file under `dir` with its size. */
function filesUnder(dir: string): { path: string; bytes: number }[] {
  return readdirSync(dir, { recursive: true })
    .map(String)
    .map((path) => ({ path, stat: statSync(join(dir, path)) }))
    .filter(({ stat }) => stat.isFile())
    .map(({ path, stat }) => ({ path, bytes: stat.size }));
}

describe("the npm package, packed and installed offline into a fresh project", () => {
  let work: string;
  let project: string;
  // No registry: a fresh, empty npm cache and --offline, so anything the package needed from npm would fail here.
  let npmEnv: Record<string, string>;
  const npm = (args: string[], cwd: string) => spawnSync("npm", args, { cwd, encoding: "utf8", env: npmEnv });

  before(() => {
    work = tempDir("signalint-npm-");
    project = join(work, "project");
    mkdirSync(join(project, "src"), { recursive: true });
    npmEnv = {
      PATH: CLEAN_PATH,
      HOME: work,
      SIGNALINT_DAEMON: "0",
      npm_config_cache: join(work, "cache"),
      npm_config_offline: "true",
      npm_config_update_notifier: "false",
    };
    writeFileSync(join(project, "package.json"), '{ "name": "fresh", "private": true }\n');
    writeFileSync(join(project, "tsconfig.json"), '{ "compilerOptions": { "strict": true, "noEmit": true }, "include": ["src"] }\n');
    writeFileSync(join(project, "src", "bad.ts"), 'export const n: number = "x";\n');
  });
  after(() => removeDir(work));

  it("has no runtime dependencies and ships the bundle, README and LICENSE", () => {
    assert.equal(MANIFEST.dependencies, undefined, "the bundle carries every dependency");
    const packed = npm(["pack", "--json", "--pack-destination", work], REPO);
    assert.equal(packed.status, 0, packed.stderr);
    const [entry] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
    assert.deepEqual(entry?.files.map((file) => file.path).sort(), [
      "LICENSE",
      "README.md",
      "dist/signalint-mcp-chunk.mjs",
      "dist/signalint-mcp-run.mjs",
      "dist/signalint-mcp.mjs",
      "package.json",
    ]);
    assert.match(readFileSync(join(REPO, "LICENSE"), "utf8"), /^MIT License/);
  });

  it("installs offline as exactly one package, whose bin checks the project and serves MCP through npx", async (t) => {
    const tarball = join(work, `signalint-mcp-${MANIFEST.version}.tgz`);
    const installed = npm(["install", "--offline", "--no-audit", "--no-fund", "--save-dev", tarball], project);
    assert.equal(installed.status, 0, installed.stderr);
    const modules = readdirSync(join(project, "node_modules")).filter((name) => !name.startsWith("."));
    assert.deepEqual(modules, ["signalint-mcp"], "nothing but the package itself");
    const files = filesUnder(join(project, "node_modules", "signalint-mcp"));
    t.diagnostic(`installed: ${files.length} files, ${files.reduce((sum, file) => sum + file.bytes, 0)} bytes`);

    // The engines come from the project (linked here, as a project's own install would have them).
    linkPackage(project, "typescript", join(REPO, "node_modules", "typescript"));
    const check = spawnSync("npx", ["--offline", "signalint-mcp", "check", "--format", "json"], {
      cwd: project,
      encoding: "utf8",
      env: { ...npmEnv, SIGNALINT_STATE_DIR: join(work, "state") },
    });
    assert.equal(check.status, 1, check.stderr);
    assert.equal(JSON.parse(check.stdout).issues[0]?.rule, "TS2322");

    // What `init` writes and MCP clients run: npx -y signalint-mcp (the local install, no registry).
    const transport = new StdioClientTransport({
      command: "npx",
      args: ["-y", "signalint-mcp"],
      cwd: project,
      env: { ...npmEnv, SIGNALINT_STATE_DIR: join(work, "state-mcp") },
      stderr: "pipe",
    });
    const client = new Client({ name: "npm-package-test", version: "1.0.0" });
    await client.connect(transport);
    try {
      const pong = await client.callTool({ name: "ping", arguments: {} });
      assert.deepEqual(pong.structuredContent, { pong: true, projectRoot: project });
      const result = await client.callTool({ name: "check_files", arguments: { files: ["src/bad.ts"] } });
      assert.equal((result.structuredContent as { status: string }).status, "issues_found");
    } finally {
      await client.close();
    }
  });
});
