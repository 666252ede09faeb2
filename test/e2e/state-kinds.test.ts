// Issue 31 §5: a state file of the wrong kind — a directory where a file belongs, a file where a directory belongs, a
// symlink, garbage — is set aside with one notice, never the end of the server (a directory named session.jsonl
// stopped it at start).
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { CheckResponse } from "../../src/core/contracts.ts";
import { call, connect, removeDir, runCli, scratchCopy, structured, tempDir } from "../helpers.ts";

/** A state directory whose every entry is of the wrong kind. */
function wrongState(): string {
  const state = tempDir("signalint-wrong-state-");
  for (const name of ["session.jsonl", "owner.lock", "daemon.record"]) mkdirSync(join(state, name, "inside"), { recursive: true });
  for (const name of ["artifacts", "journal"]) writeFileSync(join(state, name), "not a directory\n");
  mkdirSync(join(state, "snapshots"));
  writeFileSync(join(state, "snapshots", "chk-0123456789ab.snapshot"), "\u0000garbage{");
  mkdirSync(join(state, "snapshots", "expired.list"));
  return state;
}

describe("state entries of the wrong kind", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  it("doctor and stats read around them; the server (their owner) sets each aside with one notice, starts and records its checks", async () => {
    const project = scratchCopy("sparse", "wrong-state");
    const state = wrongState();
    dirs.push(project, state);
    for (const verb of ["doctor", "stats"]) {
      const run = runCli([verb], { cwd: project, env: { SIGNALINT_STATE_DIR: state } });
      assert.equal(run.status, 0, `${verb}: ${run.stderr}`);
      assert.doesNotMatch(run.stderr, /set aside/, "a reader sets nothing aside: the state directory's owner does");
    }
    const session = await connect(project, { SIGNALINT_STATE_DIR: state });
    try {
      const check = structured<CheckResponse>(await call(session.client, "check_project"));
      assert.equal(check.engines.tsc.status, "ok");
      const snapshot = structured<{ checkId: string }>(await call(session.client, "get_diagnostic_snapshot", { checkId: check.checkId }));
      assert.equal(snapshot.checkId, check.checkId);
      const ping = await call(session.client, "ping");
      assert.equal(ping.content[0]?.type === "text" && ping.content[0].text, "pong");
      const stderr = session.stderr();
      const expected: [string, RegExp][] = [
        ["session.jsonl", /is a directory, not a file/],
        ["owner.lock", /is a directory, not a file/],
        ["daemon.record", /is a directory, not a file/],
        ["artifacts", /is a file, not a directory/],
        ["journal", /is a file, not a directory/],
        ["snapshots/chk-0123456789ab.snapshot", /is not a readable snapshot/],
        ["snapshots/expired.list", /is a directory, not a file/],
      ];
      for (const [name, why] of expected) {
        const path = join(state, name);
        const notices = stderr.split("\n").filter((line) => line.startsWith(`signalint: ${path} `));
        assert.equal(notices.length, 1, `${name}: ${stderr}`);
        assert.match(notices[0] as string, why);
        assert.match(notices[0] as string, new RegExp(`; set aside as ${path.replace(/[.]/g, "\\.")}\\.set-aside-[0-9TZ-]+$`));
      }
      assert.ok(!/unexpected error|EISDIR|ENOTDIR/.test(stderr), stderr);
      const names = readdirSync(state);
      for (const name of ["session.jsonl", "artifacts", "journal"])
        assert.ok(
          names.some((entry) => entry.startsWith(`${name}.set-aside-`)),
          name,
        );
    } finally {
      await session.close();
    }
  });

  it("a symlink where a state file belongs is set aside, never written through", async () => {
    const project = scratchCopy("sparse", "linked-state");
    const state = tempDir("signalint-linked-state-");
    const outside = join(tempDir("signalint-outside-"), "target.jsonl");
    dirs.push(project, state);
    symlinkSync(outside, join(state, "session.jsonl"));
    const session = await connect(project, { SIGNALINT_STATE_DIR: state });
    try {
      structured<CheckResponse>(await call(session.client, "check_project"));
      assert.match(session.stderr(), /session\.jsonl is a symlink, not a file; set aside/);
      assert.deepEqual(readdirSync(join(outside, "..")), [], "nothing was written through the link");
    } finally {
      await session.close();
    }
  });
});
