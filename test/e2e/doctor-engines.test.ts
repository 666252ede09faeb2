import assert from "node:assert/strict";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { CLEAN_PATH, linkBin, linkPackage, removeDir, REPO, runCli, tempDir } from "../helpers.ts";
import { projectFrom } from "../helpers/project.ts";

/** Issue 33, item 6: doctor exits 1 when an engine the project uses cannot run, and says why. */

describe("doctor: engines the project uses that cannot run (issue 33, item 6)", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));
  const env = () => {
    const cache = tempDir("signalint-cache-");
    dirs.push(cache);
    return { SIGNALINT_CACHE_DIR: cache, PATH: CLEAN_PATH };
  };

  it("Yarn Plug'n'Play: tsc and eslint are used and unreachable: exit 1, each named with what to change", () => {
    const dir = projectFrom(
      {
        "package.json": JSON.stringify({
          name: "pnp-app",
          private: true,
          packageManager: "yarn@4.9.2",
          devDependencies: { typescript: "5.9.3", eslint: "9.39.1" },
        }),
        ".pnp.cjs": "// Yarn's runtime: the packages are in .yarn/cache zip archives\n",
        "eslint.config.js": "export default [];\n",
        "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, noEmit: true } }),
        "src/a.ts": "export const a = 1;\n",
      },
      "signalint-doctor-pnp-",
    );
    dirs.push(dir);
    const result = runCli(["doctor"], { cwd: dir, env: env() });
    assert.equal(result.status, 1, result.stdout);
    assert.match(result.stdout, /^cannot run \(checks are incomplete until fixed\):$/m);
    assert.match(
      result.stdout,
      /^ {2}tsc: the project uses it \(the project has tsconfig programs\) but tsc not found in a node_modules: the project installs with Yarn Plug'n'Play/m,
    );
    assert.match(result.stdout, /^ {2}eslint: the project uses it \(package\.json depends on eslint\) but eslint not found in a node_modules/m);
    const json = JSON.parse(runCli(["doctor", "--json"], { cwd: dir, env: env() }).stdout) as { problems: string[] };
    assert.equal(json.problems.length, 2);
  });

  it("a script runs svelte-check that is not installed: exit 1 naming it; installed, exit 0", () => {
    const dir = projectFrom(
      {
        "package.json": JSON.stringify({ name: "svelte-app", private: true, scripts: { check: "svelte-check --tsconfig ./tsconfig.json" } }),
        "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, noEmit: true } }),
        "src/a.ts": "export const a = 1;\n",
      },
      "signalint-doctor-svelte-",
    );
    dirs.push(dir);
    linkBin(dir, "tsc", join(REPO, "node_modules", "typescript", "bin", "tsc"));
    const missing = runCli(["doctor"], { cwd: dir, env: env() });
    assert.equal(missing.status, 1, missing.stdout);
    assert.match(
      missing.stdout,
      /^ {2}svelte-check: the project's scripts run it on tsconfig\.json \(root tsconfig\.json; script "check"\), but it is not found: install it with `npm i -D svelte-check`$/m,
    );
    linkPackage(dir, "svelte-check", join(REPO, "node_modules", "svelte-check"));
    const installed = runCli(["doctor"], { cwd: dir, env: env() });
    assert.equal(installed.status, 0, installed.stdout);
    assert.doesNotMatch(installed.stdout, /cannot run/);
  });
});
