import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { CheckResponse } from "../../src/core/contracts.ts";
import type { PreviewResult } from "../../src/core/fix-contracts.ts";
import { call, connect, errorOf, everyIssue, linkPackage, removeDir, REPO, structured, tempDir } from "../helpers.ts";
import { writeFiles } from "../helpers/project.ts";
import { assertTreeUnchanged, snapshotTree } from "../helpers/tree.ts";

const OXLINT = join(REPO, "node_modules", "oxlint", "bin", "oxlint");

/** Every file under src/ of a project: path → text. */
function sources(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(join(root, "src")).sort()) out[`src/${name}`] = readFileSync(join(root, "src", name), "utf8");
  return out;
}

/** The project's sources after its own engine command ran on a copy of it (node `entry` args, in the copy). */
function fixedOnCopy(project: string, entry: string, args: string[], env: Record<string, string> = {}): Record<string, string> {
  const copy = tempDir("signalint-own-fix-");
  try {
    cpSync(project, copy, { recursive: true, verbatimSymlinks: true });
    const result = spawnSync(process.execPath, [entry, ...args], { cwd: copy, encoding: "utf8", env: { ...process.env, NO_COLOR: "1", ...env } });
    assert.ok(result.status !== null && result.status <= 1, result.stderr);
    return sources(copy);
  } finally {
    removeDir(copy);
  }
}

/** Preview the fixes of the whole files under src/ and apply them unverified; the sources after. */
async function previewFiles(project: string, kinds: string[]): Promise<{ preview: PreviewResult; texts: Record<string, string> }> {
  const session = await connect(project);
  try {
    structured<CheckResponse>(await call(session.client, "check_project"));
    const tree = snapshotTree(project);
    const preview = structured<PreviewResult>(await call(session.client, "preview_diagnostic_fix", { files: Object.keys(sources(project)), kinds }));
    assertTreeUnchanged(project, tree);
    await call(session.client, "apply_diagnostic_fix", { transactionId: preview.transactionId, confirm: true, verify: false });
    return { preview, texts: sources(project) };
  } finally {
    await session.close();
  }
}

const OXLINT_PROJECT = {
  "package.json": JSON.stringify({ name: "oxfix", private: true, type: "module" }),
  "signalint.config.json": JSON.stringify({ engines: { oxlint: true, tsc: false, eslint: false, biome: false } }),
  ".oxlintrc.json": JSON.stringify({ rules: { "no-var": "error", "no-debugger": "error", eqeqeq: "error", "prefer-const": "error" } }),
  "src/app.js":
    "var counter = 0;\nexport function same(a, b) {\n  debugger;\n  return a == b;\n}\nexport function bump() {\n  let next = counter + 1;\n  return next;\n}\n",
  // One issue (no-var); its fix leaves \`let\`, which prefer-const accepts (item is reassigned).
  "src/util.js": "export function pick(list, index) {\n  var item = list[index];\n  item ??= null;\n  return item;\n}\n",
};

describe("oxlint's fixes: oxlint --fix on private copies, never on the user's files", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  for (const [kinds, flag] of [
    [["safe"], "--fix"],
    [["suggestion"], "--fix-suggestions"],
  ] as const) {
    it(`kinds ${kinds.join(",")}: the previewed files are what oxlint ${flag} makes of a copy of the project`, async () => {
      const project = tempDir("signalint-oxfix-");
      dirs.push(project);
      writeFiles(project, OXLINT_PROJECT);
      linkPackage(project, "oxlint", join(REPO, "node_modules", "oxlint"));
      const expected = fixedOnCopy(project, OXLINT, [flag, "src"]);
      assert.notDeepEqual(expected, sources(project), `oxlint ${flag} changes something here`);
      const { preview, texts } = await previewFiles(project, [...kinds]);
      assert.deepEqual(texts, expected);
      assert.ok(preview.files.every((file) => file.fixes?.every((fix) => fix.engine === "oxlint" && fix.kind === kinds[0])));
    });
  }

  it("oxlint's issues are unmarked (its JSON says nothing of fixes); by issue, a file whose fix changes more than asked is left and said", async () => {
    const project = tempDir("signalint-oxfix-");
    dirs.push(project);
    writeFiles(project, OXLINT_PROJECT);
    linkPackage(project, "oxlint", join(REPO, "node_modules", "oxlint"));
    const session = await connect(project);
    try {
      const check = structured<CheckResponse>(await call(session.client, "check_project"));
      const issues = await everyIssue(session, check);
      assert.ok(issues.length > 0 && issues.every((issue) => issue.engine === "oxlint" && !issue.fixable), JSON.stringify(issues));
      // util.js holds one issue: asked alone, its file is oxlint's whole fix.
      const lone = issues.filter((issue) => issue.file === "src/util.js");
      assert.equal(lone.length, 1, JSON.stringify(lone));
      const preview = structured<PreviewResult>(await call(session.client, "preview_diagnostic_fix", { issueIds: lone.map((issue) => issue.issueId) }));
      assert.deepEqual(
        preview.files.map((file) => file.file),
        ["src/util.js"],
      );
      assert.deepEqual(preview.files[0]?.fixes, [{ engine: "oxlint", kind: "safe", issueIds: lone.map((issue) => issue.issueId) }]);
      const applied = structured<{ rolledBack?: boolean }>(
        await call(session.client, "apply_diagnostic_fix", { transactionId: preview.transactionId, confirm: true }),
      );
      assert.equal(applied.rolledBack, undefined);
      // app.js's var alone: oxlint's --fix of app.js would also fix what was not asked.
      const one = issues.find((issue) => issue.file === "src/app.js" && issue.rule.includes("no-var"));
      assert.ok(one, JSON.stringify(issues));
      const refused = errorOf(await call(session.client, "preview_diagnostic_fix", { issueIds: [one.issueId], checkId: check.checkId }));
      assert.equal(refused.code, "nothing_to_fix");
      assert.match(refused.message, /oxlint fixes a whole file: its fix of src\/app\.js would also change \d+ issue\(s\) not asked/);
    } finally {
      await session.close();
    }
  });
});

describe("legacy .eslintrc (ESLint 8): fixes through the project's ESLint", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  it("the previewed files are what eslint --fix (ESLint 8, .eslintrc.json) makes of a copy", async () => {
    const project = tempDir("signalint-eslintrc-fix-");
    dirs.push(project);
    writeFiles(project, {
      "package.json": JSON.stringify({ name: "legacy", private: true }),
      "signalint.config.json": JSON.stringify({ engines: { oxlint: false, tsc: false, eslint: true, biome: false } }),
      ".eslintrc.json": JSON.stringify({
        root: true,
        parserOptions: { ecmaVersion: 2022, sourceType: "module" },
        rules: { "no-var": "error", "prefer-const": "error", eqeqeq: "error", curly: "error" },
      }),
      "src/app.js": OXLINT_PROJECT["src/app.js"].replace("debugger;", "if (a) return true;"),
      "src/util.js": OXLINT_PROJECT["src/util.js"],
    });
    linkPackage(project, "eslint", join(REPO, "node_modules", "eslint8"));
    const expected = fixedOnCopy(project, join(REPO, "node_modules", "eslint8", "bin", "eslint.js"), ["--fix", "src"], { ESLINT_USE_FLAT_CONFIG: "false" });
    assert.notDeepEqual(expected, sources(project), "eslint --fix changes something here");
    const { texts } = await previewFiles(project, ["safe"]);
    assert.deepEqual(texts, expected);
  });
});
