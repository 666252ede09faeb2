// A bare JSON-RPC client over a server's stdio for the benchmarks: measures response lines exactly as they cross the
// pipe, which the SDK client does not expose.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";

export const INITIALIZE = { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } };

/** Start a server with its own state directory; `request` resolves with the raw response line. */
export function startServer(command, args, { cwd, env = {} }) {
  const stateDir = mkdtempSync(join(tmpdir(), "signalint-bench-"));
  const started = performance.now();
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env, SIGNALINT_STATE_DIR: stateDir }, stdio: ["pipe", "pipe", "ignore"] });
  const waiting = new Map();
  createInterface({ input: child.stdout }).on("line", (line) => waiting.get(JSON.parse(line).id)?.(line));
  const send = (message) => child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
  const request = (id, method, params) =>
    new Promise((done) => {
      waiting.set(id, done);
      send({ id, method, params });
    });
  const notify = (method) => send({ method });
  const stop = () => {
    child.kill();
    rmSync(stateDir, { recursive: true, force: true });
  };
  return { child, started, request, notify, stop };
}

/** The raw tools/list response line of the bundle in one payload mode (what a client loads once per session). */
export async function toolsListLine(root, mode, compact) {
  const server = startServer(process.execPath, [join(root, "dist", "signalint-mcp.mjs")], {
    cwd: join(root, "fixtures", "clean"),
    // No daemon: tools/list needs none, and one started here would outlive the state directory `stop` removes.
    env: { SIGNALINT_MCP_PAYLOAD: mode, SIGNALINT_COMPACT: compact ? "1" : "0", SIGNALINT_DAEMON: "0" },
  });
  await server.request(1, "initialize", INITIALIZE);
  server.notify("notifications/initialized");
  const line = await server.request(2, "tools/list", {});
  server.stop();
  return line;
}

/**
 * ms from spawn to the initialize answer and to the tools/list answer (sent once initialize is answered, as clients
 * do), over a server's bare stdio; `env` is the whole environment of the server.
 */
export function launchTimes(command, args, { cwd, env, init = INITIALIZE }) {
  return new Promise((done, fail) => {
    const start = performance.now();
    const child = spawn(command, args, { cwd, env, stdio: ["pipe", "pipe", "ignore"] });
    const times = {};
    let buffer = "";
    child.stdout.on("data", (chunk) => {
      buffer += chunk;
      for (let end = buffer.indexOf("\n"); end >= 0; end = buffer.indexOf("\n")) {
        const message = JSON.parse(buffer.slice(0, end));
        buffer = buffer.slice(end + 1);
        if (message.id === 1) {
          times.initialize = performance.now() - start;
          child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
          child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" })}\n`);
        } else if (message.id === 2) {
          times.toolsList = performance.now() - start;
          child.stdin.end();
        }
      }
    });
    child.on("error", fail);
    child.on("close", () => (times.toolsList ? done(times) : fail(new Error(`${command} gave no tools/list answer`))));
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: init })}\n`);
  });
}
