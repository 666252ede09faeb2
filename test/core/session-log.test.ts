import assert from "node:assert/strict";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { it } from "node:test";
import { normalizeIssues } from "../../src/core/issues.ts";
import { loopEventFromIssues } from "../../src/core/loops.ts";
import { createNodeRuntime } from "../../src/runtime/node.ts";
import { SessionLog } from "../../src/service/history/session-log.ts";
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
