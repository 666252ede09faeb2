// Biome's runs for a fix preview (service/fix/engine-fixes.ts biomeRunGroups): one per directory Biome runs from and
// set of asked rules, whatever order a file's issues named the rules in.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { biomeRunGroups } from "../../src/service/fix/engine-fixes.ts";

describe("Biome's runs for a preview", () => {
  it("the same rules asked in another order are one run; another directory or rule set is another", () => {
    const runs: Record<string, { cwd: string; only: string[] | null }> = {
      "src/a.js": { cwd: "/p", only: ["lint/style/useConst", "lint/complexity/noExtraBooleanCast"] },
      "src/b.js": { cwd: "/p", only: ["lint/complexity/noExtraBooleanCast", "lint/style/useConst"] },
      "src/c.js": { cwd: "/p", only: ["lint/style/useConst"] },
      "pkg/d.js": { cwd: "/p/pkg", only: ["lint/style/useConst", "lint/complexity/noExtraBooleanCast"] },
      "src/e.js": { cwd: "/p", only: null },
      "src/f.js": { cwd: "/p", only: null },
    };
    const groups = biomeRunGroups(Object.keys(runs), (file) => runs[file] as { cwd: string; only: string[] | null });
    assert.deepEqual(groups, [
      { cwd: "/p", only: ["lint/complexity/noExtraBooleanCast", "lint/style/useConst"], files: ["src/a.js", "src/b.js"] },
      { cwd: "/p", only: ["lint/style/useConst"], files: ["src/c.js"] },
      { cwd: "/p/pkg", only: ["lint/complexity/noExtraBooleanCast", "lint/style/useConst"], files: ["pkg/d.js"] },
      { cwd: "/p", only: null, files: ["src/e.js", "src/f.js"] },
    ]);
  });
});
