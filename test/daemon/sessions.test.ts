import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, it } from "node:test";
import { readDaemonRecord } from "../../src/daemon/record.ts";
import { createNodeRuntime } from "../../src/runtime/node.ts";
import { call, connect, gone, removeDir, scratchCopy, structured, tempDir, type Connected } from "../helpers.ts";

const runtime = createNodeRuntime();
const root = scratchCopy("systemic-ts", "daemon-sessions");
const state = tempDir("signalint-state-");

after(async () => {
  const record = await readDaemonRecord(runtime, state);
  if (record) runtime.daemon?.kill(record.pid, "SIGKILL");
  removeDir(root);
});

interface Delta {
  introduced: { file: string; rule: string }[];
  resolved: unknown[];
}

it("two MCP sessions share one daemon; each session's after_edit_check compares with its own previous check", async () => {
  const env = { SIGNALINT_DAEMON: "1", SIGNALINT_STATE_DIR: state };
  const a: Connected = await connect(root, env);
  const b: Connected = await connect(root, env);
  try {
    const first = structured<{ checkId: string; totalIssues: number; clusters: { clusterId: string; issueCount: number }[] }>(
      await call(a.client, "check_project"),
    );
    const second = structured<{ checkId: string; totalIssues: number }>(await call(b.client, "check_project"));
    assert.equal(first.totalIssues, second.totalIssues);
    const record = await readDaemonRecord(runtime, state);
    assert.ok(record, "a daemon serves the project");
    assert.match(a.stderr(), /through the project's daemon/);
    assert.match(b.stderr(), /through the project's daemon/);
    // Session A edits a file; session B checks it first (the daemon's watch shows B the edit).
    const file = join(root, "src", "audit.ts");
    writeFileSync(file, `${readFileSync(file, "utf8")}\nexport const planted: number = "not a number";\n`);
    const seenByB = structured<{ totalIssues: number }>(await call(b.client, "check_files", { files: ["src/audit.ts"] }));
    assert.ok(seenByB.totalIssues >= 1);
    // A's detail calls without a checkId read A's newest check, not B's newer check of one file.
    const detail = structured<{ issues: unknown[] }>(await call(a.client, "get_issue_detail", { clusterId: first.clusters[0]?.clusterId }));
    assert.equal(detail.issues.length, first.clusters[0]?.issueCount);
    // A's default baseline is A's own check_project, not B's newer check of the file: the planted error is new to A.
    const afterEdit = structured<{ delta: Delta }>(await call(a.client, "after_edit_check", { files: ["src/audit.ts"] }));
    assert.deepEqual(
      afterEdit.delta.introduced.map((issue) => `${issue.file} ${issue.rule}`),
      ["src/audit.ts TS2322"],
    );
    // The same for B, whose previous check already had it: nothing introduced.
    const afterEditB = structured<{ delta: Delta }>(await call(b.client, "after_edit_check", { files: ["src/audit.ts"] }));
    assert.deepEqual(afterEditB.delta.introduced, []);
  } finally {
    await a.close();
    await b.close();
  }
  // The daemon outlives its sessions (until idle); stopping it releases everything it held.
  const record = await readDaemonRecord(runtime, state);
  assert.ok(record);
  runtime.daemon?.kill(record.pid, "SIGTERM");
  assert.ok(await gone(record.pid, 30_000));
  assert.equal(await readDaemonRecord(runtime, state), null);
});
