// oxlint before 1.60 refuses `--no-error-on-unmatched-pattern` ("is not expected in this context": the switch came with
// 1.60's error on a path that matches nothing), so a project on oxlint 1.32 (t3-oss/t3-env) got oxlint as a failed
// engine on every check. The argv follows the version that runs: 1.59 (installed here as the `oxlint159` alias) and the
// current devDependency both answer exactly what they print run by hand, the whole project and one file.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { CheckResponse, NormalizedIssue } from "../../src/core/contracts.ts";
import { call, connect, eachReport, enginesOf, everyIssue, linkPackage, removeDir, REPO, scratchCopy, structured } from "../helpers.ts";
import { rawOxlint } from "../raw-engines.ts";

const VERSIONS = [
  { label: "current", dir: join(REPO, "node_modules", "oxlint") },
  { label: "1.59", dir: join(REPO, "node_modules", "oxlint159") },
];

const key = (issue: { file: string; line: number; rule: string }) => `${issue.file}:${issue.line} ${issue.rule}`;

describe("oxlint's argv follows its version", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  for (const { label, dir } of VERSIONS) {
    it(`oxlint ${label}: check_project and check_files answer what oxlint prints`, async () => {
      const version = (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version: string }).version;
      const project = scratchCopy("mixed-app", `oxlint-${label}`);
      dirs.push(project);
      linkPackage(project, "oxlint", dir);
      const raw = rawOxlint(project, { bin: join(dir, "bin", "oxlint") });
      assert.ok(raw.length > 0, `oxlint ${version} reports findings on the fixture`);
      const session = await connect(project);
      try {
        const whole = structured<CheckResponse>(await call(session.client, "check_project"));
        assert.deepEqual((await enginesOf(session, whole.checkId)).oxlint, { status: "ok", version });
        // An oxlint report merged into tsc's issue for the same place is one of oxlint's too.
        const oxlintKeys = (issues: NormalizedIssue[]) =>
          eachReport(issues)
            .filter((issue) => issue.engine === "oxlint")
            .map(key)
            .sort();
        assert.deepEqual(oxlintKeys(await everyIssue(session, whole)), raw.map(key).sort());
        const file = raw[0]?.file as string;
        const one = structured<CheckResponse>(await call(session.client, "check_files", { files: [file] }));
        assert.deepEqual((await enginesOf(session, one.checkId)).oxlint, { status: "ok", version });
        assert.deepEqual(
          oxlintKeys(await everyIssue(session, one)),
          raw
            .filter((issue) => issue.file === file)
            .map(key)
            .sort(),
        );
      } finally {
        await session.close();
      }
    });
  }
});
