// oxlint's safe and suggestion passes on a private copy (service/fix/oxlint-fixes.ts): a pass whose fix moved lines
// leaves the next pass crediting the issues it fixed where they now are (paired through the diff's line map, not the
// check's lines), and a pass given the same texts as the one before reuses that pass's baseline run instead of
// running oxlint on them again. oxlint runs through a planted bin that logs each run outside the project.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { CheckResponse } from "../../src/core/contracts.ts";
import type { PreviewResult } from "../../src/core/fix-contracts.ts";
import { call, connect, everyIssue, removeDir, REPO, structured, tempDir } from "../helpers.ts";
import { plantOxlint, writeFiles } from "../helpers/project.ts";
import { assertTreeUnchanged, snapshotTree } from "../helpers/tree.ts";

const REAL_OXLINT = join(REPO, "node_modules", "oxlint", "bin", "oxlint");

/** The runs logged so far on a fix's private copy (`-c` names a config in the cache directory's oxlint-fix/). */
function copyRuns(log: string): string[][] {
  const runs = existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : [];
  return runs.map((line) => JSON.parse(line) as string[]).filter((args) => args.some((arg) => arg.includes("oxlint-fix")));
}

/** What `oxlint --fix` then `oxlint --fix-suggestions` make of `file` in a copy of the project. */
function fixedOnCopy(project: string, file: string): string {
  const copy = tempDir("signalint-own-fix-");
  try {
    cpSync(project, copy, { recursive: true, verbatimSymlinks: true });
    for (const flag of ["--fix", "--fix-suggestions"]) {
      const result = spawnSync(process.execPath, [REAL_OXLINT, flag, file], { cwd: copy, encoding: "utf8" });
      assert.ok(result.status !== null && result.status <= 1, result.stderr);
    }
    return readFileSync(join(copy, file), "utf8");
  } finally {
    removeDir(copy);
  }
}

const CONFIG = { engines: { oxlint: true, tsc: false, eslint: false, biome: false } };

describe("oxlint's passes on a private copy", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  /** A project of one file under the planted oxlint, checked; preview its file with both kinds. */
  async function preview(
    files: Record<string, string>,
    run: (result: {
      project: string;
      log: string;
      preview: PreviewResult;
      issues: Awaited<ReturnType<typeof everyIssue>>;
      apply: () => Promise<{ rolledBack?: boolean }>;
    }) => Promise<void>,
  ): Promise<void> {
    const project = tempDir("signalint-oxpass-");
    const log = join(tempDir("signalint-oxpass-log-"), "oxlint.log");
    dirs.push(project, join(log, ".."));
    writeFiles(project, {
      "package.json": JSON.stringify({ name: "oxpass", private: true, type: "module" }),
      "signalint.config.json": JSON.stringify(CONFIG),
      ...files,
    });
    plantOxlint(project, log);
    const session = await connect(project);
    try {
      const check = structured<CheckResponse>(await call(session.client, "check_project"));
      const issues = await everyIssue(session, check);
      const tree = snapshotTree(project);
      const result = structured<PreviewResult>(await call(session.client, "preview_diagnostic_fix", { files: ["src/app.js"], kinds: ["safe", "suggestion"] }));
      assertTreeUnchanged(project, tree);
      const apply = async () =>
        structured<{ rolledBack?: boolean }>(await call(session.client, "apply_diagnostic_fix", { transactionId: result.transactionId, confirm: true }));
      await run({ project, log, preview: result, issues, apply });
    } finally {
      await session.close();
    }
  }

  it("a safe fix that removes lines above: the suggestion pass credits the empty block it removed, not the one it left", async () => {
    const files = {
      ".oxlintrc.json": JSON.stringify({
        plugins: ["unicorn"],
        rules: { "unicorn/empty-brace-spaces": "error", "no-empty": "error", "no-unused-vars": "off" },
      }),
      // empty-brace-spaces' safe fix makes lines 1-3 one; no-empty's suggestion removes `if (a) {}`, not the empty catch.
      "src/app.js": "export function noop() {\n\n}\nexport function guard(a) {\n  try {\n    noop();\n  } catch (error) {}\n  if (a) {}\n  return a;\n}\n",
    };
    await preview(files, async ({ project, log, preview, issues, apply }) => {
      const id = (rule: string, line: number) => {
        const found = issues.find((issue) => issue.rule.includes(rule) && issue.line === line);
        assert.ok(found, `${rule} at line ${line}: ${JSON.stringify(issues)}`);
        return found.issueId;
      };
      assert.deepEqual(preview.files[0]?.fixes, [
        { engine: "oxlint", kind: "safe", issueIds: [id("empty-brace-spaces", 1)] },
        { engine: "oxlint", kind: "suggestion", issueIds: [id("no-empty", 8)] },
      ]);
      assert.ok(!JSON.stringify(preview.files).includes(id("no-empty", 7)), "the empty catch, left, is credited to no edit");
      // The safe pass changed the text: the suggestion pass needs a baseline of its own (oxlint --fix reports what it
      // left at the places of the text it was given, and lints nothing again).
      assert.equal(copyRuns(log).length, 4, JSON.stringify(copyRuns(log)));
      const expected = fixedOnCopy(project, "src/app.js");
      const applied = await apply();
      assert.equal(applied.rolledBack, undefined, "every credited issue is gone: verify keeps the fix");
      assert.equal(readFileSync(join(project, "src/app.js"), "utf8"), expected);
    });
  });

  it("a safe pass that changes nothing: the suggestion pass reuses its baseline (3 oxlint runs, not 4)", async () => {
    const files = {
      ".oxlintrc.json": JSON.stringify({ rules: { "no-empty": "error", "no-unused-vars": "off" } }),
      "src/app.js": "export function guard(a) {\n  if (a) {}\n  return a;\n}\n",
    };
    await preview(files, async ({ log, preview, issues }) => {
      const runs = copyRuns(log);
      assert.deepEqual(
        runs.map((args) => args.find((arg) => arg.startsWith("--fix")) ?? "baseline"),
        ["baseline", "--fix", "--fix-suggestions"],
      );
      assert.deepEqual(preview.files[0]?.fixes, [{ engine: "oxlint", kind: "suggestion", issueIds: issues.map((issue) => issue.issueId) }]);
    });
  });
});
