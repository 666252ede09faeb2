import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, it } from "node:test";
import { call, connect, removeDir, REPO, scratchCopy, structured, tempDir } from "../helpers.ts";
import { pausedApply } from "../helpers/paused-apply.ts";

const FILES = 40;
// 40 files × ~100 KB: original + patched content of all of them is just under the 8 MiB request bound.
const SIZE = 100_000;
/** Every stage the journal passes, in order, sampled: before any temp, during temps, before the first rename, between renames, after. */
const STAGES = [
  "journal-written",
  "temp-0",
  "temp-20",
  `temp-${FILES - 1}`,
  "committing",
  ...[0, 1, 2, 10, 20, 30, FILES - 2, FILES - 1].map((index) => `renamed-${index}`),
  "committed",
];

function content(index: number, patched: boolean): string {
  const filler = `// ${"filler ".repeat(14)}${index}\n`;
  const body = filler.repeat(Math.ceil(SIZE / filler.length)).slice(0, SIZE - 40);
  return `${body}\nexport const v${index} = ${patched ? `"patched"` : `"original"`};\n`;
}

/** Start the server with the journal hook paused at `stage`, apply, and SIGKILL it the moment it reports the stage. */
async function killAt(project: string, state: string, stage: string): Promise<void> {
  const patches = Array.from({ length: FILES }, (_, index) => ({
    file: `src/f${index}.ts`,
    originalContent: content(index, false),
    patchedContent: content(index, true),
  }));
  const { pid, applying, closed } = await pausedApply(project, state, stage, patches);
  // The instant is exact: the server is blocked at the stage, with exactly the renames before it done.
  const renamed = /^renamed-(\d+)$/.exec(stage);
  const expected = renamed ? Number(renamed[1]) + 1 : stage === "committed" ? FILES : 0;
  const patchedNow = Array.from({ length: FILES }, (_, index) => readFileSync(join(project, "src", `f${index}.ts`), "utf8") === content(index, true)).filter(
    Boolean,
  ).length;
  assert.equal(patchedNow, expected, `files already renamed when killed at ${stage}`);
  process.kill(pid, "SIGKILL");
  await closed;
  assert.equal(await applying, "killed", `the server was killed at ${stage} before answering`);
}

let project: string;
let state: string;
before(() => {
  project = scratchCopy("clean", "crash");
  state = tempDir("signalint-state-");
  mkdirSync(join(project, "src"), { recursive: true });
});
after(() => {
  removeDir(project);
  removeDir(state);
});

it(`SIGKILL at ${STAGES.length} instants of a ${FILES}-file apply: after a restart every file is all original or all patched`, async () => {
  let kills = 0;
  for (const stage of STAGES) {
    for (let index = 0; index < FILES; index++) writeFileSync(join(project, "src", `f${index}.ts`), content(index, false));
    await killAt(project, state, stage);
    kills++;
    // The restart rolls back an unfinished journal before it serves anything.
    const restarted = await connect(project, { SIGNALINT_STATE_DIR: state });
    try {
      // tools/list does not wait for the service; a tool call does, and the service rolls back before it serves.
      await call(restarted.client, "get_loop_status");
      const states = Array.from({ length: FILES }, (_, index) => {
        const text = readFileSync(join(project, "src", `f${index}.ts`), "utf8");
        return text === content(index, false) ? "original" : text === content(index, true) ? "patched" : "torn";
      });
      const expected = stage === "committed" ? "patched" : "original";
      assert.deepEqual([...new Set(states)], [expected], `killed at ${stage}: ${states.join(",")}`);
      const leftovers = readdirSync(project, { recursive: true })
        .map(String)
        .filter((name) => name.includes(".signalint-") && !name.startsWith("node_modules"));
      assert.deepEqual(leftovers, [], `no temp file left after a kill at ${stage}`);
      assert.deepEqual(readdirSync(join(state, "journal")), [], `journal cleared after a kill at ${stage}`);
      if (stage !== "committed" && stage !== "journal-written") assert.match(restarted.stderr(), /rolled back an interrupted fix/);
    } finally {
      await restarted.close();
    }
  }
  assert.equal(kills, STAGES.length);
});

it("SIGKILL during an engine fix's apply (ESLint's edits of two files, verified): after a restart both files are original, or both fixed", async () => {
  const dir = scratchCopy("eslint-flat", "crash-engine");
  const dirState = tempDir("signalint-state-");
  const copy = tempDir("signalint-own-fix-");
  try {
    writeFileSync(join(dir, "signalint.config.json"), JSON.stringify({ engines: { oxlint: false, tsc: false } }));
    const files = ["src/app.js", "src/util.js"];
    const read = (root: string) => files.map((file) => readFileSync(join(root, file), "utf8"));
    const original = read(dir);
    cpSync(dir, copy, { recursive: true, verbatimSymlinks: true });
    spawnSync(process.execPath, [join(REPO, "node_modules", "eslint", "bin", "eslint.js"), "--fix", "src"], { cwd: copy });
    const fixed = read(copy);
    for (const stage of ["journal-written", "temp-1", "committing", "renamed-0", "committed"]) {
      files.forEach((file, index) => writeFileSync(join(dir, file), original[index] as string));
      const { pid, preview, applying, closed } = await pausedApply(dir, dirState, stage, { files });
      assert.deepEqual(
        preview.files.map((file) => file.file),
        files,
      );
      process.kill(pid, "SIGKILL");
      await closed;
      assert.equal(await applying, "killed", `the server was killed at ${stage} before answering`);
      const restarted = await connect(dir, { SIGNALINT_STATE_DIR: dirState });
      try {
        await call(restarted.client, "get_loop_status");
        const states = read(dir).map((text, index) => (text === original[index] ? "original" : text === fixed[index] ? "fixed" : "torn"));
        assert.deepEqual([...new Set(states)], [stage === "committed" ? "fixed" : "original"], `killed at ${stage}: ${states.join(",")}`);
      } finally {
        await restarted.close();
      }
    }
  } finally {
    [dir, dirState, copy].forEach(removeDir);
  }
});

it("a plan an earlier version wrote (journal/<id>.json, no integrity tag) is set aside, never executed", async () => {
  for (let index = 0; index < FILES; index++) writeFileSync(join(project, "src", `f${index}.ts`), content(index, false));
  await killAt(project, state, "renamed-10");
  const dir = join(state, "journal");
  const plans = readdirSync(dir).filter((name) => name.endsWith(".journal"));
  assert.equal(plans.length, 1, readdirSync(dir).join(", "));
  for (const plan of plans) {
    const { tag: _, ...untagged } = JSON.parse(readFileSync(join(dir, plan), "utf8")) as Record<string, unknown>;
    writeFileSync(join(dir, plan.replace(/\.journal$/, ".json")), JSON.stringify(untagged));
    rmSync(join(dir, plan));
  }
  const restarted = await connect(project, { SIGNALINT_STATE_DIR: state });
  try {
    // tools/list does not wait for the service; a tool call does, and the service rolls back before it serves.
    await call(restarted.client, "get_loop_status");
    const patched = Array.from({ length: FILES }, (_, index) => readFileSync(join(project, "src", `f${index}.ts`), "utf8") === content(index, true));
    assert.equal(patched.filter(Boolean).length, 11, "the files stay as the crash left them");
    assert.match(restarted.stderr(), /set aside the fix journal tx-[0-9a-f]{16}: an earlier version's journal/);
    assert.deepEqual(readdirSync(dir), ["rejected"], "set aside, not deleted");
  } finally {
    await restarted.close();
  }
});

it("the state directory holds no .json file a user's linter or formatter would take for its own", async () => {
  const session = await connect(project, { SIGNALINT_STATE_DIR: state });
  try {
    await call(session.client, "check_project");
  } finally {
    await session.close();
  }
  const files = readdirSync(state, { recursive: true }).map(String);
  assert.ok(
    files.some((name) => name.startsWith("snapshots")),
    files.join(", "),
  );
  assert.deepEqual(
    files.filter((name) => name.endsWith(".json")),
    [],
  );
});
