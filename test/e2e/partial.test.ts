import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { CheckResponse } from "../../src/core/contracts.ts";
import { parseOxlintOutput } from "../../src/engines/oxlint.ts";
import { call, connect, eachReport, everyIssue, removeDir, scratchCopy, structured, type Connected } from "../helpers.ts";
import { rawBiome, rawOxlint } from "../raw-engines.ts";

const everyReport = async (session: Connected, response: CheckResponse) => eachReport(await everyIssue(session, response));

describe("an engine that could not check some files", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  it("keeps every finding on the other files, names the failed file, and is never cached as complete", async () => {
    const project = scratchCopy("biome-app", "partial");
    dirs.push(project);
    // A binary file with a source name: oxlint and Biome cannot decode it and say so, then lint every other file.
    writeFileSync(join(project, "src", "blob.ts"), Buffer.from([0, 1, 2, 0xff, 0xfe, 0x80, 10]));
    const expected = {
      oxlint: rawOxlint(project).filter((d) => typeof d.file === "string" && d.file !== "src/blob.ts").length,
      biome: rawBiome(project).filter((d) => d.file !== "src/blob.ts").length,
    };
    assert.ok(expected.oxlint > 0 && expected.biome > 0);
    const session = await connect(project);
    try {
      for (const round of ["first", "second (the cache must not turn it into a complete run)"]) {
        const response = structured<CheckResponse>(await call(session.client, "check_project"));
        const issues = await everyReport(session, response);
        assert.notEqual(response.status, "clean", round);
        for (const engine of ["oxlint", "biome"] as const) {
          assert.equal(response.engines[engine].status, "error", `${engine} ${round}`);
          assert.equal(response.engines[engine].code, "engine_partial", `${engine} ${round}`);
          assert.match(response.engines[engine].message ?? "", /could not check 1 file .*: src\/blob\.ts$/, `${engine} ${round}`);
          assert.equal(
            issues.filter((issue) => issue.engine === engine && issue.file !== "src/blob.ts").length,
            expected[engine],
            `${engine} keeps its findings (${round})`,
          );
        }
      }
      const files = structured<CheckResponse>(await call(session.client, "check_files", { files: ["src/blob.ts", "src/index.ts"] }));
      assert.equal(files.engines.oxlint.code, "engine_partial");
      assert.deepEqual(files.cache?.oxlint, { hits: 1, misses: 1 }, "the failed file has no cached result; the other one has");
    } finally {
      await session.close();
    }
  });

  it("reads oxlint's report of an unreadable file (recorded from oxlint run as a user without read permission)", () => {
    const stdout = JSON.stringify({
      diagnostics: [
        {
          message: "`debugger` statement is not allowed",
          code: "eslint(no-debugger)",
          severity: "warning",
          filename: "src/good.js",
          labels: [{ span: { offset: 11, length: 9, line: 1, column: 12 } }],
        },
        { message: 'Failed to open file /p/src/locked.js with error "Permission denied (os error 13)"', severity: "error", labels: [] },
      ],
      number_of_files: 2,
    });
    const outcome = parseOxlintOutput(
      { stdout, stderr: "", exitCode: 1, signal: null, timedOut: false, outputExceeded: false, spawnError: null, durationMs: 0 },
      (path) => (path.startsWith("/p/") ? path.slice(3) : path),
    );
    assert.ok(outcome.ok);
    assert.deepEqual(
      outcome.issues.map((issue) => issue.rule),
      ["eslint(no-debugger)"],
    );
    assert.deepEqual(outcome.failures, [{ file: "src/locked.js", reason: "Permission denied (os error 13)" }]);
  });
});
