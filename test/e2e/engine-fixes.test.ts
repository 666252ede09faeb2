import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { CheckResponse } from "../../src/core/contracts.ts";
import type { PreviewResult } from "../../src/core/fix-contracts.ts";
import { call, connect, errorOf, everyIssue, linkPackage, removeDir, REPO, scratchCopy, structured, tempDir } from "../helpers.ts";
import { writeFiles } from "../helpers/project.ts";
import { assertTreeUnchanged, snapshotTree } from "../helpers/tree.ts";

/** Every source file of a project (node_modules aside): path → text. */
function sources(root: string, dir = "src"): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(join(root, dir), { recursive: true }).map(String).sort()) {
    const path = join(dir, name);
    try {
      out[path] = readFileSync(join(root, path), "utf8");
    } catch {
      // A directory: its files are listed too.
    }
  }
  return out;
}

/** A copy of a project with the engine's own fixer run on it (`args` after the engine's entry), and its sources after. */
function fixedByEngine(project: string, entry: string, args: string[]): Record<string, string> {
  const copy = tempDir("signalint-own-fix-");
  cpSync(project, copy, { recursive: true, verbatimSymlinks: true });
  const result = spawnSync(process.execPath, [entry, ...args], { cwd: copy, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
  assert.ok(result.status !== null && result.status <= 1, result.stderr);
  const fixed = sources(copy);
  removeDir(copy);
  return fixed;
}

/** The project's sources with a preview's patches applied: its diffs' post-images as the files' full texts. */
async function previewed(project: string, args: Record<string, unknown>): Promise<{ preview: PreviewResult; texts: Record<string, string> }> {
  const session = await connect(project);
  try {
    structured<CheckResponse>(await call(session.client, "check_project"));
    const preview = structured<PreviewResult>(await call(session.client, "preview_diagnostic_fix", args));
    const apply = structured<{ files: string[] }>(
      await call(session.client, "apply_diagnostic_fix", { transactionId: preview.transactionId, confirm: true, verify: false }),
    );
    assert.deepEqual(
      apply.files,
      preview.files.map((file) => file.file),
    );
    return { preview, texts: sources(project) };
  } finally {
    await session.close();
  }
}

const ESLINT = join(REPO, "node_modules", "eslint", "bin", "eslint.js");
const BIOMES = [
  { label: "2.x", dir: join(REPO, "node_modules", "@biomejs", "biome") },
  { label: "1.x", dir: join(REPO, "node_modules", "biome1") },
];

describe("preview_diagnostic_fix from issues: the engines' own edits", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  it("ESLint: the previewed files are what eslint --fix makes of a copy; preview writes nothing in the tree", async () => {
    const project = scratchCopy("eslint-flat", "fix-eslint");
    dirs.push(project);
    // ESLint's fixes alone (oxlint's, which a files preview adds, are engine-fixes-oxlint.test.ts's).
    writeFileSync(join(project, "signalint.config.json"), JSON.stringify({ engines: { oxlint: false } }));
    const expected = fixedByEngine(project, ESLINT, ["--fix", "src"]);
    const session = await connect(project);
    try {
      structured<CheckResponse>(await call(session.client, "check_project"));
      const before = snapshotTree(project);
      const preview = structured<PreviewResult>(await call(session.client, "preview_diagnostic_fix", { files: ["src/app.js", "src/util.js"] }));
      assertTreeUnchanged(project, before);
      assert.equal(preview.verify, true);
      assert.ok(preview.files.every((file) => file.diff?.startsWith(`--- a/${file.file}\n+++ b/${file.file}\n@@ `)));
      assert.ok(preview.files.some((file) => file.fixes?.some((fix) => fix.engine === "eslint" && fix.kind === "safe" && fix.issueIds.length > 0)));
      const applied = structured<{ rolledBack?: boolean; delta: { resolved: { issueId: string }[] } }>(
        await call(session.client, "apply_diagnostic_fix", { transactionId: preview.transactionId, confirm: true }),
      );
      assert.equal(applied.rolledBack, undefined);
      const addressed = preview.files.flatMap((file) => file.fixes?.flatMap((fix) => fix.issueIds) ?? []);
      assert.deepEqual(
        addressed.filter((id) => !applied.delta.resolved.some((issue) => issue.issueId === id)),
        [],
        "every addressed issue is resolved",
      );
    } finally {
      await session.close();
    }
    assert.deepEqual(sources(project), expected);
  });

  it("ESLint by cluster: only that cluster's issues are fixed; suggestions are applied only when asked", async () => {
    const project = scratchCopy("eslint-flat", "fix-eslint-cluster");
    dirs.push(project);
    const session = await connect(project);
    try {
      const check = structured<CheckResponse>(await call(session.client, "check_project"));
      const cluster = check.clusters.find((entry) => entry.ruleIds.includes("no-var"));
      assert.ok(cluster, JSON.stringify(check.clusters));
      const preview = structured<PreviewResult>(await call(session.client, "preview_diagnostic_fix", { clusterId: cluster.clusterId }));
      const diff = preview.files.map((file) => file.diff).join("");
      assert.match(diff, /^-var /m);
      assert.doesNotMatch(diff, /^-\s+let next/m, "prefer-const is another cluster's (or none's): not fixed");
      const issues = await everyIssue(session, check);
      const eqeqeq = issues.find((issue) => issue.rule === "eqeqeq");
      assert.equal(eqeqeq?.fixKind, "suggestion");
      const safeOnly = errorOf(await call(session.client, "preview_diagnostic_fix", { issueIds: [eqeqeq.issueId] }));
      assert.equal(safeOnly.code, "nothing_to_fix");
      assert.match(safeOnly.message, /suggestion one, not among kinds safe/);
      const suggested = structured<PreviewResult>(await call(session.client, "preview_diagnostic_fix", { issueIds: [eqeqeq.issueId], kinds: ["suggestion"] }));
      assert.match(suggested.files[0]?.diff ?? "", /^\+ {2}return a === b;$/m);
      // oxlint's issues are asked of oxlint (engine-fixes-oxlint.test.ts): its edit, or why none, never another engine's.
      const oxlint = issues.find((issue) => issue.engine === "oxlint");
      if (oxlint) {
        const result = await call(session.client, "preview_diagnostic_fix", { issueIds: [oxlint.issueId] });
        if (result.isError) assert.match(errorOf(result).message, /oxlint/);
        else assert.ok(structured<PreviewResult>(result).files.every((file) => file.fixes?.every((fix) => fix.engine === "oxlint")));
      }
    } finally {
      await session.close();
    }
  });

  for (const { label, dir } of BIOMES) {
    for (const unsafe of [false, true]) {
      it(`Biome ${label}: the previewed files are what biome lint --write${unsafe ? " --unsafe" : ""} makes of a copy`, async () => {
        const project = scratchCopy("biome-app", `fix-biome-${label}-${unsafe}`);
        dirs.push(project);
        linkPackage(project, "@biomejs/biome", dir);
        writeFileSync(join(project, "src", "consts.ts"), "let answer = 42;\nexport const doubled = answer * 2;\n");
        // Biome's fixes alone (oxlint would remove the `debugger` too).
        writeFileSync(join(project, "signalint.config.json"), JSON.stringify({ engines: { oxlint: false } }));
        const expected = fixedByEngine(project, join(dir, "bin", "biome"), ["lint", "--write", ...(unsafe ? ["--unsafe"] : []), "src"]);
        const kinds = unsafe ? ["safe", "suggestion"] : ["safe"];
        const { texts } = await previewed(project, { files: Object.keys(expected), kinds });
        assert.deepEqual(texts, expected);
      });
    }
  }

  it("a fix that breaks the build is rolled back (verify): files restored, the new errors named", async () => {
    const project = tempDir("signalint-fix-breaks-");
    dirs.push(project);
    writeFiles(project, {
      "package.json": JSON.stringify({ name: "breaks", type: "module" }),
      "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, noEmit: true, module: "esnext", target: "es2022" }, include: ["src"] }),
      // A project rule whose fix renames `port` where it is declared, but not where it is used: the build breaks.
      "eslint.config.js": `const rename = { meta: { type: "suggestion", fixable: "code" }, create: (context) => ({
  VariableDeclarator(node) {
    if (node.id.name === "port") context.report({ node: node.id, message: "say portNumber", fix: (fixer) => fixer.replaceText(node.id, "portNumber") });
  },
}) };
export default [{ files: ["**/*.ts"], languageOptions: { parser: (await import("typescript-eslint")).parser }, plugins: { local: { rules: { rename } } }, rules: { "local/rename": "error" } }];
`,
      "src/server.ts": "export const port: number = 8080;\nexport const url = `http://localhost:${port}`;\n",
    });
    for (const pkg of ["eslint", "typescript", "typescript-eslint", "oxlint"]) linkPackage(project, pkg, join(REPO, "node_modules", pkg));
    const original = readFileSync(join(project, "src", "server.ts"), "utf8");
    const session = await connect(project);
    try {
      const check = structured<CheckResponse>(await call(session.client, "check_project"));
      const issues = await everyIssue(session, check);
      const rename = issues.find((issue) => issue.rule === "local/rename");
      assert.equal(rename?.fixKind, "safe", JSON.stringify(issues));
      const preview = structured<PreviewResult>(await call(session.client, "preview_diagnostic_fix", { issueIds: [rename.issueId] }));
      const applied = structured<{ rolledBack?: boolean; rollback?: { introduced: { rule: string }[]; reason: string }; check: { status: string } }>(
        await call(session.client, "apply_diagnostic_fix", { transactionId: preview.transactionId, confirm: true }),
      );
      assert.equal(applied.rolledBack, true);
      assert.ok(
        applied.rollback?.introduced.some((issue) => issue.rule === "TS2304"),
        JSON.stringify(applied.rollback),
      );
      assert.equal(readFileSync(join(project, "src", "server.ts"), "utf8"), original);
    } finally {
      await session.close();
    }
  });
});
