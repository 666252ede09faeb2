// A long-lived server in this process (its file watch running from its start, as a daemon's), and a run of edits each
// answered warm and compared with a cold run of the project's own checker: the warm framework checkers' tests.
import assert from "node:assert/strict";
import { createNodeRuntime } from "../../src/runtime/node.ts";
import { SignalintService } from "../../src/service/signalint.ts";
import { BUNDLE, serviceIssues, tempDir } from "../helpers.ts";
import { assertTreeUnchanged, snapshotTree } from "./tree.ts";

/** A server for `root` with its state and cache in new directories (pushed to `dirs` for removal). */
export async function longLivedService(root: string, prefix: string, dirs: string[]): Promise<SignalintService> {
  process.env.SIGNALINT_STATE_DIR = tempDir(`${prefix}state-`);
  process.env.SIGNALINT_CACHE_DIR = tempDir(`${prefix}cache-`);
  dirs.push(process.env.SIGNALINT_STATE_DIR, process.env.SIGNALINT_CACHE_DIR);
  return SignalintService.create(createNodeRuntime({ selfScript: BUNDLE }), { root, prewarm: true }).finally(() => {
    delete process.env.SIGNALINT_STATE_DIR;
    delete process.env.SIGNALINT_CACHE_DIR;
  });
}

/** A check's tsc issues as sorted "file:line:col rule", and how tsc answered (its programs' modes, sorted, `+`-joined). */
export async function tscAnswer(service: SignalintService, paths = ["."]): Promise<{ keys: string[]; mode: string }> {
  const response = await service.check(paths, false);
  assert.equal(response.engines.tsc?.status, "ok", JSON.stringify(response.engines.tsc));
  const keys = serviceIssues(service, response)
    .filter((issue) => issue.engine === "tsc")
    .map((issue) => `${issue.file}:${issue.line}:${issue.col} ${issue.rule}`)
    .sort();
  return { keys, mode: String(service.lastTiming?.cache?.tsc?.mode).split("+").sort().join("+") };
}

/**
 * Each step: its edit, then a whole check — the tree unchanged by it, its answer equal to `cold()` of the edited tree,
 * its mode matching the step's. `checker` names the cold run in the messages.
 */
export async function warmSteps(service: SignalintService, dir: string, steps: readonly [string, () => void, RegExp][], cold: () => string[], checker: string) {
  for (const [name, edit, mode] of steps) {
    edit();
    const before = snapshotTree(dir);
    const warm = await tscAnswer(service);
    assertTreeUnchanged(dir, before);
    assert.deepEqual(warm.keys, cold(), `${name}: the warm answer equals ${checker}`);
    assert.match(warm.mode, mode, `${name}: answered as expected`);
  }
}
