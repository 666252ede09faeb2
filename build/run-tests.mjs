// `node build/run-tests.mjs quick|main|dist`: node:test (concurrency 2, its TAP output, its exit code) over the tier's
// compiled files in dist/test (build/build-tests.mjs writes them). The tiers are in build/test-tiers.mjs.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { TIERS } from "./test-tiers.mjs";

const ROOT = join("dist", "test");
const tier = process.argv[2];
if (!Object.hasOwn(TIERS, tier ?? "")) {
  console.error(`usage: node build/run-tests.mjs ${Object.keys(TIERS).join("|")}`);
  process.exit(2);
}
const compiled = readdirSync(ROOT, { recursive: true })
  .map((name) => String(name).split("\\").join("/"))
  .filter((name) => name.endsWith(".test.mjs"))
  .sort();
const files = TIERS[tier](compiled);
if (!files.length) {
  console.error("run-tests: no compiled tests (run node build/build-tests.mjs)");
  process.exit(2);
}
const env = tier === "dist" ? { ...process.env, SIGNALINT_LONG_RUNS: "1" } : process.env;
const run = spawnSync(process.execPath, ["--test", "--test-concurrency=2", ...files.map((file) => join(ROOT, file))], { stdio: "inherit", env });
process.exit(run.status ?? 1);
