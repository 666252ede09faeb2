import assert from "node:assert/strict";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { it } from "node:test";
import { normalizeIssues } from "../../src/core/issues.ts";
import { loopEventFromIssues } from "../../src/core/loops.ts";
import { createNodeRuntime } from "../../src/runtime/node.ts";
import { readCheckRecords, SessionLog } from "../../src/service/history/session-log.ts";
import { removeDir, tempDir } from "../helpers.ts";

it("session.jsonl rotates past its limit into one state line that replays to the same status", async () => {
  const dir = tempDir();
  try {
    const runtime = createNodeRuntime();
    const log = new SessionLog(runtime, dir, 4096);
    const hash = (text: string) => createHash("sha256").update(text).digest("hex");
    const issue = normalizeIssues(
      [{ file: "src/a.ts", line: 1, col: 1, engine: "tsc", rule: "TS2322", severity: "error", message: "Type 'a' is not 'b'.", fixable: false }],
      hash,
    );
    for (let i = 0; i < 40; i++) await log.record(loopEventFromIssues(i % 2 ? [] : issue, ["src/a.ts"], true));
    const text = readFileSync(join(dir, "session.jsonl"), "utf8");
    assert.ok(statSync(join(dir, "session.jsonl")).size <= 4096);
    assert.ok(text.includes('"t":"state"'), "rotated into a state line");
    const replayed = new SessionLog(runtime, dir, 4096);
    assert.equal(await replayed.replay(), 0);
    assert.deepEqual(replayed.tracker.status(), log.tracker.status());
    assert.equal(log.tracker.status().signatures[0]?.occurrences, 20);
  } finally {
    removeDir(dir);
  }
});

it("stats reads the check records SessionLog wrote; a damaged record (wrong field types, a truncated line) is skipped, not summed", async () => {
  const dir = tempDir();
  try {
    const runtime = createNodeRuntime();
    const log = new SessionLog(runtime, dir);
    const check = { checkId: "c1", kind: "project" as const, durationMs: 12, totalIssues: 0, cache: { tsc: { hits: 0, misses: 1, mode: "cli" } } };
    await log.record(loopEventFromIssues([], ["."], false), check);
    const damaged = { t: "check", at: "2026-01-01T00:00:00.000Z", event: {}, check: { ...check, checkId: "c2", cache: { tsc: { hits: "many", misses: 1 } } } };
    const text = `${readFileSync(join(dir, "session.jsonl"), "utf8")}${JSON.stringify(damaged)}\n{"t":"check","at":"2026-`;
    const records = readCheckRecords(text);
    assert.deepEqual(
      records.map((record) => record.check),
      [check],
    );
  } finally {
    removeDir(dir);
  }
});
