// The previews' diffs (core/unified-diff.ts) read as git prints them: compared with `git diff --no-index` on the same
// texts, hunks and all, for edits at the start, middle and end, a lost final newline, and far-apart changes.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { countLineChanges } from "../../src/core/line-diff.ts";
import { lineMap, unifiedDiff } from "../../src/core/unified-diff.ts";
import { tempDir } from "../helpers.ts";

const lines = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}`);
const CASES: [string, string, string][] = [
  ["first line changed", lines(10).join("\n") + "\n", ["changed", ...lines(10).slice(1)].join("\n") + "\n"],
  ["last line changed", lines(10).join("\n") + "\n", [...lines(9), "changed"].join("\n") + "\n"],
  ["final newline lost", lines(5).join("\n") + "\n", lines(5).join("\n")],
  [
    "two far-apart changes",
    lines(30).join("\n") + "\n",
    lines(30)
      .map((line, i) => (i === 2 || i === 25 ? `${line}!` : line))
      .join("\n") + "\n",
  ],
  ["lines inserted and removed", lines(12).join("\n") + "\n", [...lines(4), "new a", "new b", ...lines(12).slice(6)].join("\n") + "\n"],
];

it("unified diffs equal git's, and the line counts agree with them", () => {
  const dir = tempDir("signalint-diff-");
  try {
    for (const [name, before, after] of CASES) {
      mkdirSync(join(dir, "a"), { recursive: true });
      mkdirSync(join(dir, "b"), { recursive: true });
      writeFileSync(join(dir, "a", "f.ts"), before);
      writeFileSync(join(dir, "b", "f.ts"), after);
      const git = spawnSync("git", ["diff", "--no-index", "--no-color", "--no-prefix", "a/f.ts", "b/f.ts"], { cwd: dir, encoding: "utf8" });
      // From the first hunk on, without git's function-context heading after a hunk's `@@` (optional in the format).
      const hunks = (text: string) => text.slice(text.indexOf("@@")).replace(/^(@@ [^@]+ @@).*$/gm, "$1");
      const ours = unifiedDiff("f.ts", before, after);
      assert.equal(hunks(ours), hunks(git.stdout), name);
      const added = ours.split("\n").filter((line) => line.startsWith("+") && !line.startsWith("+++")).length;
      const removed = ours.split("\n").filter((line) => line.startsWith("-") && !line.startsWith("---")).length;
      if (name !== "final newline lost") assert.deepEqual(countLineChanges(before, after), { addedLines: added, removedLines: removed }, name);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

describe("lineMap: where a line of the check's text is after an earlier engine's fix", () => {
  it("kept lines follow removed and added ones; a changed line maps onto its replacement", () => {
    const before = "\n\n\nimport a;\nconst x = 1;\nvar y = 2;\nuse(x, y);\n";
    const after = "import a;\nconst x = 1;\nlet y = 2;\n\nuse(x, y);\n";
    const map = lineMap(before, after);
    assert.deepEqual([4, 5, 6, 7].map(map), [1, 2, 3, 5]);
    assert.equal(map(1), 1, "a removed blank line: where the next kept line went");
  });

  it("equal texts map every line to itself", () => {
    assert.deepEqual([1, 2, 3].map(lineMap("a\nb\nc\n", "a\nb\nc\n")), [1, 2, 3]);
  });
});
