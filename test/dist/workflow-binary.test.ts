import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Compare, Delta, Live } from "../../src/core/contracts.ts";
import { call, CLEAN_PATH, errorOf, removeDir, REPO, scratchCopy, structured, tempDir } from "../helpers.ts";

const HOST = `${process.platform === "win32" ? "win" : process.platform}-${process.arch}`;
const BINARY = join(REPO, "dist", "bin", `signalint-mcp-${HOST}${process.platform === "win32" ? ".exe" : ""}`);
const WORK = 'export const a: number = "one";\nexport const b: string = 2;\n';

let project: string;
let state: string;
before(() => {
  project = scratchCopy("clean", "binary-workflow");
  state = tempDir("signalint-state-");
  writeFileSync(join(project, "src", "work.ts"), WORK);
});
after(() => {
  removeDir(project);
  removeDir(state);
});

it("the binary runs all eight workflow tools end to end (output validated by the SDK client)", async () => {
  assert.ok(existsSync(BINARY), `${BINARY} is built by pretest`);
  const client = new Client({ name: "binary-workflow", version: "1" });
  await client.connect(
    new StdioClientTransport({
      command: BINARY,
      args: [],
      cwd: project,
      env: { PATH: CLEAN_PATH, HOME: process.env.HOME ?? "", SIGNALINT_DAEMON: "0", SIGNALINT_STATE_DIR: state },
      stderr: "ignore",
    }),
  );
  try {
    await client.listTools();
    const baseline = structured<{ checkId: string; totalIssues: number }>(await call(client, "check_project"));
    assert.equal(baseline.totalIssues, 2);
    assert.equal(structured<{ totalIssues: number }>(await call(client, "get_diagnostic_snapshot", { checkId: baseline.checkId })).totalIssues, 2);
    writeFileSync(join(project, "src", "work.ts"), `// moved\n${WORK.replace('"one"', "1")}`);
    const edited = structured<{ checkId: string; delta: Delta }>(await call(client, "after_edit_check", { files: ["src/work.ts"] }));
    assert.deepEqual([edited.delta.resolved.length, edited.delta.introduced.length, edited.delta.unchangedCount], [1, 0, 1]);
    const compared = structured<Compare>(await call(client, "compare_diagnostics", { baselineCheckId: baseline.checkId, currentCheckId: edited.checkId }));
    assert.equal(compared.unchangedCount, 1);
    const range = { start: { line: 2, character: 13 }, end: { line: 2, character: 14 } };
    const ingested = structured<{ ingested: number }>(
      await call(client, "ingest_diagnostics", {
        serverName: "tsserver",
        diagnostics: [{ file: "src/work.ts", range, severity: 1, code: 2322, source: "ts", message: "Type 'number' is not assignable to type 'string'." }],
      }),
    );
    assert.equal(ingested.ingested, 1);
    const live = structured<Live>(await call(client, "get_live_diagnostics", { files: ["src/work.ts"] }));
    assert.deepEqual(live.issues.map((issue) => issue.engine).sort(), ["lsp", "tsc"]);
    const current = readFileSync(join(project, "src", "work.ts"), "utf8");
    const fix = { file: "src/work.ts", originalContent: current, patchedContent: current.replace("= 2;", '= "2";') };
    const spare = structured<{ transactionId: string }>(await call(client, "preview_diagnostic_fix", { patches: [fix] }));
    assert.deepEqual(structured(await call(client, "discard_diagnostic_fix", { transactionId: spare.transactionId })), { discarded: true });
    const { transactionId } = structured<{ transactionId: string }>(await call(client, "preview_diagnostic_fix", { patches: [fix] }));
    assert.equal(errorOf(await call(client, "apply_diagnostic_fix", { transactionId })).code, "confirmation_required");
    const applied = structured<{ check: { status: string }; delta: Delta }>(await call(client, "apply_diagnostic_fix", { transactionId, confirm: true }));
    assert.equal(applied.check.status, "clean");
    assert.equal(applied.delta.resolved.length, 1);
    assert.equal(readFileSync(join(project, "src", "work.ts"), "utf8"), fix.patchedContent);
  } finally {
    await client.close();
  }
});
