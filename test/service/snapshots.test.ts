import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { it } from "node:test";
import type { Engines } from "../../src/core/contracts.ts";
import { compareChecks, type SnapshotIssue } from "../../src/core/delta.ts";
import { normalizeIssues, type RawIssue } from "../../src/core/issues.ts";
import { createNodeRuntime } from "../../src/runtime/node.ts";
import { RETAINED_SNAPSHOTS, SNAPSHOT_MAX_AGE_MS, snapshotFile, SnapshotStore, type NewSnapshot } from "../../src/service/history/snapshots.ts";
import { BUNDLE, removeDir, tempDir } from "../helpers.ts";
import { enginesWith, OK_ENGINES } from "../helpers/check-response.ts";

const hash = (text: string) => createHash("sha256").update(text).digest("hex");
const ENGINES: Engines = OK_ENGINES;

function issues(raw: Omit<RawIssue, "engine" | "col" | "fixable" | "severity">[]): SnapshotIssue[] {
  return normalizeIssues(
    raw.map((entry) => ({ ...entry, engine: "tsc", col: 1, fixable: false, severity: "error" })),
    hash,
  );
}

function snapshot(id: number, scope = ["."]): NewSnapshot {
  const checkId = `chk-${hash(String(id)).slice(0, 12)}`;
  return {
    checkId,
    observedAtMs: 0,
    tool: "check_project",
    scope,
    engines: ENGINES,
    clusters: [],
    issues: issues([{ file: "a.ts", rule: "TS1", line: id + 1, message: `m${id}` }]),
    durationMs: 1,
  };
}

it("snapshots persist, keep the last 50, tell expired from unknown across a restart, and set corrupt files aside", async () => {
  const dir = tempDir();
  const warnings: string[] = [];
  const runtime = { ...createNodeRuntime({ selfScript: BUNDLE }), writeStderr: (text: string) => void warnings.push(text) };
  try {
    const store = new SnapshotStore(runtime, dir);
    assert.equal(await store.load(), 0);
    const ids: string[] = [];
    for (let i = 0; i < RETAINED_SNAPSHOTS + 5; i++) ids.push((await store.record(snapshot(i))).checkId);
    assert.equal(store.all().length, RETAINED_SNAPSHOTS);
    assert.equal(readdirSync(join(dir, "snapshots")).filter((name) => name.startsWith("chk-")).length, RETAINED_SNAPSHOTS, "evicted files are deleted");
    writeFileSync(join(dir, "snapshots", snapshotFile("chk-0123456789ab")), '{"seq": 3, "checkId": "chk-01'); // crash-truncated
    const reloaded = new SnapshotStore(runtime, dir);
    assert.equal(await reloaded.load(), 1);
    assert.match(warnings.join(""), /chk-0123456789ab\.snapshot is not a readable snapshot; set aside as .*chk-0123456789ab\.snapshot\.set-aside-/);
    assert.equal(await new SnapshotStore(runtime, dir).load(), 0, "set aside: not read again at the next start");
    assert.deepEqual(
      reloaded.all().map((entry) => entry.checkId),
      ids.slice(5),
    );
    const expired = reloaded.find(ids[0] as string) as { status: string; code: string };
    assert.deepEqual([expired.status, expired.code], ["stale", "check_expired"]);
    assert.equal((reloaded.find("chk-ffffffffffff") as { code: string }).code, "check_unknown");
    const kept = reloaded.find(ids[10] as string);
    assert.ok(!("status" in kept));
    assert.deepEqual(kept.issues, (store.find(ids[10] as string) as { issues: SnapshotIssue[] }).issues);
    const next = await reloaded.record(snapshot(999));
    assert.ok(next.seq > (kept as { seq: number }).seq, "sequence continues after a restart");
  } finally {
    removeDir(dir);
  }
});

it("compare matches by id, then nearest line; one-to-one; only inside the narrower scope", () => {
  const message = "Type 'string' is not assignable to type 'number'.";
  const before = issues([
    { file: "a.ts", rule: "TS2322", line: 3, message },
    { file: "a.ts", rule: "TS2322", line: 9, message },
    { file: "a.ts", rule: "TS6133", line: 5, message: "'x' is declared but its value is never read." },
    { file: "b.ts", rule: "TS2322", line: 1, message },
  ]);
  // Three lines inserted at the top: both TS2322 issues shift; the TS6133 one is fixed; a new one appears.
  const after = issues([
    { file: "a.ts", rule: "TS2322", line: 6, message },
    { file: "a.ts", rule: "TS2322", line: 12, message },
    { file: "a.ts", rule: "TS2304", line: 1, message: "Cannot find name 'y'." },
  ]);
  const delta = compareChecks({ scope: ["."], issues: before, engines: ENGINES }, { scope: ["a.ts"], issues: after, engines: ENGINES });
  assert.equal(delta.unchangedCount, 2);
  assert.deepEqual(
    delta.resolved.map((issue) => issue.rule),
    ["TS6133"],
    "b.ts is outside the narrower scope",
  );
  assert.deepEqual(
    delta.introduced.map((issue) => issue.rule),
    ["TS2304"],
  );
  assert.equal(delta.netErrorDelta, 0);
  const fewer = compareChecks(
    { scope: ["."], issues: before, engines: ENGINES },
    { scope: ["."], issues: after.filter((issue) => issue.line === 6), engines: ENGINES },
  );
  assert.equal(fewer.unchangedCount, 1, "one-to-one: one current issue never matches two baseline issues");
  assert.deepEqual(
    fewer.resolved.map((issue) => issue.line).sort((a, b) => a - b),
    [1, 5, 9],
    "the nearer line (3 → 6) is the match",
  );
});

it("compare leaves out what both checks did not check, and names it: engines not ok on both sides, paths outside the baseline, ingests", () => {
  const message = "Type 'string' is not assignable to type 'number'.";
  const before = issues([
    { file: "a.ts", rule: "TS2322", line: 3, message },
    { file: "b.ts", rule: "TS2322", line: 1, message },
  ]);
  const failed: Engines = { ...ENGINES, tsc: { status: "error", code: "engine_failed", message: "tsc crashed" } };
  const broken = compareChecks({ scope: ["."], issues: before, engines: ENGINES }, { scope: ["."], issues: [], engines: failed });
  assert.deepEqual([broken.resolved.length, broken.netErrorDelta, broken.unchangedCount], [0, 0, 0], "a failed tsc resolves nothing");
  assert.deepEqual(
    broken.notCompared?.map(({ reason, engine }) => [reason, engine]),
    [["engine_not_ok", "tsc"]],
  );
  assert.match(broken.notCompared?.[0]?.message ?? "", /tsc was ok in the baseline and is error \(engine_failed\) now/);
  const narrow = compareChecks(
    { scope: ["a.ts"], issues: before.slice(0, 1), engines: ENGINES },
    { scope: ["a.ts", "b.ts"], issues: before, engines: ENGINES },
  );
  assert.deepEqual([narrow.introduced.length, narrow.unchangedCount], [0, 1], "b.ts was not in the baseline: not introduced");
  assert.deepEqual(
    narrow.notCompared?.map(({ reason, paths }) => [reason, paths]),
    [["outside_baseline", ["b.ts"]]],
  );
  const same = compareChecks({ scope: ["."], issues: before, engines: ENGINES }, { scope: ["a.ts"], issues: [], engines: ENGINES });
  assert.equal(same.notCompared, undefined, "everything compared: no notCompared");
  assert.equal(same.resolved.length, 1);
  const lsp = (list: SnapshotIssue[]) => list.map((issue) => ({ ...issue, engine: "lsp" as const }));
  const ingest = {
    scope: ["a.ts", "b.ts"],
    issues: lsp(before),
    engines: enginesWith(),
    tool: "ingest_diagnostics",
    provider: "ts",
  };
  const engineVsIngest = compareChecks(ingest, { scope: ["."], issues: before, engines: ENGINES });
  assert.deepEqual([engineVsIngest.introduced.length, engineVsIngest.resolved.length], [0, 0], "an ingest is not the engines' baseline");
  assert.deepEqual(
    engineVsIngest.notCompared?.map(({ engine, paths }) => engine ?? paths),
    ["oxlint", "tsc", "lsp", ["."]],
  );
  const twoIngests = compareChecks(ingest, { ...ingest, issues: lsp(before.slice(1)) });
  assert.deepEqual([twoIngests.resolved.length, twoIngests.unchangedCount, twoIngests.notCompared], [1, 1, undefined], "two ingests of one server compare");
});

it("snapshots older than the age bound and files past the disk budget answer check_expired after a restart", async () => {
  const dir = tempDir();
  const runtime = { ...createNodeRuntime({ selfScript: BUNDLE }), writeStderr: () => {} };
  try {
    const store = new SnapshotStore(runtime, dir, 2000);
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) ids.push((await store.record(snapshot(i))).checkId);
    assert.equal(store.all().length, 8, "all stay addressable in this session");
    const files = readdirSync(join(dir, "snapshots")).filter((name) => name.startsWith("chk-"));
    assert.ok(files.length < 8 && files.length >= 1, `the disk budget keeps only the newest files (${files.length})`);
    const old = JSON.parse(readFileSync(join(dir, "snapshots", snapshotFile(ids[7] as string)), "utf8")) as { createdAt: string };
    old.createdAt = new Date(Date.now() - SNAPSHOT_MAX_AGE_MS - 1000).toISOString();
    writeFileSync(join(dir, "snapshots", snapshotFile(ids[7] as string)), JSON.stringify(old));
    const reloaded = new SnapshotStore(runtime, dir, 2000);
    await reloaded.load();
    assert.equal((reloaded.find(ids[7] as string) as { code?: string }).code, "check_expired", "too old");
    assert.equal((reloaded.find(ids[0] as string) as { code?: string }).code, "check_expired", "its file was dropped for the budget");
    assert.equal(readdirSync(join(dir, "snapshots")).filter((name) => name === snapshotFile(ids[7] as string)).length, 0, "an expired file is deleted");
  } finally {
    removeDir(dir);
  }
});

it("a snapshot an earlier version persisted (without engines it did not know) reads back with them disabled, and compares", async () => {
  const dir = tempDir();
  const runtime = createNodeRuntime({ selfScript: BUNDLE });
  try {
    const store = new SnapshotStore(runtime, dir);
    await store.load();
    const recorded = await store.record(snapshot(1));
    // As CheckResponse 1.2's Signalint wrote it: four engines, no deno.
    const path = join(dir, "snapshots", snapshotFile(recorded.checkId));
    const file = JSON.parse(readFileSync(path, "utf8")) as { engines: Record<string, unknown> };
    delete file.engines.deno;
    writeFileSync(path, JSON.stringify(file));
    const reloaded = new SnapshotStore(runtime, dir);
    assert.equal(await reloaded.load(), 0);
    const old = reloaded.find(recorded.checkId) as { engines: Engines; scope: string[]; issues: SnapshotIssue[] };
    assert.deepEqual(old.engines, ENGINES);
    const delta = compareChecks(old, { scope: ["."], issues: old.issues, engines: ENGINES });
    assert.deepEqual([delta.unchangedCount, delta.notCompared], [1, undefined]);
  } finally {
    removeDir(dir);
  }
});
