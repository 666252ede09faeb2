import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { CheckResponse, NormalizedIssue } from "../../src/core/contracts.ts";
import { call, connect, everyIssue, linkPackage, removeDir, REPO, scratchCopy, structured, tempDir } from "../helpers.ts";
import { writeFiles } from "../helpers/project.ts";

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

  for (const { label, typescript, warm, expected } of [
    { label: "TypeScript 5.9, warm", typescript: "typescript", warm: true, expected: "safe" },
    { label: "TypeScript 5.9, command line", typescript: "typescript", warm: false, expected: "safe" },
    { label: "TypeScript 6, warm", typescript: "typescript6", warm: true, expected: "safe" },
    { label: "TypeScript 7 (no code fixes offered)", typescript: "typescript7", warm: true, expected: "-" },
  ]) {
    it(`tsc, ${label}: marked by code only where TypeScript always gives a safe fix; a repeated answer carries the same marks`, async () => {
      const project = tempDir("signalint-marks-tsc-");
      dirs.push(project);
      writeFiles(project, {
        "package.json": JSON.stringify({ name: "marks", private: true, type: "module" }),
        "tsconfig.json": JSON.stringify({
          compilerOptions: { strict: true, noEmit: true, noUnusedLocals: true, noUnusedParameters: true, module: "esnext", target: "es2022" },
          include: ["src"],
        }),
        "signalint.config.json": JSON.stringify({ engines: { oxlint: false }, warmTypeScript: warm }),
        "src/math.ts": "export const one = 1;\nexport const two = 2;\n",
        "src/a.ts":
          'import { one, two } from "./math";\nfunction pair<A, B>(value: number): number {\n  return value;\n}\nexport const three = pair(add(1, 2));\n',
      });
      linkPackage(project, "typescript", join(REPO, "node_modules", typescript));
      const session = await connect(project);
      try {
        const first = marks(await everyIssue(session, structured<CheckResponse>(await call(session.client, "check_project"))), "tsc");
        assert.deepEqual(first, { "src/a.ts:1 TS6192": expected, "src/a.ts:2 TS6205": expected, "src/a.ts:5 TS2304": "-" });
        const again = structured<CheckResponse>(await call(session.client, "check_project"));
        assert.deepEqual(marks(await everyIssue(session, again), "tsc"), first);
        const files = structured<CheckResponse>(await call(session.client, "check_files", { files: ["src/a.ts"] }));
        assert.deepEqual(marks(await everyIssue(session, files), "tsc"), first);
      } finally {
        await session.close();
      }
    });
  }
});
