import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { CheckResponse, NormalizedIssue } from "../../src/core/contracts.ts";
import { call, connect, everyIssue, linkPackage, removeDir, REPO, scratchCopy, structured } from "../helpers.ts";

/** Biome 2 (the devDependency) and Biome 1.9 (installed here as the `biome1` alias). */
const BIOME_VERSIONS = [
  { label: "2.x", dir: join(REPO, "node_modules", "@biomejs", "biome") },
  { label: "1.x", dir: join(REPO, "node_modules", "biome1") },
];

/** `file:line rule` → `fixKind` (or "-" when not fixable) for each issue of one engine. */
function marks(issues: readonly NormalizedIssue[], engine: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of issues.filter((each) => each.engine === engine))
    out[`${issue.file}:${issue.line} ${issue.rule}`] = issue.fixable ? (issue.fixKind ?? "?") : "-";
  return out;
}

describe("fixable and fixKind: what each engine's own output says", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  for (const { label, dir } of BIOME_VERSIONS) {
    it(`Biome ${label}: "Safe fix" advice is safe; "Unsafe fix" a suggestion where the JSON says it (1.x), never claimed otherwise`, async () => {
      const project = scratchCopy("biome-app", `marks-biome-${label}`);
      dirs.push(project);
      linkPackage(project, "@biomejs/biome", dir);
      writeFileSync(join(project, "src", "consts.ts"), "let answer = 42;\nexport const doubled = answer * 2;\n");
      const session = await connect(project);
      try {
        const cold = structured<CheckResponse>(await call(session.client, "check_project"));
        const coldMarks = marks(await everyIssue(session, cold), "biome");
        assert.equal(coldMarks["src/consts.ts:1 lint/style/useConst"], "safe");
        // noDoubleEquals' fix is unsafe: Biome 1's JSON says so, Biome 2's says nothing of it.
        assert.equal(coldMarks["src/index.ts:2 lint/suspicious/noDoubleEquals"], label === "1.x" ? "suggestion" : "-");
        // A cached answer (nothing changed, and after one file changed) carries the same marks as the cold run.
        const again = structured<CheckResponse>(await call(session.client, "check_project"));
        assert.deepEqual(marks(await everyIssue(session, again), "biome"), coldMarks);
        const files = structured<CheckResponse>(await call(session.client, "check_files", { files: ["src/consts.ts", "src/index.ts"] }));
        const fileMarks = marks(await everyIssue(session, files), "biome");
        for (const [key, mark] of Object.entries(fileMarks)) assert.equal(mark, coldMarks[key], key);
      } finally {
        await session.close();
      }
    });
  }

  it("ESLint: marks survive the lint cache (a check_files answered from the cache)", async () => {
    const project = scratchCopy("eslint-flat", "marks-eslint");
    dirs.push(project);
    const session = await connect(project);
    try {
      const cold = structured<CheckResponse>(await call(session.client, "check_project"));
      const coldMarks = marks(await everyIssue(session, cold), "eslint");
      assert.ok(Object.values(coldMarks).includes("safe") && Object.values(coldMarks).includes("suggestion"), JSON.stringify(coldMarks));
      const files = Object.keys(coldMarks).map((key) => key.split(":")[0] as string);
      const cached = structured<CheckResponse>(await call(session.client, "check_files", { files: [...new Set(files)] }));
      assert.ok((cached.cache?.eslint?.hits ?? 0) > 0, JSON.stringify(cached.cache));
      assert.deepEqual(marks(await everyIssue(session, cached), "eslint"), coldMarks);
    } finally {
      await session.close();
    }
  });
});
