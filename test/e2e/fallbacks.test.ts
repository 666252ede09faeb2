import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { BUNDLE, call, CLEAN_PATH, connect, removeDir, runCli, scratchCopy, structured, tempDir } from "../helpers.ts";

/** Write one raw line to a fresh stdio server and read the JSON-RPC answers with the given ids. */
async function rawAnswers(
  cwd: string,
  lines: string[],
  ids: number[],
): Promise<Map<number, { result?: { isError?: boolean; _meta?: { code?: string } }; error?: { code: number; message: string } }>> {
  const child = spawn(process.execPath, [BUNDLE], {
    cwd,
    env: { PATH: CLEAN_PATH, HOME: process.env.HOME ?? "", SIGNALINT_STATE_DIR: tempDir("signalint-state-") },
  });
  const answers = new Map();
  let buffer = "";
  const done = new Promise<void>((resolve) => {
    child.stdout.on("data", (chunk: Buffer) => {
      buffer += chunk.toString();
      for (let end = buffer.indexOf("\n"); end >= 0; end = buffer.indexOf("\n")) {
        const message = JSON.parse(buffer.slice(0, end)) as { id?: number };
        buffer = buffer.slice(end + 1);
        if (typeof message.id === "number" && ids.includes(message.id)) answers.set(message.id, message);
        if (answers.size === ids.length) resolve();
      }
    });
  });
  const initialize = {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
  };
  child.stdin.write(`${JSON.stringify(initialize)}\n${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n${lines.join("\n")}\n`);
  await done;
  child.kill();
  return answers;
}

describe("apply's post-check, read failures, deep arguments and fallback logging", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  it("apply answers applied: true once the files are written, with the post-check's failure as data", async () => {
    const project = scratchCopy("clean", "apply-postcheck");
    dirs.push(project);
    writeFileSync(join(project, "signalint.config.json"), "{}\n");
    const session = await connect(project);
    try {
      structured(await call(session.client, "check_project"));
      // The fix makes signalint.config.json invalid: every later check refuses to run until it is repaired.
      const patch = { file: "signalint.config.json", originalContent: "{}\n", patchedContent: '{ "engines": { "tsc": "yes" } }\n' };
      const preview = structured<{ transactionId: string }>(await call(session.client, "preview_diagnostic_fix", { patches: [patch] }));
      const applied = structured<{ applied: boolean; files: string[]; check: unknown; delta: unknown; postCheckError?: { code: string; message: string } }>(
        await call(session.client, "apply_diagnostic_fix", { transactionId: preview.transactionId, confirm: true }),
      );
      assert.deepEqual([applied.applied, applied.files, applied.check, applied.delta], [true, ["signalint.config.json"], null, null]);
      assert.equal(applied.postCheckError?.code, "invalid_config");
      assert.match(applied.postCheckError?.message ?? "", /The fix was applied/);
      assert.equal(readFileSync(join(project, "signalint.config.json"), "utf8"), patch.patchedContent);
    } finally {
      await session.close();
    }
  });

  it("an unreadable signalint.config.json is an error, not an absent config", () => {
    const project = scratchCopy("clean", "unreadable-config");
    dirs.push(project);
    mkdirSync(join(project, "signalint.config.json")); // read as a file it fails (EISDIR), as an unreadable file would
    const result = runCli(["check"], { cwd: project });
    assert.equal(result.status, 2, result.stdout);
    assert.match(result.stderr, /signalint\.config\.json cannot be read/);
  });

  it("arguments nested 100,000 deep are refused with invalid_arguments before any recursive walk", async () => {
    const project = scratchCopy("clean", "deep-arguments");
    dirs.push(project);
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    const answers = await rawAnswers(
      project,
      [
        `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"check_files","arguments":{"files":${deep}}}}`,
        `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ingest_diagnostics","arguments":{"diagnostics":[{"message":${deep}}]}}}`,
        `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"ping","arguments":{}}}`,
      ],
      [1, 2, 3],
    );
    for (const id of [1, 2]) {
      const answer = answers.get(id);
      assert.equal(answer?.error, undefined, JSON.stringify(answer?.error));
      assert.deepEqual([answer?.result?.isError, answer?.result?._meta?.code], [true, "invalid_arguments"]);
    }
    assert.equal(answers.get(3)?.result?.isError, undefined, "the server keeps serving");
  });
});
