import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CheckResponse } from "../../src/core/contracts.ts";
import { BUNDLE, CLEAN_PATH, DENO, DENO_FLAGS, fixture, removeDir, REPO, scratchCopy, SINGLE_BUNDLE, tempDir } from "../helpers.ts";
import { pnpmLayout, versionOf } from "../layouts.ts";

const HOST = `${process.platform === "win32" ? "win" : process.platform}-${process.arch}`;
const BINARY = join(REPO, "dist", "bin", `signalint-mcp-${HOST}${process.platform === "win32" ? ".exe" : ""}`);

/** Run initialize, tools/list and check_project through the SDK client against one way of starting the server. */
async function smoke(command: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  const stateDir = tempDir("signalint-dist-state-");
  const client = new Client({ name: "dist-smoke", version: "1" });
  await client.connect(
    new StdioClientTransport({
      command,
      args,
      cwd,
      env: { PATH: CLEAN_PATH, HOME: process.env.HOME ?? "", SIGNALINT_DAEMON: "0", SIGNALINT_STATE_DIR: stateDir, ...env },
      stderr: "ignore",
    }),
  );
  try {
    const server = client.getServerVersion();
    const { tools } = await client.listTools();
    const result = await client.callTool({ name: "check_project", arguments: {} });
    const { checkId: _id, ...check } = result.structuredContent as CheckResponse;
    // How tsc answers the next check: from the warm program the first check built (in its host process), or not.
    const files = existsSync(join(cwd, "src", "users.ts")) ? ["src/users.ts"] : null;
    const next = files && ((await client.callTool({ name: "check_files", arguments: { files } })).structuredContent as CheckResponse);
    return { server, tools, check, tscMode: next?.cache?.tsc?.mode };
  } finally {
    await client.close();
    removeDir(stateDir);
  }
}

describe("distribution smoke tests: same answers from the bundle on Node, on Deno from a URL, and the binary", () => {
  let http: Server;
  let url: string;
  before(async () => {
    http = createServer((request, response) => {
      if (request.url !== "/signalint-mcp.mjs") return void response.writeHead(404).end();
      response.writeHead(200, { "content-type": "application/javascript" }).end(readFileSync(SINGLE_BUNDLE));
    });
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/signalint-mcp.mjs`;
  });
  after(() => http.close());

  for (const name of ["systemic-ts", "references"]) {
    it(`${name}: initialize, tools/list and check_project agree`, async () => {
      assert.ok(existsSync(BINARY), `${BINARY} is built by pretest (npm run build:binaries -- --targets=host)`);
      const cwd = fixture(name);
      const onNode = await smoke(process.execPath, [BUNDLE], cwd);
      const onDeno = await smoke(DENO, [...DENO_FLAGS, "--reload", url], cwd);
      const binary = await smoke(BINARY, [], cwd);
      assert.equal(onNode.server?.name, "signalint");
      assert.ok(onNode.check.totalIssues > 0);
      for (const other of [onDeno, binary]) {
        assert.deepEqual(other.server, onNode.server);
        assert.deepEqual(other.tools, onNode.tools);
        assert.deepEqual(other.check, onNode.check);
      }
      // Warm TypeScript hosts start in every form: the bundle re-run by node or deno, the binary re-run itself.
      if (name === "systemic-ts") for (const form of [onNode, onDeno, binary]) assert.equal(form.tscMode, "warm-reused");
    });
  }

  it("the binary checks a project with no node on PATH, running JS engines on its embedded runtime", () => {
    const emptyPath = tempDir("signalint-no-node-");
    mkdirSync(join(emptyPath, "bin"));
    const run = (env: Record<string, string>) => {
      const result = spawnSync(BINARY, ["check", "--format", "response"], {
        cwd: fixture("biome-app"),
        encoding: "utf8",
        env: { ...env, SIGNALINT_DAEMON: "0", SIGNALINT_STATE_DIR: tempDir() },
      });
      const { checkId: _id, ...rest } = JSON.parse(result.stdout) as CheckResponse;
      return rest;
    };
    const withoutNode = run({ PATH: join(emptyPath, "bin") });
    const withNode = run({ PATH: CLEAN_PATH });
    assert.equal(spawnSync("/bin/sh", ["-c", "command -v node"], { env: { PATH: join(emptyPath, "bin") } }).status !== 0, true, "no node on that PATH");
    assert.deepEqual(Object.fromEntries(Object.entries(withoutNode.engines).map(([k, v]) => [k, v.status])), {
      oxlint: "ok",
      tsc: "ok",
      biome: "ok",
      eslint: "disabled",
      deno: "disabled",
    });
    assert.deepEqual(withoutNode, withNode);
    const doctor = spawnSync(BINARY, ["doctor"], { cwd: fixture("biome-app"), encoding: "utf8", env: { PATH: join(emptyPath, "bin") } });
    assert.match(doctor.stdout, /standalone binary.*__signalint-node/);
    removeDir(emptyPath);
  });

  it("the binary keeps the compiler's compiled code in the --cache-dir it is given (a CI cache restores it), and answers the same from it", () => {
    const project = scratchCopy("systemic-ts", "compile-cache");
    const cacheDir = tempDir("signalint-compile-cache-");
    const run = () => {
      const result = spawnSync(BINARY, ["check", "--format", "json", "--cache-dir", cacheDir], {
        cwd: project,
        encoding: "utf8",
        env: { PATH: CLEAN_PATH, HOME: process.env.HOME ?? "", CI: "true", SIGNALINT_STATE_DIR: tempDir() },
      });
      assert.equal(result.status, 1, result.stderr);
      return (JSON.parse(result.stdout) as { issues: unknown[] }).issues;
    };
    try {
      const first = run();
      const compiled = join(cacheDir, "node-compile-cache");
      const files = existsSync(compiled) ? readdirSync(compiled, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()) : [];
      assert.ok(files.length > 0, `compiled code kept under ${compiled}`);
      assert.ok(first.length > 0);
      assert.deepEqual(run(), first);
    } finally {
      removeDir(project);
      removeDir(cacheDir);
    }
  });

  it("the binary with no node on PATH runs the engines of a pnpm layout (whose .bin shims need node) on its embedded runtime", () => {
    const dir = tempDir("signalint-pnpm-binary-");
    const project = join(dir, "app");
    cpSync(fixture("biome-app"), project, { recursive: true });
    pnpmLayout(project);
    const emptyPath = join(dir, "empty-path");
    mkdirSync(emptyPath);
    const run = (env: Record<string, string>) => {
      const result = spawnSync(BINARY, ["check", "--format", "response"], { cwd: project, encoding: "utf8", env: { ...env, SIGNALINT_STATE_DIR: tempDir() } });
      const { checkId: _id, ...rest } = JSON.parse(result.stdout) as CheckResponse;
      return rest;
    };
    const withoutNode = run({ PATH: emptyPath });
    assert.deepEqual(withoutNode.engines, {
      oxlint: { status: "ok" },
      tsc: { status: "ok" },
      biome: { status: "ok" },
      eslint: withoutNode.engines.eslint,
      deno: { status: "disabled" },
    });
    // Check responses leave versions out; doctor shows each engine resolved through its pnpm package.
    const doctor = spawnSync(BINARY, ["doctor", "--json"], { cwd: project, encoding: "utf8", env: { PATH: emptyPath, SIGNALINT_STATE_DIR: tempDir() } });
    const engines = (JSON.parse(doctor.stdout) as { engines: Record<string, { resolved?: { version?: string } }> }).engines;
    assert.deepEqual(
      ["oxlint", "tsc", "biome"].map((engine) => engines[engine]?.resolved?.version),
      [versionOf("oxlint"), versionOf("typescript"), versionOf("@biomejs/biome")],
    );
    assert.deepEqual(withoutNode, run({ PATH: CLEAN_PATH }));
    removeDir(dir);
  });
});
