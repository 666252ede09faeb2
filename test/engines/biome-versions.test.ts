import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { CheckResponse, NormalizedIssue } from "../../src/core/contracts.ts";
import { call, connect, enginesOf, everyIssue, linkPackage, removeDir, REPO, scratchCopy, structured } from "../helpers.ts";
import { messageMatches, rawBiome } from "../raw-engines.ts";

/** Biome 2 (the devDependency) and Biome 1.9 (installed here as the `biome1` alias). */
const VERSIONS = [
  { label: "2.x", dir: join(REPO, "node_modules", "@biomejs", "biome") },
  { label: "1.x", dir: join(REPO, "node_modules", "biome1") },
];

async function biomeIssues(project: string): Promise<{ response: CheckResponse; issues: NormalizedIssue[] }> {
  const session = await connect(project);
  try {
    const response = structured<CheckResponse>(await call(session.client, "check_project"));
    const issues = await everyIssue(session, response);
    // A report merged into another engine's issue keeps that issue's message: compare messages of Biome's own only.
    const reports = issues.flatMap((issue) => [issue, ...(issue.alsoReportedBy ?? []).map((other) => ({ ...issue, ...other, message: "(merged)" }))]);
    return { response: { ...response, engines: await enginesOf(session, response.checkId) }, issues: reports.filter((issue) => issue.engine === "biome") };
  } finally {
    await session.close();
  }
}

describe("Biome 1.x and 2.x reporters", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  for (const { label, dir } of VERSIONS) {
    it(`Biome ${label}: the server reports exactly what biome lint --reporter=json prints`, async () => {
      const version = (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version: string }).version;
      assert.equal(version[0], label[0]);
      const project = scratchCopy("biome-app", `biome-${label}`);
      dirs.push(project);
      linkPackage(project, "@biomejs/biome", dir);
      const { response, issues } = await biomeIssues(project);
      assert.deepEqual(response.engines.biome, { status: "ok", version });
      const raw = rawBiome(project, { bin: join(dir, "bin", "biome") });
      assert.ok(raw.length >= 3, `biome ${label} reports findings on the fixture`);
      const key = (file: string, line: number, rule: string) => `${file}:${line} ${rule}`;
      assert.deepEqual(issues.map((i) => key(i.file, i.line, i.rule)).sort(), raw.map((d) => key(d.file, d.line, d.rule)).sort());
      for (const issue of issues.filter((i) => i.message !== "(merged)")) {
        assert.ok(
          raw.some((d) => key(d.file, d.line, d.rule) === key(issue.file, issue.line, issue.rule) && messageMatches(issue.message, d.message)),
          issue.message,
        );
      }
    });

    it(`Biome ${label}: a file it cannot read is named (engine_partial) and the other findings are kept`, async () => {
      const project = scratchCopy("biome-app", `biome-${label}-partial`);
      dirs.push(project);
      linkPackage(project, "@biomejs/biome", dir);
      writeFileSync(join(project, "src", "blob.ts"), Buffer.from([0, 1, 2, 0xff, 0xfe, 0x80, 10]));
      const raw = rawBiome(project, { bin: join(dir, "bin", "biome") }).filter((d) => d.file !== "src/blob.ts");
      const { response, issues } = await biomeIssues(project);
      assert.equal(response.engines.biome.code, "engine_partial");
      assert.match(response.engines.biome.message ?? "", /could not check 1 file .*: src\/blob\.ts$/);
      assert.equal(issues.length, raw.length);
    });
  }
});
