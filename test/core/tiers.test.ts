// The test tiers (build/test-tiers.mjs, run by build/run-tests.mjs) leave no test out of CI: every test file is in
// `npm test` (main) or in test:dist (which runs the slow suites and the random tests' long runs), test:quick is a part
// of `npm test`, and .ci/run runs each tier, ending with the README's `npm test`.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { it } from "node:test";
import { SLOW, TIERS } from "../../build/test-tiers.mjs";
import { REPO } from "../helpers.ts";

const scripts = (JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
const files = readdirSync(join(REPO, "test"), { recursive: true })
  .map((file) => String(file).split("\\").join("/"))
  .filter((file) => file.endsWith(".test.ts"))
  .map((file) => file.replace(/\.ts$/, ".mjs"));

it("every test file runs in npm test or test:dist, once; test:quick runs a part of npm test's; test:explore's are test:dist's", () => {
  assert.ok(files.length > 40, `${files.length} test files`);
  const main = TIERS.main(files);
  const dist = TIERS.dist(files);
  for (const file of files) assert.equal(Number(main.includes(file)) + Number(dist.includes(file)), 1, file);
  for (const slow of SLOW) assert.ok(files.includes(slow) && !slow.startsWith("dist/"), `a slow suite that does not exist or is test:dist's anyway: ${slow}`);
  assert.equal(new Set(SLOW).size, SLOW.length, "each slow suite listed once");
  const quick = TIERS.quick(files);
  assert.ok(quick.length > 0);
  for (const file of quick) assert.ok(main.includes(file), `test:quick: ${file}`);
  const explore = (scripts["test:explore"] ?? "").split(" ").filter((word) => word.startsWith("dist/test/"));
  assert.ok(explore.length > 0);
  for (const path of explore) assert.ok(dist.includes(path.slice("dist/test/".length)), `test:explore: ${path}`);
  assert.equal(scripts.test, "node build/run-tests.mjs main");
  assert.match(scripts["test:quick"] ?? "", /node build\/run-tests\.mjs quick$/);
  assert.match(scripts["test:dist"] ?? "", /node build\/run-tests\.mjs dist$/);
  assert.doesNotMatch(scripts.pretest ?? "", /build-binaries|fetch-deno/, "npm test needs neither the binary nor Deno");
});

it(".ci/run runs test:quick, test:dist and, last, npm test", () => {
  const run = readFileSync(join(REPO, ".ci", "run"), "utf8")
    .split("\n")
    .filter((line) => /^npm (test|run test)/.test(line));
  assert.deepEqual(run, ["npm run test:quick", "npm run test:dist", "npm test"]);
});
