// The hardening tests that depend on the runtime: registered for Node by test/e2e/hardening.test.ts and for Deno by
// test/dist/hardening-deno.test.ts (one error taxonomy on both).
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { after, before, describe, it } from "node:test";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { CheckResponse } from "../../src/core/contracts.ts";
import { BUNDLE, call, CLEAN_PATH, connect, DENO, DENO_FLAGS, errorOf, fixture, removeDir, scratchCopy, tempDir } from "../helpers.ts";

/** Run the bundle's CLI on Node or Deno. */
function cliOn(runtime: "node" | "deno", args: string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  const [command, prefix] = runtime === "node" ? [process.execPath, [BUNDLE]] : [DENO, [...DENO_FLAGS, BUNDLE]];
  const stateDir = tempDir("signalint-state-");
  try {
    const result = spawnSync(command, [...prefix, ...args], {
      cwd,
      env: { PATH: CLEAN_PATH, HOME: process.env.HOME ?? "", SIGNALINT_DAEMON: "0", SIGNALINT_STATE_DIR: stateDir },
      encoding: "utf8",
      input: "",
    });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  } finally {
    removeDir(stateDir);
  }
}

/** A raw JSON-RPC session over the server's stdio: request lines are sent exactly as written. */
async function rawSession(
  runtime: "node" | "deno",
  cwd: string,
): Promise<{ send: (id: number, line: string) => Promise<Record<string, unknown>>; stop: () => void }> {
  const [command, prefix] = runtime === "node" ? [process.execPath, [BUNDLE]] : [DENO, [...DENO_FLAGS, BUNDLE]];
  const stateDir = tempDir("signalint-state-");
  const child = spawn(command, prefix, {
    cwd,
    env: { PATH: CLEAN_PATH, HOME: process.env.HOME ?? "", SIGNALINT_DAEMON: "0", SIGNALINT_STATE_DIR: stateDir },
    stdio: ["pipe", "pipe", "ignore"],
  });
  const waiting = new Map<number, (message: Record<string, unknown>) => void>();
  createInterface({ input: child.stdout }).on("line", (line) => {
    const message = JSON.parse(line) as { id: number };
    waiting.get(message.id)?.(message);
  });
  const send = (id: number, line: string) =>
    new Promise<Record<string, unknown>>((resolve) => {
      waiting.set(id, resolve);
      child.stdin.write(`${line}\n`);
    });
  await send(
    0,
    JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    }),
  );
  child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  return { send, stop: () => (child.kill(), removeDir(stateDir)) };
}

/** Path hardening, prototype keys in raw JSON-RPC, and JSONC and globs in the bundle, on `runtime`. */
export function runtimeHardening(runtime: "node" | "deno"): void {
  describe("path hardening, on Node and Deno (one error taxonomy)", () => {
    let project: string;
    before(() => {
      project = scratchCopy("sparse", "paths");
      symlinkSync("loop2", join(project, "loop1"));
      symlinkSync("loop1", join(project, "loop2"));
      writeFileSync(join(project, "src", "a\\b.ts"), 'export const broken: number = "text";\n');
      mkdirSync(join(project, "src", "a"));
      writeFileSync(join(project, "src", "a", "b.ts"), "export const fine = 1;\n");
    });
    after(() => removeDir(project));

    it(`${runtime}: the CLI refuses a symlink loop and an over-long name with exit 2, not a crash`, () => {
      const loop = cliOn(runtime, ["check", "loop1"], project);
      assert.equal(loop.status, 2, loop.stderr);
      assert.match(loop.stderr, /Path "loop1" refused: is a symlink loop/);
      const long = cliOn(runtime, ["check", `src/${"x".repeat(300)}.ts`], project);
      assert.equal(long.status, 2, long.stderr);
      assert.match(long.stderr, /refused: a name is longer than 255 characters/);
      const deep = cliOn(runtime, ["check", `${"d/".repeat(2100)}a.ts`], project);
      assert.equal(deep.status, 2, deep.stderr);
      assert.match(deep.stderr, /refused: name too long/);
      assert.ok(deep.stderr.length < 600, "the path is quoted, not echoed in full");
    });

    it(`${runtime}: MCP answers invalid_path for a loop and long names, quotes at most 200 characters, refuses a\\b.ts`, async () => {
      const session = await connect(project, {}, runtime);
      try {
        const loop = errorOf(await call(session.client, "check_files", { files: ["loop1"] }));
        assert.deepEqual(loop, { status: "error", code: "invalid_path", message: 'Path "loop1" refused: is a symlink loop' });
        for (const path of [`src/${"y".repeat(256)}.ts`, `${"d/".repeat(2100)}a.ts`]) {
          const long = errorOf(await call(session.client, "check_files", { files: [path] }));
          assert.equal(long.code, "invalid_path");
          assert.ok(long.message.length < 400, long.message);
        }
        const hostile = "\u0001".repeat(1_000_000);
        for (const [tool, args] of [
          ["check_files", { files: [`-${hostile}`] }],
          ["get_issue_detail", { issueId: hostile }],
          [hostile, {}],
        ] as const) {
          const error = errorOf((await session.client.callTool({ name: tool, arguments: args })) as never);
          assert.ok(error.message.length < 2000, `${tool.slice(0, 20)}: ${error.message.length} characters`);
        }
        // Not read as src/a/b.ts (which exists here and is clean), and not answered clean: the engines cannot check it.
        const backslash = errorOf(await call(session.client, "check_files", { files: ["src/a\\b.ts"] }));
        assert.equal(backslash.code, "invalid_path");
        assert.match(backslash.message, /directory separator/);
      } finally {
        await session.close();
      }
    });
  });
  describe("prototype keys in raw JSON-RPC arguments", () => {
    it(`${runtime}: __proto__ and constructor are refused like any unknown key, at any depth`, async () => {
      const session = await rawSession(runtime, fixture("sparse"));
      try {
        const cases = [
          '{"__proto__":{"x":1}}',
          '{"__proto__":1}',
          '{"files":["src/index.ts"],"__proto__":{}}',
          '{"constructor":{}}',
          '{"files":["src/index.ts"],"x":{"__proto__":null}}',
        ];
        for (const [index, args] of cases.entries()) {
          const tool = args.includes("files") ? "check_files" : "check_project";
          const reply = (await session.send(
            index + 1,
            `{"jsonrpc":"2.0","id":${index + 1},"method":"tools/call","params":{"name":"${tool}","arguments":${args}}}`,
          )) as { result: CallToolResult };
          assert.equal(errorOf(reply.result).code, "invalid_arguments", args);
          assert.match(errorOf(reply.result).message, /unknown property '(x\.)?(__proto__|constructor)'/, args);
        }
        const fine = (await session.send(9, '{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"ping","arguments":{}}}')) as {
          result: CallToolResult;
        };
        assert.equal(fine.result.isError, undefined);
      } finally {
        session.stop();
      }
    });
  });
  describe("tools/call arguments that are not an object, in raw JSON-RPC", () => {
    it(`${runtime}: null, a string, a number, an array (params that are not an object, a name not a string) are invalid_arguments, never -32603`, async () => {
      const session = await rawSession(runtime, fixture("sparse"));
      try {
        const cases: [string, RegExp][] = [
          ['{"name":"ping","arguments":null}', /^ping: arguments must be an object, got null$/],
          ['{"name":"check_files","arguments":"x"}', /^check_files: arguments must be an object, got a string$/],
          ['{"name":"ping","arguments":5}', /^ping: arguments must be an object, got a number$/],
          ['{"name":"ping","arguments": ["a"]}', /^ping: arguments must be an object, got an array$/],
          ['"x"', /^tools\/call params must be an object, got a string$/],
          ["null", /^tools\/call params must be an object, got null$/],
          ['{"name":5,"arguments":{}}', /^tools\/call name must be a string, got a number$/],
        ];
        for (const [index, [params, expected]] of cases.entries()) {
          const reply = (await session.send(index + 1, `{"jsonrpc":"2.0","id":${index + 1},"method":"tools/call","params":${params}}`)) as {
            result: CallToolResult;
          };
          assert.ok(reply.result, `${params}: ${JSON.stringify(reply)}`);
          assert.equal(errorOf(reply.result).code, "invalid_arguments", params);
          assert.match(errorOf(reply.result).message, expected, params);
        }
        const missing = (await session.send(8, '{"jsonrpc":"2.0","id":8,"method":"tools/call"}')) as { result: CallToolResult };
        assert.match(errorOf(missing.result).message, /^tools\/call params must be an object, got none$/);
        const fine = (await session.send(9, '{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"ping"}}')) as { result: CallToolResult };
        assert.equal(fine.result.isError, undefined);
      } finally {
        session.stop();
      }
    });
  });
  describe("JSONC and globs in the bundle, on Node and Deno", () => {
    const projects: string[] = [];
    after(() => projects.forEach(removeDir));

    it(`${runtime}: a BOM'd solution tsconfig is built; ignore globs with braces, classes and ! re-include work`, () => {
      const project = scratchCopy("references", `globs-${runtime}`);
      projects.push(project);
      const config = join(project, "tsconfig.json");
      writeFileSync(config, `\uFEFF${readFileSync(config, "utf8")}`);
      const all = JSON.parse(cliOn(runtime, ["check", "--format", "response"], project).stdout) as CheckResponse;
      assert.equal(all.totalIssues, 5);
      writeFileSync(
        join(project, "signalint.config.json"),
        '\uFEFF{\n  // BOM and comments, as editors write them\n  "ignore": ["packages/{core,app}/src/[im]*.ts", "!packages/app/**"],\n}\n',
      );
      const run = cliOn(runtime, ["check", "--format", "response"], project);
      const filtered = JSON.parse(run.stdout) as CheckResponse;
      // packages/core/src/index.ts (1 issue) and packages/app/src/main.ts (4) both match the first glob; the second
      // re-includes app's.
      assert.equal(filtered.totalIssues, 4, run.stderr);
      assert.equal(filtered.filteredOutIssueCount, 1, "core's issue is ignored, app's re-included");
    });
  });
}
