// The scratch projects of the coverage tests, and the coverage test that runs on each runtime (Node in
// test/e2e/coverage.test.ts, Deno in test/dist/coverage-deno.test.ts).
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { it } from "node:test";
import type { CheckResponse } from "../../src/core/contracts.ts";
import { call, connect, defaultStateDir, linkBin, REPO, structured, tempDir } from "../helpers.ts";
import { projectFrom } from "../helpers/project.ts";

/** A module with one type error (TS2322). */
export const TYPE_ERROR = 'const n: number = "oops";\nexport {};\n';

/** A scratch project (package.json only) with the given files and engine links; generated files go to `cache`. */
export function coverageProject(files: Record<string, string>, engines: string[] = []): { dir: string; cache: string } {
  const dir = projectFrom({ "package.json": '{ "name": "scratch", "private": true, "type": "module" }\n', ...files }, "signalint-coverage-");
  const entries: Record<string, string> = { tsc: "typescript/bin/tsc", oxlint: "oxlint/bin/oxlint", eslint: "eslint/bin/eslint.js" };
  for (const engine of engines) linkBin(dir, engine, join(REPO, "node_modules", entries[engine] as string));
  return { dir, cache: tempDir("signalint-cache-") };
}

/** The server started in a subdirectory of a project with no tsconfig: the root is found, the file type-checked. */
export function subdirectoryServerTest(runtime: "node" | "deno", dirs: string[]): void {
  it(`the server started in a subdirectory (${runtime}) uses the root and type-checks uncovered files`, async () => {
    const { dir, cache } = coverageProject({ "src/a.ts": TYPE_ERROR }, ["tsc"]);
    dirs.push(dir, cache);
    // A blank SIGNALINT_STATE_DIR means the default (helpers' connect would otherwise pick a temporary one).
    const session = await connect(join(dir, "src"), { SIGNALINT_STATE_DIR: " ", SIGNALINT_CACHE_DIR: cache }, runtime);
    try {
      const response = structured<CheckResponse>(await call(session.client, "check_project"));
      assert.equal(response.projectRoot, dir);
      assert.equal(response.status, "issues_found");
      assert.deepEqual(
        (response.remainingIssues ?? []).map((issue) => `${issue.file} ${issue.rule}`),
        ["src/a.ts TS2322"],
      );
      assert.match(response.engines.tsc.message ?? "", /inferred program/);
    } finally {
      await session.close();
    }
    assert.ok(!existsSync(join(dir, "src", ".signalint")) && !existsSync(join(dir, ".signalint")), "no state directory in the tree");
    assert.ok(existsSync(defaultStateDir(dir)), "the root's state directory, in the per-user state home");
  });
}
