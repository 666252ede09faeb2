// What a private copy for oxlint's fixes mirrors of the project's config, and what it refuses (service/fix/oxlint-copy.ts).
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { createNodeRuntime } from "../../src/runtime/node.ts";
import { oxlintConfigOf, planOxlintCopy } from "../../src/service/fix/oxlint-copy.ts";
import { removeDir, tempDir } from "../helpers.ts";
import { writeFiles } from "../helpers/project.ts";

const runtime = createNodeRuntime();

describe("planOxlintCopy", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));
  const project = (files: Record<string, string>) => {
    const dir = tempDir("signalint-oxcopy-plan-");
    dirs.push(dir);
    writeFiles(dir, files);
    return dir;
  };

  it("mirrors the nearest config, what it extends (JSONC) and .eslintignore at their places; no config: an empty one", async () => {
    const root = project({
      ".eslintignore": "gen/\n",
      "base/shared.jsonc": '// shared\n{ "rules": { "no-var": "error" } }',
      "pkg/.oxlintrc.json": JSON.stringify({ extends: ["../base/shared.jsonc"], overrides: [{ files: ["old/**"], rules: { "no-var": "off" } }] }),
      "pkg/old/a.js": "var a;\n",
      "src/b.js": "var b;\n",
    });
    const config = await oxlintConfigOf(runtime, root, "pkg/old/a.js");
    assert.equal(config, join(root, "pkg/.oxlintrc.json"));
    const plan = await planOxlintCopy(runtime, root, config);
    assert.ok(!("refused" in plan), JSON.stringify(plan));
    assert.deepEqual(
      { cwd: plan.cwd, config: plan.config, extra: plan.extra.map((each) => each.path).sort() },
      { cwd: "", config: "pkg/.oxlintrc.json", extra: [".eslintignore", "base/shared.jsonc", "pkg/.oxlintrc.json"] },
    );
    const none = await planOxlintCopy(runtime, root, null);
    assert.ok(!("refused" in none));
    assert.equal(none.extra.find((each) => each.path === none.config)?.text, "{}");
  });

  it("a config above the root: the copy stands for its directory, and oxlint runs at the root's place in it", async () => {
    const top = project({ ".oxlintrc.json": "{}", "app/src/a.js": "var a;\n" });
    const root = join(top, "app");
    const config = await oxlintConfigOf(runtime, root, "src/a.js");
    assert.equal(config, join(top, ".oxlintrc.json"));
    const plan = await planOxlintCopy(runtime, root, config);
    assert.ok(!("refused" in plan));
    assert.deepEqual([plan.base, plan.cwd, plan.config], [top, "app", ".oxlintrc.json"]);
  });

  for (const [name, files, reason] of [
    ["a config that is a program", { "oxlint.config.ts": "export default {};\n" }, /is a program/],
    ["JS plugins", { ".oxlintrc.json": JSON.stringify({ jsPlugins: ["./plugin.js"] }) }, /loads JS plugins/],
    ["an extended config outside the copy", { "app/.oxlintrc.json": JSON.stringify({ extends: ["../../elsewhere.json"] }) }, /outside/],
    ["a config that does not parse", { ".oxlintrc.json": "{ rules: " }, /could not be read/],
  ] as const) {
    it(`refuses ${name}, saying why`, async () => {
      const top = project({ ...files, "app/src/a.js": "var a;\n" });
      const root = join(top, "app");
      const config = await oxlintConfigOf(runtime, root, "src/a.js");
      const plan = await planOxlintCopy(runtime, root, config);
      assert.ok("refused" in plan, JSON.stringify(plan));
      assert.match(plan.refused, reason);
    });
  }
});
