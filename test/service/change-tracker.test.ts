// The change tracker on a real tree: a write made just before a fence is in the hint the fence vouches for (without
// the fence its event would not have been read yet), directories created, renamed and removed are named, symlinks
// and node_modules are reported as unseen; and recheckFilter turns a hint into exactly the paths to ask about again.
import assert from "node:assert/strict";
import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { createNodeRuntime } from "../../src/runtime/node.ts";
import { ChangeTracker } from "../../src/service/freshness/change-tracker.ts";
import { type ChangeHint, recheckFilter } from "../../src/typescript/change-hint.ts";
import { loadTypeScript, WarmTsProgram } from "../../src/typescript/warm-program.ts";
import { REPO, removeDir, tempDir } from "../helpers.ts";

async function watched(): Promise<{ root: string; tracker: ChangeTracker; close: () => void }> {
  const root = tempDir("signalint-tracker-");
  mkdirSync(join(root, ".signalint"));
  mkdirSync(join(root, "src", "deep"), { recursive: true });
  mkdirSync(join(root, "node_modules", "pkg"), { recursive: true });
  writeFileSync(join(root, "src", "a.ts"), "a\n");
  symlinkSync(join(root, "src", "a.ts"), join(root, "src", "link.ts"));
  const tracker = new ChangeTracker(createNodeRuntime(), root, join(root, ".signalint"));
  tracker.startSoon();
  await tracker.ready();
  return {
    root,
    tracker,
    close: () => {
      tracker.close();
      removeDir(root);
    },
  };
}

const changed = (hint: ChangeHint | null) => (hint?.changes ?? []).map(([path]) => path);

describe("ChangeTracker", () => {
  it("vouches, after a fence, for a write made just before it", async () => {
    const { root, tracker, close } = await watched();
    try {
      assert.equal(tracker.status, "on");
      assert.ok(await tracker.fence());
      const start = tracker.hint() as ChangeHint;
      assert.deepEqual(start.uncovered.sort(), [join(root, ".signalint"), join(root, "node_modules"), join(root, "src", "link.ts")].sort());
      // No event-loop turn between the write and the fence: only the fence's own event proves this one was read.
      writeFileSync(join(root, "src", "a.ts"), "b\n");
      assert.ok(await tracker.fence());
      const after = tracker.hint() as ChangeHint;
      assert.ok(changed(after).includes(join(root, "src", "a.ts")));
      assert.ok(after.seq > start.seq);
      // Nothing of the state directory (the fence's markers included) counts as a change.
      assert.ok(!changed(after).some((path) => path.startsWith(join(root, ".signalint"))));
    } finally {
      close();
    }
  });

  it("names directories created, renamed and removed, and watches what appears", async () => {
    const { root, tracker, close } = await watched();
    try {
      mkdirSync(join(root, "src", "new", "inner"), { recursive: true });
      writeFileSync(join(root, "src", "new", "inner", "x.ts"), "x\n");
      assert.ok(await tracker.fence());
      const seq = (tracker.hint() as ChangeHint).seq;
      writeFileSync(join(root, "src", "new", "inner", "x.ts"), "y\n");
      renameSync(join(root, "src", "deep"), join(root, "src", "moved"));
      rmSync(join(root, "src", "a.ts"));
      symlinkSync(join(root, "src", "moved"), join(root, "src", "linked-dir"));
      assert.ok(await tracker.fence());
      const hint = tracker.hint() as ChangeHint;
      const since = hint.changes.filter(([, at]) => at > seq).map(([path]) => path);
      for (const path of ["src/new/inner/x.ts", "src/deep", "src/moved", "src/a.ts", "src/linked-dir"]) assert.ok(since.includes(join(root, path)), path);
      assert.ok(hint.uncovered.includes(join(root, "src", "linked-dir")), "a symlink that appears is unseen from then on");
    } finally {
      close();
    }
  });

  it("stops on a watch error (the watch limit), and gives no hint after", async () => {
    const { root, tracker, close } = await watched();
    try {
      for (let i = 0; i <= 8192; i++) mkdirSync(join(root, "many", `d${i}`), { recursive: true });
      assert.equal(await tracker.fence(), false);
      assert.equal(tracker.status, "off");
      assert.equal(tracker.hint(), null);
    } finally {
      close();
    }
  });
});

describe("recheckFilter", () => {
  const hint: ChangeHint = {
    seq: 5,
    since: 2,
    changes: [
      ["/p/src/a.ts", 3],
      ["/p/src/dir", 4],
      ["/p/src/old.ts", 2],
    ],
    root: "/p",
    uncovered: ["/p/node_modules", "/p/src/link.ts"],
    caseSensitive: true,
  };

  it("asks again about what changed since the program last looked, what the watch cannot see, and nothing else", () => {
    const recheck = recheckFilter(hint, 2) as (path: string) => boolean;
    for (const path of ["/p/src/a.ts", "/p/src/dir", "/p/src/dir/b.ts", "/p/src", "/p/node_modules/x/index.d.ts", "/p/src/link.ts", "/elsewhere/lib.d.ts"])
      assert.equal(recheck(path), true, path);
    for (const path of ["/p/src/old.ts", "/p/src/c.ts", "/p/src/directory.ts", "/p", "/p/tsconfig.json"]) assert.equal(recheck(path), false, path);
  });

  it("asks about everything without a hint reaching back far enough", () => {
    assert.equal(recheckFilter(null, 3), null);
    assert.equal(recheckFilter(hint, null), null);
    assert.equal(recheckFilter(hint, 1), null);
    assert.equal(recheckFilter({ ...hint, changes: [["/p", 4]] }, 3), null);
  });

  it("with `reportedOnly`, only what the watch reported: not what it cannot see", () => {
    const reported = recheckFilter(hint, 2, true) as (path: string) => boolean;
    for (const path of ["/p/src/a.ts", "/p/src/dir/b.ts"]) assert.equal(reported(path), true, path);
    for (const path of ["/p/node_modules/x/index.d.ts", "/p/src/link.ts", "/elsewhere/lib.d.ts", "/p/src/c.ts"]) assert.equal(reported(path), false, path);
  });

  it("a warm program reads again the file a hint names, not the lib and node_modules files the watch cannot see", () => {
    const root = tempDir("signalint-hint-reads-");
    const ts = loadTypeScript(join(REPO, "node_modules", "typescript"));
    assert.ok(ts);
    const readFile = ts.sys.readFile;
    const reads: string[] = [];
    ts.sys.readFile = (path, encoding) => (reads.push(path), readFile(path, encoding));
    try {
      writeFileSync(
        join(root, "tsconfig.json"),
        JSON.stringify({ compilerOptions: { strict: true, noEmit: true, lib: ["es2022", "dom"] }, include: ["*.ts"] }),
      );
      writeFileSync(join(root, "a.ts"), "export const a = 1;\n");
      const program = new WarmTsProgram(ts, join(root, "tsconfig.json"));
      const at = (seq: number, changes: [string, number][]): ChangeHint => ({
        seq,
        since: 0,
        changes,
        root,
        uncovered: [join(root, "node_modules")],
        caseSensitive: true,
      });
      program.check(at(1, []));
      reads.length = 0;
      writeFileSync(join(root, "a.ts"), "export const a: string = 2;\n");
      const result = program.check(at(2, [[join(root, "a.ts"), 2]]));
      assert.deepEqual(
        result?.diagnostics.map((diagnostic) => diagnostic.code),
        [2322],
      );
      assert.ok(reads.includes(join(root, "a.ts")), "the reported file is read again");
      assert.deepEqual(
        reads.filter((path) => path.endsWith(".d.ts")),
        [],
        "unchanged lib files keep their stamps",
      );
    } finally {
      ts.sys.readFile = readFile;
      removeDir(root);
    }
  });

  it("compares without case where the file system may ignore it", () => {
    const recheck = recheckFilter({ ...hint, caseSensitive: false }, 2) as (path: string) => boolean;
    assert.equal(recheck("/p/SRC/A.ts"), true);
    assert.equal(recheck("\\p\\src\\dir\\b.ts"), true);
    assert.equal(recheck("/p/src/c.ts"), false);
  });
});
