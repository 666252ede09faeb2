// The race of issue 20: a CLI check and a hook run while a server is inside apply_diagnostic_fix (paused at a journal
// stage). Only the state directory's owner may recover journals, so neither rolls the server's fix back: the files
// stay exactly as the apply left them at that instant.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, it } from "node:test";
import { BUNDLE, CLEAN_PATH, removeDir, runCli, scratchCopy, STATE_HOME_ENV, tempDir } from "../helpers.ts";
import { pausedApply } from "../helpers/paused-apply.ts";

const FILES = 24;
const STAGES = ["journal-written", "committing", "renamed-0", "renamed-12", "committed"];

const content = (index: number, patched: boolean) => `export const v${index}: string = ${patched ? '"patched"' : '"original"'};\n`;

let project: string;
let state: string;
before(() => {
  project = scratchCopy("clean", "apply-race");
  state = tempDir("signalint-state-");
  mkdirSync(join(project, "src"), { recursive: true });
});
after(() => {
  removeDir(project);
  removeDir(state);
});

const patchedCount = () =>
  Array.from({ length: FILES }, (_, index) => readFileSync(join(project, "src", `f${index}.ts`), "utf8") === content(index, true)).filter(Boolean).length;

for (const stage of STAGES) {
  it(`a CLI check and a hook during an apply paused at ${stage} leave the files as the apply left them`, async () => {
    for (let index = 0; index < FILES; index++) writeFileSync(join(project, "src", `f${index}.ts`), content(index, false));
    const env = { ...STATE_HOME_ENV, PATH: CLEAN_PATH, HOME: process.env.HOME ?? "", SIGNALINT_DAEMON: "0", SIGNALINT_STATE_DIR: state };
    const patches = Array.from({ length: FILES }, (_, index) => ({
      file: `src/f${index}.ts`,
      originalContent: content(index, false),
      patchedContent: content(index, true),
    }));
    const { pid, applying, closed } = await pausedApply(project, state, stage, patches);
    const atPause = patchedCount();
    // Another process on the same state directory: it must not recover (roll back) the journal the server owns.
    const check = runCli(["check", "src/f3.ts"], { cwd: project, env });
    assert.doesNotMatch(check.stderr, /rolled back/, check.stderr);
    const input = JSON.stringify({ cwd: project, tool_name: "Edit", tool_input: { file_path: join(project, "src", "f3.ts") } });
    const hook = spawnSync(process.execPath, [BUNDLE, "hook"], { cwd: project, env, input, encoding: "utf8" });
    assert.doesNotMatch(hook.stderr, /rolled back/, hook.stderr);
    assert.ok(hook.status === 0 || hook.status === 2, `the hook ran its check (exit ${hook.status}): ${hook.stderr}`);
    assert.equal(patchedCount(), atPause, `files at ${stage} after a CLI check and a hook`);
    process.kill(pid, "SIGKILL");
    await closed;
    await applying;
    // The owner's next start recovers it: all original or all patched, never a mix.
    const recovered = runCli(["check", "src/f3.ts"], { cwd: project, env });
    assert.ok([0, FILES].includes(patchedCount()), `${patchedCount()} of ${FILES} patched after recovery (${recovered.stderr})`);
  });
}
