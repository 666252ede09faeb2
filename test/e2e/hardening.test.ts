import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { after, before, describe, it } from "node:test";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { CheckResponse } from "../../src/core/contracts.ts";
import {
  BUNDLE,
  call,
  CLEAN_PATH,
  connect,
  DENO,
  DENO_FLAGS,
  errorOf,
  fixture,
  linkBin,
  removeDir,
  REPO,
  runCli,
  scratchCopy,
  structured,
  tempDir,
} from "../helpers.ts";

const RUNTIMES = ["node", "deno"] as const;

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

function checkJson(project: string, args: string[] = []): { status: number | null; response: CheckResponse } {
  const run = runCli(["check", ...args, "--format", "response"], { cwd: project });
  return { status: run.status, response: JSON.parse(run.stdout) as CheckResponse };
}

describe("tsconfig parsing (jsonc-parser)", () => {
  const projects: string[] = [];
  after(() => projects.forEach(removeDir));

  it("recognises a solution-style tsconfig.json that starts with a UTF-8 BOM and builds its references", () => {
    const project = scratchCopy("references", "bom");
    projects.push(project);
    const plain = checkJson(project);
    const config = join(project, "tsconfig.json");
    writeFileSync(config, `\uFEFF${readFileSync(config, "utf8")}`);
    const bom = checkJson(project);
    assert.equal(plain.response.totalIssues, 5);
    assert.equal(bom.status, 1);
    assert.equal(bom.response.status, "issues_found");
    assert.deepEqual(bom.response.engines.tsc, plain.response.engines.tsc);
    assert.deepEqual(bom.response.clusters, plain.response.clusters);
  });

  it("never answers clean for a tsconfig.json that does not parse: tsc reports the syntax error", () => {
    const project = scratchCopy("references", "bad-tsconfig");
    projects.push(project);
    writeFileSync(join(project, "tsconfig.json"), '{\n  "files": [],\n  "references": [{ "path": "./packages/core" } { "path": "./packages/app" }]\n}\n');
    const { status, response } = checkJson(project);
    assert.notEqual(response.status, "clean");
    assert.equal(status, 1);
    assert.ok(
      (response.remainingIssues ?? []).some((issue) => issue.rule === "TS1005" && issue.file === "tsconfig.json"),
      JSON.stringify(response.remainingIssues),
    );
  });
});

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

  for (const runtime of RUNTIMES) {
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
  }
});

describe("artifacts over MCP", () => {
  let project: string;
  before(() => {
    project = scratchCopy("clean", "artifacts");
    mkdirSync(join(project, "src", "many"), { recursive: true });
    for (let i = 0; i < 90; i++) writeFileSync(join(project, "src", "many", `module${i}.ts`), `export const value${i}: number = "not a number ${i}";\n`);
  });
  after(() => removeDir(project));

  it("an oversized result whose artifact cannot be written is an isError artifact_write_failed result", async () => {
    const stateDir = tempDir("signalint-state-");
    try {
      const session = await connect(project, { SIGNALINT_STATE_DIR: stateDir, SIGNALINT_STRUCTURED_MAX_BYTES: "16384" });
      try {
        const check = structured<CheckResponse>(await call(session.client, "check_project"));
        writeFileSync(join(stateDir, "artifacts"), "not a directory");
        const error = errorOf(await call(session.client, "get_issue_detail", { clusterId: check.clusters[0]?.clusterId as string }));
        assert.equal(error.code, "artifact_write_failed");
      } finally {
        await session.close();
      }
    } finally {
      removeDir(stateDir);
    }
  });

  it("a damaged artifact answers artifact_corrupt", async () => {
    const stateDir = tempDir("signalint-state-");
    try {
      const session = await connect(project, { SIGNALINT_STATE_DIR: stateDir, SIGNALINT_STRUCTURED_MAX_BYTES: "16384" });
      try {
        const check = structured<CheckResponse>(await call(session.client, "check_project"));
        const detail = await call(session.client, "get_issue_detail", { clusterId: check.clusters[0]?.clusterId as string });
        const { artifactId } = (detail.structuredContent as { incomplete: { artifactId: string } }).incomplete;
        assert.equal(structured<{ eof: boolean }>(await call(session.client, "artifact_read", { artifactId, maxBytes: 100 })).eof, false);
        const file = join(stateDir, "artifacts", readdirSync(join(stateDir, "artifacts")).find((name) => name.startsWith(artifactId)) as string);
        writeFileSync(file, readFileSync(file, "utf8").replace("src/many/module", "src/many/modulf"));
        assert.equal(errorOf(await call(session.client, "artifact_read", { artifactId, maxBytes: 100 })).code, "artifact_corrupt");
      } finally {
        await session.close();
      }
    } finally {
      removeDir(stateDir);
    }
  });
});

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

describe("prototype keys in raw JSON-RPC arguments", () => {
  for (const runtime of RUNTIMES) {
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
  }
});

describe("fullMessage in get_issue_detail", () => {
  const CHAIN = [
    "Argument of type '(a: number) => void' is not assignable to parameter of type '(a: string) => void'.",
    "  Types of parameters 'a' and 'a' are incompatible.",
    "    Type 'string' is not assignable to type 'number'.",
  ].join("\n");
  const LONG_RULE_TEXT = `Do not leave debugger statements: ${"they stop every reader of this code in the middle of their work, ".repeat(3)}end.`;
  const projects: string[] = [];
  after(() => projects.forEach(removeDir));

  function chainProject(label: string): string {
    const project = scratchCopy("sparse", label);
    projects.push(project);
    writeFileSync(join(project, "src", "chain.ts"), "declare function g(cb: (a: string) => void): void;\ng((a: number) => {});\nexport {};\n");
    return project;
  }

  /** The detail of the chain diagnostic, after asserting the check response keeps only the 120-character form. */
  async function chainDetail(
    session: Awaited<ReturnType<typeof connect>>,
    files?: string[],
  ): Promise<{ message: string; fullMessage?: string; mode?: string }> {
    const response = structured<CheckResponse>(await call(session.client, files ? "check_files" : "check_project", files ? { files } : {}));
    const listed = (response.remainingIssues ?? []).find((issue) => issue.file === "src/chain.ts" && issue.rule === "TS2345");
    assert.ok(listed, JSON.stringify(response.remainingIssues));
    assert.ok(listed.message.length <= 120);
    assert.ok(!JSON.stringify(response).includes("fullMessage"), "check responses stay small");
    const detail = structured<{ issues: { message: string; fullMessage?: string }[] }>(
      await call(session.client, "get_issue_detail", { issueId: listed.issueId }),
    );
    return { ...(detail.issues[0] as { message: string; fullMessage?: string }), mode: response.cache?.tsc?.mode };
  }

  for (const [label, tsc] of [
    ["TypeScript 5", null],
    ["TypeScript 7", "typescript7"],
  ] as const) {
    it(`${label}: the cut message's whole chain, the same from the command line and the warm program`, async () => {
      const project = chainProject(`full-${tsc ?? "ts5"}`);
      if (tsc) linkBin(project, "tsc", join(REPO, "node_modules", tsc, "bin", "tsc"));
      const cold = await connect(project, { SIGNALINT_WARM_TYPESCRIPT: "0" });
      try {
        const detail = await chainDetail(cold);
        assert.ok(detail.message.endsWith("…"));
        assert.equal(detail.fullMessage, CHAIN);
      } finally {
        await cold.close();
      }
      const warm = await connect(project);
      try {
        await chainDetail(warm);
        const detail = await chainDetail(warm, ["src/chain.ts"]);
        assert.match(detail.mode ?? "", /^warm-/);
        assert.equal(detail.fullMessage, CHAIN);
      } finally {
        await warm.close();
      }
    });
  }

  it("ESLint: a rule message over 120 characters comes back whole", async () => {
    const project = scratchCopy("eslint-flat", "full-eslint");
    projects.push(project);
    writeFileSync(
      join(project, "eslint.config.js"),
      `export default [{ files: ["**/*.js"], rules: { "no-restricted-syntax": ["error", { selector: "DebuggerStatement", message: ${JSON.stringify(LONG_RULE_TEXT)} }] } }];\n`,
    );
    writeFileSync(join(project, "src", "stop.js"), "export function stop() {\n  debugger;\n}\n");
    const session = await connect(project);
    try {
      const response = structured<CheckResponse>(await call(session.client, "check_files", { files: ["src/stop.js"] }));
      const listed = (response.remainingIssues ?? []).find((issue) => issue.engine === "eslint" && issue.rule === "no-restricted-syntax");
      assert.ok(listed, JSON.stringify(response.remainingIssues));
      assert.equal(listed.message.length, 120);
      const detail = structured<{ issues: { fullMessage?: string }[] }>(await call(session.client, "get_issue_detail", { issueId: listed.issueId }));
      assert.equal(detail.issues[0]?.fullMessage, LONG_RULE_TEXT);
    } finally {
      await session.close();
    }
  });
});

describe("JSONC and globs in the bundle, on Node and Deno", () => {
  const projects: string[] = [];
  after(() => projects.forEach(removeDir));

  for (const runtime of RUNTIMES) {
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
  }
});
