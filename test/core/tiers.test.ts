// The test tiers (package.json scripts) leave no test out of CI: every test file is in `npm test` or in test:dist
// (which also runs the random tests' long runs), test:quick is a part of `npm test`, and .ci/run runs each tier,
// ending with the README's `npm test`.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { it } from "node:test";
import { REPO } from "../helpers.ts";

const scripts = (JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;

/** The compiled test paths (files or folders) a script hands to `node --test`. */
function testPaths(script: string): string[] {
  const command = scripts[script] ?? "";
  return command
    .slice(command.lastIndexOf("node --test"))
    .split(" ")
    .filter((word) => word.startsWith("dist/test/"));
}

const covers = (paths: string[], file: string) => paths.filter((path) => (path.endsWith("/") ? file.startsWith(path) : file === path)).length;

it("every test file runs in npm test or test:dist (both: only the random tests test:explore runs); test:quick runs npm test's", () => {
  const files = readdirSync(join(REPO, "test"), { recursive: true })
    .map(String)
    .filter((file) => file.endsWith(".test.ts"))
    .map((file) => `dist/test/${file.replace(/\.ts$/, ".mjs")}`);
  assert.ok(files.length > 40, `${files.length} test files`);
  for (const file of files) {
    const both = covers(testPaths("test"), file) + covers(testPaths("test:dist"), file);
    assert.equal(both, testPaths("test:explore").includes(file) ? 2 : 1, file);
  }
  for (const tier of ["test:quick", "test:explore"]) {
    assert.ok(testPaths(tier).length > 0, tier);
    for (const path of testPaths(tier)) assert.equal(covers(testPaths("test"), path), 1, `${tier}: ${path}`);
  }
  assert.doesNotMatch(scripts.pretest ?? "", /build-binaries|fetch-deno/, "npm test needs neither the binary nor Deno");
});

it(".ci/run runs test:quick, test:dist and, last, npm test", () => {
  const run = readFileSync(join(REPO, ".ci", "run"), "utf8")
    .split("\n")
    .filter((line) => /^npm (test|run test)/.test(line));
  assert.deepEqual(run, ["npm run test:quick", "npm run test:dist", "npm test"]);
});
