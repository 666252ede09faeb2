import assert from "node:assert/strict";
import { chmodSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Delta } from "../../src/core/contracts.ts";
import { call, connect, errorOf, removeDir, scratchCopy, structured, tempDir, type Connected } from "../helpers.ts";

const A = 'export const a: number = "one";\n';
const B = "export const b: string = 2;\n";
const C = "export const c = 3;\n";

/** Every file under a directory whose name marks a Signalint temp file. */
function tempFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((name) => name.includes(".signalint-") && !name.startsWith("node_modules"));
}

describe("fix transactions: preview, apply, discard", () => {
  let project: string;
  let state: string;
  let session: Connected;
  const read = (file: string) => readFileSync(join(project, file), "utf8");
  const reset = () => {
    writeFileSync(join(project, "src/a.ts"), A);
    writeFileSync(join(project, "src/b.ts"), B);
    writeFileSync(join(project, "src/c.ts"), C);
  };
  const patches = () => [
    { file: "src/a.ts", originalContent: A, patchedContent: "export const a: number = 1;\n", description: "fix TS2322" },
    { file: join(project, "src/b.ts"), originalContent: B, patchedContent: 'export const b: string = "2";\n' },
    { file: "src/c.ts", originalContent: C, patchedContent: "// c\nexport const c = 3;\nexport const d = 4;\n" },
  ];
  before(async () => {
    project = scratchCopy("clean", "tx");
    state = tempDir("signalint-state-");
    reset();
    session = await connect(project, { SIGNALINT_STATE_DIR: state });
  });
  after(async () => {
    await session.close();
    removeDir(project);
    removeDir(state);
  });

  it("annotates apply as destructive and the others truthfully", async () => {
    const { tools } = await session.client.listTools();
    const annotations = Object.fromEntries(tools.map((tool) => [tool.name, tool.annotations]));
    assert.equal(annotations.apply_diagnostic_fix?.destructiveHint, true);
    assert.equal(annotations.apply_diagnostic_fix?.readOnlyHint, false);
    assert.equal(annotations.preview_diagnostic_fix?.readOnlyHint, true);
    assert.equal(annotations.discard_diagnostic_fix?.destructiveHint, false);
  });

  it("preview writes nothing; apply needs confirm, then writes every file and returns check + delta", async () => {
    const baseline = structured<{ checkId: string; totalIssues: number }>(await call(session.client, "check_project"));
    assert.equal(baseline.totalIssues, 2);
    const preview = structured<{ transactionId: string; expiresAt: string; files: { file: string; addedLines: number; removedLines: number }[] }>(
      await call(session.client, "preview_diagnostic_fix", { patches: patches() }),
    );
    assert.match(preview.transactionId, /^tx-[0-9a-f]{16}$/);
    assert.ok(Date.parse(preview.expiresAt) > Date.now());
    assert.deepEqual(preview.files, [
      { file: "src/a.ts", addedLines: 1, removedLines: 1 },
      { file: "src/b.ts", addedLines: 1, removedLines: 1 },
      { file: "src/c.ts", addedLines: 2, removedLines: 0 },
    ]);
    assert.deepEqual([read("src/a.ts"), read("src/b.ts"), read("src/c.ts")], [A, B, C], "preview writes nothing");
    assert.deepEqual(tempFiles(project), []);
    assert.equal(errorOf(await call(session.client, "apply_diagnostic_fix", { transactionId: preview.transactionId })).code, "confirmation_required");
    assert.equal(
      errorOf(await call(session.client, "apply_diagnostic_fix", { transactionId: preview.transactionId, confirm: false })).code,
      "confirmation_required",
    );
    assert.equal(read("src/a.ts"), A);
    const applied = structured<{ applied: true; files: string[]; check: { checkId: string; totalIssues: number; status: string }; delta: Delta }>(
      await call(session.client, "apply_diagnostic_fix", { transactionId: preview.transactionId, confirm: true, baselineCheckId: baseline.checkId }),
    );
    assert.deepEqual(applied.files, ["src/a.ts", "src/b.ts", "src/c.ts"]);
    assert.equal(applied.check.status, "clean");
    assert.equal(applied.delta.resolved.length, 2);
    assert.equal(applied.delta.netErrorDelta, -2);
    assert.equal(read("src/c.ts"), "// c\nexport const c = 3;\nexport const d = 4;\n");
    assert.deepEqual(tempFiles(project), []);
    assert.deepEqual(readdirSync(join(state, "journal")), [], "the journal is gone after a commit");
    const snapshot = structured<{ tool: string }>(await call(session.client, "get_diagnostic_snapshot", { checkId: applied.check.checkId }));
    assert.equal(snapshot.tool, "apply_diagnostic_fix");
    const again = structured<{ status: string; code: string }>(
      await call(session.client, "apply_diagnostic_fix", { transactionId: preview.transactionId, confirm: true }),
    );
    assert.equal(again.code, "transaction_expired", "a transaction applies once");
    reset();
  });

  it("refuses drift at preview and at apply (naming the files, writing nothing), bad requests and unknown ids", async () => {
    const drifted = errorOf(
      await call(session.client, "preview_diagnostic_fix", { patches: [{ file: "src/a.ts", originalContent: "old", patchedContent: "new" }] }),
    );
    assert.equal(drifted.code, "drift");
    assert.match(drifted.message, /src\/a\.ts/);
    const { transactionId } = structured<{ transactionId: string }>(await call(session.client, "preview_diagnostic_fix", { patches: patches() }));
    writeFileSync(join(project, "src/b.ts"), `${B}// edited meanwhile\n`);
    const refused = errorOf(await call(session.client, "apply_diagnostic_fix", { transactionId, confirm: true }));
    assert.equal(refused.code, "drift");
    assert.match(refused.message, /src\/b\.ts/);
    assert.doesNotMatch(refused.message, /src\/a\.ts/);
    assert.deepEqual([read("src/a.ts"), read("src/c.ts")], [A, C], "nothing written");
    reset();
    assert.deepEqual(structured(await call(session.client, "discard_diagnostic_fix", { transactionId })), { discarded: true });
    assert.equal(structured<{ code: string }>(await call(session.client, "discard_diagnostic_fix", { transactionId })).code, "transaction_expired");
    assert.equal(
      structured<{ code: string }>(await call(session.client, "apply_diagnostic_fix", { transactionId: "tx-0000000000000000", confirm: true })).code,
      "transaction_not_found",
    );
    const twice = [patches()[0], { ...patches()[0], file: join(project, "src/a.ts") }];
    assert.equal(errorOf(await call(session.client, "preview_diagnostic_fix", { patches: twice })).code, "duplicate_file");
    assert.equal(errorOf(await call(session.client, "preview_diagnostic_fix", { patches: [] })).code, "invalid_arguments");
    const many = Array.from({ length: 101 }, (_, index) => ({ file: `src/f${index}.ts`, originalContent: "", patchedContent: "" }));
    assert.equal(errorOf(await call(session.client, "preview_diagnostic_fix", { patches: many })).code, "invalid_arguments");
    const huge = "x".repeat(4_300_000);
    assert.equal(
      errorOf(await call(session.client, "preview_diagnostic_fix", { patches: [{ file: "src/a.ts", originalContent: huge, patchedContent: huge }] })).code,
      "request_too_large",
    );
    assert.equal(
      errorOf(await call(session.client, "preview_diagnostic_fix", { patches: [{ file: "../x.ts", originalContent: "", patchedContent: "" }] })).code,
      "invalid_path",
    );
    assert.equal(
      errorOf(await call(session.client, "preview_diagnostic_fix", { patches: [{ file: "/etc/passwd", originalContent: "", patchedContent: "" }] })).code,
      "invalid_path",
    );
  });

  it("keeps file permissions, and two concurrent transactions over one file cannot both write", async () => {
    chmodSync(join(project, "src/c.ts"), 0o755);
    const first = structured<{ transactionId: string }>(await call(session.client, "preview_diagnostic_fix", { patches: patches().slice(2) }));
    const second = structured<{ transactionId: string }>(
      await call(session.client, "preview_diagnostic_fix", { patches: [{ file: "src/c.ts", originalContent: C, patchedContent: "export const c = 4;\n" }] }),
    );
    const results = await Promise.all(
      [first, second].map((tx) => call(session.client, "apply_diagnostic_fix", { transactionId: tx.transactionId, confirm: true })),
    );
    assert.deepEqual(
      results.map((result) => (result.isError ? errorOf(result).code : "applied")),
      ["applied", "drift"],
    );
    assert.equal(read("src/c.ts"), "// c\nexport const c = 3;\nexport const d = 4;\n");
    assert.equal(statSync(join(project, "src/c.ts")).mode & 0o777, 0o755, "the executable bit survives the rename");
    reset();
  });

  it("holds at most 20 transactions: the oldest then answers transaction_expired", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 21; i++)
      ids.push(structured<{ transactionId: string }>(await call(session.client, "preview_diagnostic_fix", { patches: patches().slice(2) })).transactionId);
    assert.equal(
      structured<{ code: string }>(await call(session.client, "discard_diagnostic_fix", { transactionId: ids[0] as string })).code,
      "transaction_expired",
    );
    assert.deepEqual(structured(await call(session.client, "discard_diagnostic_fix", { transactionId: ids[1] as string })), { discarded: true });
  });

  it("a write that fails mid-apply rolls every file back and leaves the transaction usable", async () => {
    const failing = await connect(project, { SIGNALINT_STATE_DIR: state, SIGNALINT_TEST_JOURNAL: "fail:renamed-1" });
    try {
      const { transactionId } = structured<{ transactionId: string }>(await call(failing.client, "preview_diagnostic_fix", { patches: patches() }));
      const failure = errorOf(await call(failing.client, "apply_diagnostic_fix", { transactionId, confirm: true }));
      assert.equal(failure.code, "apply_failed");
      assert.match(failing.stderr(), /signalint-test-journal: fail renamed-1/, "two files were already renamed when it failed");
      assert.deepEqual([read("src/a.ts"), read("src/b.ts"), read("src/c.ts")], [A, B, C]);
      assert.deepEqual(tempFiles(project), []);
      assert.deepEqual(readdirSync(join(state, "journal")), []);
      const retry = errorOf(await call(failing.client, "apply_diagnostic_fix", { transactionId, confirm: true }));
      assert.equal(retry.code, "apply_failed", "still usable: the same transaction can be applied again");
    } finally {
      await failing.close();
    }
  });
});
