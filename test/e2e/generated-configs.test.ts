import assert from "node:assert/strict";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { CheckResponse } from "../../src/core/contracts.ts";
import { linkBin, linkPackage, removeDir, REPO, runCli, tempDir } from "../helpers.ts";
import { projectFrom, writeFiles } from "../helpers/project.ts";
import { assertTreeUnchanged, snapshotTree } from "../helpers/tree.ts";

/** Issue 33, item 3: a program needing a framework's generated config that is missing is not the project's errors. */

/** What `svelte-kit sync` writes that the app's tsconfig extends (a small stand-in: the test never runs the generator). */
const SYNCED = {
  ".svelte-kit/tsconfig.json": JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, target: "es2022", module: "esnext", moduleResolution: "bundler", verbatimModuleSyntax: true },
    include: ["../src/**/*.ts", "../src/**/*.svelte"],
  }),
};

/** A freshly cloned SvelteKit-shaped app: its tsconfig extends .svelte-kit/tsconfig.json, a route imports ./$types. */
function freshClone(scripts: Record<string, string>, withSvelteCheck: boolean): { dir: string; env: Record<string, string> } {
  const dir = projectFrom(
    {
      "package.json": JSON.stringify({ name: "kit-app", private: true, type: "module", scripts }),
      "tsconfig.json": JSON.stringify({ extends: "./.svelte-kit/tsconfig.json", compilerOptions: { strict: true } }),
      "src/routes/+page.ts": 'import type { PageLoad } from "./$types";\nexport const load: PageLoad = async ({ fetch }) => ({ ok: (await fetch("/")).ok });\n',
      "src/lib/util.ts": "export const twice = (n: number): number => n * 2;\n",
      ...(withSvelteCheck ? { "src/routes/+page.svelte": '<script lang="ts">\n  let { data } = $props();\n</script>\n\n<p>{data.ok}</p>\n' } : {}),
    },
    "signalint-kit-",
  );
  linkBin(dir, "tsc", join(REPO, "node_modules", "typescript", "bin", "tsc"));
  if (withSvelteCheck) {
    linkPackage(dir, "svelte", join(REPO, "node_modules", "svelte"));
    linkPackage(dir, "svelte-check", join(REPO, "node_modules", "svelte-check"));
  }
  return { dir, env: { SIGNALINT_CACHE_DIR: tempDir("signalint-cache-"), SIGNALINT_STATE_DIR: tempDir("signalint-state-") } };
}

function check(dir: string, env: Record<string, string>, args: string[] = []): { status: number | null; response: CheckResponse } {
  const result = runCli(["check", "--format", "response", ...args], { cwd: dir, env });
  return { status: result.status, response: JSON.parse(result.stdout) as CheckResponse };
}

describe("generated configs (issue 33, item 3)", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  for (const withSvelteCheck of [true, false]) {
    it(`a fresh SvelteKit clone${withSvelteCheck ? " (svelte-check)" : " (tsc)"}: error with one line saying to run svelte-kit sync, no TS5083/TS2307, nothing generated`, () => {
      const { dir, env } = freshClone({ check: "svelte-kit sync && svelte-check --tsconfig ./tsconfig.json" }, withSvelteCheck);
      dirs.push(dir, ...Object.values(env));
      const before = snapshotTree(dir);
      for (const args of [[], ["src/routes/+page.ts", "src/lib/util.ts"]]) {
        const { status, response } = check(dir, env, args);
        assert.equal(status, 1);
        assert.equal(response.status, "error");
        assert.equal(response.totalIssues, 0, JSON.stringify(response.remainingIssues));
        assert.equal(response.engines.tsc.status, "error");
        assert.equal(
          response.engines.tsc.message,
          "tsconfig.json needs .svelte-kit/tsconfig.json, which is generated and missing: run `npx svelte-kit sync` — the project's `check` script does this first (Signalint never runs it)",
        );
      }
      if (withSvelteCheck) {
        // The project's svelte-check does check the component: what is missing is the generated config (found on
        // openbrewerydb-sveltekit, whose fresh clone said no script runs svelte-check).
        const { response } = check(dir, env, ["src/routes/+page.svelte"]);
        assert.equal(response.status, "error");
        assert.deepEqual(
          response.notChecked?.map((note) => note.reason),
          ["not type-checked: .svelte files (the project's svelte-check run on their program did not answer: engines.tsc says why)"],
        );
        assert.match(response.engines.tsc.message ?? "", /run `npx svelte-kit sync`/);
      }
      assertTreeUnchanged(dir, before);
      // Once the project generated it, the program runs.
      writeFiles(dir, { ...SYNCED, "src/lib/util.ts": 'export const twice = (n: number): number => "n";\n' });
      const synced = check(dir, env, ["src/lib/util.ts"]);
      assert.equal(synced.response.engines.tsc.status, "ok", synced.response.engines.tsc.message);
      assert.equal(synced.response.status, "issues_found");
    });
  }

  it("a config including a missing .nuxt file and no script that prepares it: the command, and no script named", () => {
    const dir = projectFrom(
      {
        "package.json": JSON.stringify({ name: "nuxt-app", private: true, scripts: { typecheck: "tsc --noEmit" } }),
        "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, noEmit: true }, include: [".nuxt/nuxt.d.ts", "src"] }),
        "src/a.ts": "export const a = 1;\n",
      },
      "signalint-nuxt-",
    );
    linkBin(dir, "tsc", join(REPO, "node_modules", "typescript", "bin", "tsc"));
    const env = { SIGNALINT_CACHE_DIR: tempDir("signalint-cache-"), SIGNALINT_STATE_DIR: tempDir("signalint-state-") };
    dirs.push(dir, ...Object.values(env));
    const { status, response } = check(dir, env);
    assert.equal(status, 1);
    assert.equal(response.engines.tsc.message, "tsconfig.json needs .nuxt, which is generated and missing: run `npx nuxi prepare` (Signalint never runs it)");
  });
});
