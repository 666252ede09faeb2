// Issue 31, item 2: nothing recovered is trusted blindly. A journal is honoured only with this user's integrity tag,
// for this project's real root, naming only the paths an apply uses; anything else is set aside with one warning and
// the check goes on. Rollback restores only files still holding what the fix wrote; an edited one is kept and named.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, beforeEach, it } from "node:test";
import { createNodeRuntime } from "../../src/runtime/node.ts";
import { backupPathOf, tagJournal, tempPathOf } from "../../src/service/fix/journal-plan.ts";
import { userKey } from "../../src/service/project/user-state.ts";
import { BUNDLE, connect, removeDir, runCli, scratchCopy, tempDir } from "../helpers.ts";
import { pausedApply } from "../helpers/paused-apply.ts";

const runtime = createNodeRuntime({ selfScript: BUNDLE });
const FILES = 3;
const content = (index: number, patched: boolean) => `export const v${index}: string = ${patched ? '"patched"' : '"original"'};\n`;
const file = (index: number) => join(project, "src", `f${index}.ts`);
const states = () => Array.from({ length: FILES }, (_, index) => readFileSync(file(index), "utf8"));

let project: string;
let realRoot: string;
let state: string;
const dirs: string[] = [];
before(() => {
  project = scratchCopy("clean", "journal-trust");
  realRoot = realpathSync(project);
  dirs.push(project);
});
beforeEach(() => {
  state = tempDir("signalint-state-");
  dirs.push(state);
  for (let index = 0; index < FILES; index++) writeFileSync(file(index), content(index, false));
});
after(() => dirs.forEach(removeDir));

/** A pid no process has now: one that has just exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ["-e", ""]).pid as number;
}

interface Plant {
  target: string;
  original: string;
  patched: string;
  /** Where the plan says the backup is (default: its own backup directory, written with `backupContent`). */
  backup?: string;
  backupContent?: string;
  /** The key to tag it with (default: this user's, so only the other checks can refuse it). */
  key?: string;
  /** The root it claims to be for (default: the project's real root). */
  realRoot?: string;
}

/** Write a journal in state `committing` as a crashed apply would have left it (or as someone else might plant it). */
async function plant(spec: Plant): Promise<string> {
  const id = `tx-${runtime.randomHex(8)}`;
  const dir = join(state, "journal");
  const backup = spec.backup ?? backupPathOf(dir, id, 0);
  mkdirSync(join(dir, id), { recursive: true });
  if (spec.backup === undefined) writeFileSync(backup, spec.backupContent ?? spec.original);
  const entry = { file: "src/f0.ts", target: spec.target, temp: tempPathOf(spec.target, id), backup };
  const hashes = { originalHash: runtime.sha256(spec.original), patchedHash: runtime.sha256(spec.patched) };
  const journal = {
    format: 2 as const,
    transactionId: id,
    realRoot: spec.realRoot ?? realRoot,
    writerPid: deadPid(),
    writerOwned: true,
    state: "committing" as const,
    entries: [{ ...entry, ...hashes }],
  };
  writeFileSync(join(dir, `${id}.journal`), JSON.stringify(tagJournal(runtime, spec.key ?? (await userKey(runtime)), journal)));
  return id;
}

/** A check on the project (the state directory's owner: it recovers), which must succeed. */
function check(): string {
  const result = runCli(["check", "src/f1.ts"], { cwd: project, env: { SIGNALINT_STATE_DIR: state } });
  assert.equal(result.status, 0, `the check runs whatever the journal holds (exit ${result.status}): ${result.stderr}`);
  return result.stderr;
}

/** The journal was moved to journal/rejected/ (plan and backups), with one warning line naming it. */
function assertSetAside(id: string, stderr: string, reason: RegExp): void {
  const lines = stderr.split("\n").filter((line) => line.includes("fix journal"));
  assert.equal(lines.length, 1, stderr);
  assert.match(lines[0] as string, new RegExp(`set aside the fix journal ${id}: `));
  assert.match(lines[0] as string, reason);
  assert.equal(existsSync(join(state, "journal", `${id}.journal`)), false, "the plan is no longer where recovery reads");
  const [moved] = readdirSync(join(state, "journal", "rejected"));
  assert.match(moved as string, new RegExp(`^${id}-`));
  assert.ok(readdirSync(join(state, "journal", "rejected", moved as string)).includes(`${id}.journal`), "kept, not deleted");
}

it("a tagged journal whose target is outside the project never touches it: set aside with a warning", async () => {
  const outside = join(tempDir("journal-outside-"), "victim.txt");
  writeFileSync(outside, "the user's own file\n");
  // The backup a repository file, with the right hash for it: the old recovery would have copied it over `outside`.
  const repoFile = join(realRoot, "src", "index.ts");
  const id = await plant({ target: outside, original: readFileSync(repoFile, "utf8"), patched: "the user's own file\n", backup: repoFile });
  const stderr = check();
  assert.equal(readFileSync(outside, "utf8"), "the user's own file\n");
  assertSetAside(id, stderr, /is not a file inside/);
});

it("a journal without this user's integrity tag is set aside: the source file it names is untouched", async () => {
  writeFileSync(file(0), content(0, true));
  const id = await plant({ target: join(realRoot, "src", "f0.ts"), original: content(0, false), patched: content(0, true), key: "0".repeat(64) });
  const stderr = check();
  assert.equal(readFileSync(file(0), "utf8"), content(0, true));
  assertSetAside(id, stderr, /integrity tag/);
});

it("a journal that is not JSON is set aside, not deleted", () => {
  const id = `tx-${runtime.randomHex(8)}`;
  mkdirSync(join(state, "journal"), { recursive: true });
  writeFileSync(join(state, "journal", `${id}.journal`), '{"transactionId": "');
  assertSetAside(id, check(), /bad JSON/);
});

it("a tagged journal written for another root is set aside: the file it names is untouched", async () => {
  writeFileSync(file(0), content(0, true));
  const id = await plant({ target: join(realRoot, "src", "f0.ts"), original: content(0, false), patched: content(0, true), realRoot: "/elsewhere" });
  const stderr = check();
  assert.equal(readFileSync(file(0), "utf8"), content(0, true));
  assertSetAside(id, stderr, /written for \/elsewhere/);
});

it("a journal whose backup does not match its hash is set aside and the check still succeeds (no exit 70)", async () => {
  writeFileSync(file(0), content(0, true));
  const target = join(realRoot, "src", "f0.ts");
  const id = await plant({ target, original: content(0, false), patched: content(0, true), backupContent: "damaged\n" });
  const stderr = check();
  assert.equal(readFileSync(file(0), "utf8"), content(0, true), "nothing restored from a damaged backup");
  assertSetAside(id, stderr, /backup of src\/f0\.ts is damaged/);
  // The next start finds nothing more to say.
  assert.doesNotMatch(check(), /fix journal/);
});

const patches = () =>
  Array.from({ length: FILES }, (_, index) => ({ file: `src/f${index}.ts`, originalContent: content(index, false), patchedContent: content(index, true) }));

/** Apply the patches in a server of its own, SIGKILL it at `stage`, and resolve once it is gone. */
async function killAt(stage: string): Promise<void> {
  const { pid, closed, applying } = await pausedApply(project, state, stage, patches());
  process.kill(pid, "SIGKILL");
  await closed;
  assert.equal(await applying, "killed");
}

/** Every file original again, the rollback said, and the journal gone. */
function assertRolledBack(stderr: string): void {
  assert.deepEqual(
    states(),
    Array.from({ length: FILES }, (_, index) => content(index, false)),
  );
  assert.match(stderr, /rolled back an interrupted fix of 3 file\(s\)/);
  assert.deepEqual(readdirSync(join(state, "journal")), []);
}

for (const stage of ["committing", `renamed-${FILES - 1}`]) {
  it(`a real SIGKILL at ${stage} is still rolled back at the next start`, async () => {
    await killAt(stage);
    assert.deepEqual(
      states().map((text) => text.includes("patched")),
      Array(FILES).fill(stage !== "committing"),
    );
    const stderr = check();
    assertRolledBack(stderr);
  });
}

it("a file edited after the crash is kept as it is and named; the others are rolled back", async () => {
  await killAt(`renamed-${FILES - 1}`);
  writeFileSync(file(0), 'export const v0: string = "the user\'s edit";\n');
  const stderr = check();
  assert.deepEqual(states(), ['export const v0: string = "the user\'s edit";\n', content(1, false), content(2, false)]);
  assert.match(stderr, /left src\/f0\.ts as is: edited since the interrupted fix/);
  assert.match(stderr, /rolled back an interrupted fix of 2 file\(s\): src\/f1\.ts, src\/f2\.ts/);
});

it("an apply interrupted in a session without the lock is rolled back by the next owner, never while its writer lives", async () => {
  const owner = await connect(project, { SIGNALINT_STATE_DIR: state });
  const { pid, closed, applying } = await pausedApply(project, state, "renamed-1", patches());
  assert.deepEqual(
    states().map((text) => text.includes("patched")),
    [true, true, false],
    "the second session is inside its apply",
  );
  await owner.close();
  // A new owner while that writer still runs: its journal is in flight, not interrupted.
  const during = check();
  assert.doesNotMatch(during, /rolled back|fix journal/, during);
  assert.deepEqual(
    states().map((text) => text.includes("patched")),
    [true, true, false],
  );
  process.kill(pid, "SIGKILL");
  await closed;
  await applying;
  const stderr = check();
  assertRolledBack(stderr);
});

it("journal/rejected keeps the newest set-aside journals only: a repository cannot fill the disk one start at a time", () => {
  mkdirSync(join(state, "journal"), { recursive: true });
  const planted = (count: number) =>
    Array.from({ length: count }, () => {
      const id = `tx-${runtime.randomHex(8)}`;
      writeFileSync(join(state, "journal", `${id}.journal`), "not a journal");
      return id;
    });
  const first = planted(20);
  check();
  assert.equal(readdirSync(join(state, "journal", "rejected")).length, 20, "20 are kept: nothing removed yet");
  const [newest] = planted(1);
  const stderr = check();
  assert.match(stderr, /removed 1 set-aside fix journal\(s\) older than the newest 20/);
  const kept = readdirSync(join(state, "journal", "rejected")).map((name) => name.replace(/-[0-9a-f]+$/, ""));
  assert.equal(kept.length, 20);
  assert.ok(kept.includes(newest as string), "the newest is kept");
  assert.equal(first.filter((id) => !kept.includes(id)).length, 1, "one of the older ones went");
});
