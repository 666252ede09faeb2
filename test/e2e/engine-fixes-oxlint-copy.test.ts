// oxlint's fixes run on a private copy holding only the asked files: what the copy cannot show (a rule reading other
// files) is never credited to a fix, and the config's path-scoped parts (overrides, ignorePatterns) apply on the copy
// as they do in the project (issue 35, F3 and F4).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { CheckResponse } from "../../src/core/contracts.ts";
import type { PreviewResult } from "../../src/core/fix-contracts.ts";
import { call, connect, errorOf, everyIssue, linkPackage, removeDir, REPO, structured, tempDir } from "../helpers.ts";
import { writeFiles } from "../helpers/project.ts";
import { assertTreeUnchanged, snapshotTree } from "../helpers/tree.ts";

const OXLINT = join(REPO, "node_modules", "oxlint", "bin", "oxlint");
const ENGINES = JSON.stringify({ engines: { oxlint: true, tsc: false, eslint: false, biome: false } });

/** A project with oxlint linked in, from these files. */
function oxlintProject(files: Record<string, string>, dirs: string[]): string {
  const project = tempDir("signalint-oxcopy-");
  dirs.push(project);
  writeFiles(project, { "package.json": JSON.stringify({ name: "oxcopy", private: true, type: "module" }), "signalint.config.json": ENGINES, ...files });
  linkPackage(project, "oxlint", join(REPO, "node_modules", "oxlint"));
  return project;
}

/** These files' texts after `oxlint --fix <files>` on a full copy of the project (from its root, as the check runs). */
function fixedOnFullCopy(project: string, files: readonly string[]): Record<string, string> {
  const copy = tempDir("signalint-own-fix-");
  try {
    cpSync(project, copy, { recursive: true, verbatimSymlinks: true });
    const result = spawnSync(process.execPath, [OXLINT, "--fix", ...files], { cwd: copy, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
    assert.ok(result.status !== null && result.status <= 1, result.stderr);
    return Object.fromEntries(files.map((file) => [file, readFileSync(join(copy, file), "utf8")]));
  } finally {
    removeDir(copy);
  }
}

// a.js and b.js import each other: import/no-cycle is reported in both only while both are linted together.
const CYCLE = {
  ".oxlintrc.json": JSON.stringify({ plugins: ["import"], rules: { "no-var": "error", "import/no-cycle": "error" } }),
  "src/a.js": 'import { b } from "./b.js";\nvar a = b + 1;\nexport { a };\n',
  "src/b.js": 'import { a } from "./a.js";\nexport const b = 1;\nexport function f() {\n  return a;\n}\n',
};

describe("oxlint's fixes credit only what oxlint reported on the copy before its fix and not after", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  it("a files request: import/no-cycle (it needs the other file) is not credited to the fix of no-var; apply with verify keeps it", async () => {
    const project = oxlintProject(CYCLE, dirs);
    const session = await connect(project);
    try {
      const check = structured<CheckResponse>(await call(session.client, "check_project"));
      const issues = await everyIssue(session, check);
      const cycle = issues.find((issue) => issue.file === "src/a.js" && issue.rule.includes("no-cycle"));
      const noVar = issues.find((issue) => issue.file === "src/a.js" && issue.rule.includes("no-var"));
      assert.ok(cycle && noVar, JSON.stringify(issues));
      const preview = structured<PreviewResult>(await call(session.client, "preview_diagnostic_fix", { files: ["src/a.js"] }));
      assert.deepEqual(
        preview.files.map((file) => [file.file, file.fixes]),
        [["src/a.js", [{ engine: "oxlint", kind: "safe", issueIds: [noVar.issueId] }]]],
      );
      // verify expects every credited issue gone: crediting the cycle rolled the fix back.
      const applied = structured<{ rolledBack?: boolean }>(
        await call(session.client, "apply_diagnostic_fix", { transactionId: preview.transactionId, confirm: true }),
      );
      assert.equal(applied.rolledBack, undefined, JSON.stringify(applied));
      assert.match(readFileSync(join(project, "src/a.js"), "utf8"), /const a = b \+ 1;/);
    } finally {
      await session.close();
    }
  });

  it("by issue: no-var alone is fixed (the cycle is not an issue its fix would change); the cycle asked says why it is not", async () => {
    const project = oxlintProject(CYCLE, dirs);
    const session = await connect(project);
    try {
      const check = structured<CheckResponse>(await call(session.client, "check_project"));
      const issues = await everyIssue(session, check);
      const cycle = issues.find((issue) => issue.file === "src/a.js" && issue.rule.includes("no-cycle"));
      const noVar = issues.find((issue) => issue.file === "src/a.js" && issue.rule.includes("no-var"));
      assert.ok(cycle && noVar, JSON.stringify(issues));
      const preview = structured<PreviewResult>(
        await call(session.client, "preview_diagnostic_fix", { issueIds: [noVar.issueId, cycle.issueId], checkId: check.checkId }),
      );
      assert.deepEqual(preview.files[0]?.fixes, [{ engine: "oxlint", kind: "safe", issueIds: [noVar.issueId] }]);
      const left = preview.notFixed?.find((entry) => entry.issue === cycle.issueId);
      assert.match(left?.reason ?? "", /does not report it on a private copy of the asked files/, JSON.stringify(preview.notFixed));
      const alone = errorOf(await call(session.client, "preview_diagnostic_fix", { issueIds: [cycle.issueId], checkId: check.checkId }));
      assert.equal(alone.code, "nothing_to_fix");
    } finally {
      await session.close();
    }
  });
});

describe("oxlint's fixes on a copy follow the config's overrides and ignorePatterns as in the project", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  it("no-var off under legacy/ and src/gen.js ignored (root config), prefer-const off in pkg/old (nested config): equal to oxlint --fix on a full copy", async () => {
    const source = "var a = 1;\nexport { a };\nexport function g() {\n  let b = 2;\n  return b;\n}\n";
    const project = oxlintProject(
      {
        ".oxlintrc.json": JSON.stringify({
          rules: { "no-var": "error", "prefer-const": "error" },
          overrides: [{ files: ["legacy/**"], rules: { "no-var": "off" } }],
          ignorePatterns: ["src/gen.js"],
        }),
        "pkg/.oxlintrc.json": JSON.stringify({
          rules: { "no-var": "error", "prefer-const": "error" },
          overrides: [{ files: ["old/**"], rules: { "prefer-const": "off" } }],
        }),
        "legacy/a.js": source,
        "src/b.js": source,
        "src/gen.js": source,
        "pkg/old/c.js": source,
        "pkg/new/d.js": source,
      },
      dirs,
    );
    const files = ["legacy/a.js", "pkg/new/d.js", "pkg/old/c.js", "src/b.js", "src/gen.js"];
    const expected = fixedOnFullCopy(project, files);
    // What the project's own oxlint does: each scope kept its rule off, the ignored file untouched.
    assert.match(expected["legacy/a.js"] ?? "", /^var a/);
    assert.equal(expected["src/gen.js"], source);
    assert.match(expected["pkg/old/c.js"] ?? "", /let b/);
    assert.match(expected["src/b.js"] ?? "", /^const a[^]*const b/);
    const session = await connect(project);
    try {
      structured<CheckResponse>(await call(session.client, "check_project"));
      const tree = snapshotTree(project);
      const preview = structured<PreviewResult>(await call(session.client, "preview_diagnostic_fix", { files }));
      assertTreeUnchanged(project, tree);
      await call(session.client, "apply_diagnostic_fix", { transactionId: preview.transactionId, confirm: true, verify: false });
      assert.deepEqual(Object.fromEntries(files.map((file) => [file, readFileSync(join(project, file), "utf8")])), expected);
    } finally {
      await session.close();
    }
  });

  it("a config above the project root (a repository's, the root a package): its overrides apply on the copy as oxlint applies them from the root", async () => {
    const top = tempDir("signalint-oxcopy-top-");
    dirs.push(top);
    const source = "var a = 1;\nexport { a };\n";
    writeFiles(top, {
      ".oxlintrc.json": JSON.stringify({ rules: { "no-var": "error" }, overrides: [{ files: ["app/legacy/**"], rules: { "no-var": "off" } }] }),
      "app/package.json": JSON.stringify({ name: "app", private: true, type: "module" }),
      "app/signalint.config.json": ENGINES,
      "app/legacy/a.js": source,
      "app/src/b.js": source,
    });
    const project = join(top, "app");
    linkPackage(project, "oxlint", join(REPO, "node_modules", "oxlint"));
    const files = ["legacy/a.js", "src/b.js"];
    const copy = tempDir("signalint-own-fix-");
    dirs.push(copy);
    cpSync(top, copy, { recursive: true, verbatimSymlinks: true });
    const own = spawnSync(process.execPath, [OXLINT, "--fix", ...files], { cwd: join(copy, "app"), encoding: "utf8" });
    assert.ok(own.status !== null && own.status <= 1, own.stderr);
    const expected = Object.fromEntries(files.map((file) => [file, readFileSync(join(copy, "app", file), "utf8")]));
    assert.deepEqual(expected, { "legacy/a.js": source, "src/b.js": source.replace("var", "const") });
    const session = await connect(project);
    try {
      structured<CheckResponse>(await call(session.client, "check_project"));
      const preview = structured<PreviewResult>(await call(session.client, "preview_diagnostic_fix", { files }));
      await call(session.client, "apply_diagnostic_fix", { transactionId: preview.transactionId, confirm: true, verify: false });
      assert.deepEqual(Object.fromEntries(files.map((file) => [file, readFileSync(join(project, file), "utf8")])), expected);
    } finally {
      await session.close();
    }
  });
});
