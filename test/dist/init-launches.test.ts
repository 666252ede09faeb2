// init launched from Deno (the bundle, and the bundle from a URL) and from the standalone binary: the configs it
// writes run what launched it (test/e2e/init.test.ts covers Node).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync } from "node:fs";
import { after, describe, it } from "node:test";
import { initProject as project, parseToml, readIn as read, runIn as run } from "../e2e/init-project.ts";
import { DENO_PERMISSIONS } from "../../src/runtime/shell-deno.ts";
import { BUNDLE, CLEAN_PATH, DENO, DENO_FLAGS, removeDir, SINGLE_BUNDLE, tempDir } from "../helpers.ts";
import { HOST_BINARY as BINARY } from "./release-dir.ts";

/** Run a command without blocking this process (a server in it must answer meanwhile). */
function runAsync(command: string, args: string[], cwd: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const stateDir = tempDir("signalint-state-");
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd,
      env: { PATH: CLEAN_PATH, HOME: cwd, SIGNALINT_DAEMON: "0", SIGNALINT_STATE_DIR: stateDir },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("close", (status) => {
      removeDir(stateDir);
      resolve({ status, stdout, stderr });
    });
  });
}

/** What init writes for Deno: the documented permissions, the daemon's too (launched here with only the four it needs without one). */
const DENO_LINE = ["run", ...DENO_PERMISSIONS];

describe("init from other launches", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  it("under deno with --absolute, points the configs at deno run with the bundle", () => {
    const dir = project();
    dirs.push(dir);
    const result = run(DENO, [...DENO_FLAGS, BUNDLE, "init", "--yes", "--absolute", "--client", "claude"], dir);
    assert.equal(result.status, 0, result.stdout + result.stderr);
    assert.deepEqual(JSON.parse(read(dir, ".mcp.json")).mcpServers.signalint, { type: "stdio", command: DENO, args: [...DENO_LINE, BUNDLE] });
  });

  it("under deno from a URL, the configs run deno with that URL", async () => {
    const http = createServer((request, response) => {
      if (request.url !== "/signalint-mcp.mjs") return void response.writeHead(404).end();
      response.writeHead(200, { "content-type": "application/javascript" }).end(readFileSync(SINGLE_BUNDLE));
    });
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/signalint-mcp.mjs`;
      const dir = project();
      dirs.push(dir);
      const result = await runAsync(DENO, [...DENO_FLAGS, "--reload", url, "init", "--yes", "--client", "claude,codex"], dir);
      assert.equal(result.status, 0, result.stdout + result.stderr);
      assert.match(result.stdout, /launched as deno running http:\/\/127\.0\.0\.1/);
      // A URL works on any machine: the portable form keeps it, with `deno` from PATH.
      assert.deepEqual(JSON.parse(read(dir, ".mcp.json")).mcpServers.signalint, { type: "stdio", command: "deno", args: [...DENO_LINE, url] });
      assert.deepEqual(parseToml(read(dir, ".codex/config.toml"))["mcp_servers.signalint"]?.args, [...DENO_LINE, url]);
    } finally {
      http.close();
    }
  });

  it("from the standalone binary with --absolute, the configs run the binary itself", () => {
    const dir = project();
    dirs.push(dir);
    const result = run(BINARY, ["init", "--yes", "--absolute", "--client", "claude"], dir);
    assert.equal(result.status, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /launched as standalone binary/);
    assert.deepEqual(JSON.parse(read(dir, ".mcp.json")).mcpServers.signalint, { type: "stdio", command: BINARY, args: [] });
  });
});
