// The ESLint launchers' and the warm host's script texts, as Node gets them: they compile, the host's path patterns
// match both separators, and a config that prints while it loads leaves each launcher's answer alone on stdout.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Script } from "node:vm";
import { after, it } from "node:test";
import { ESLINT_FIX_LAUNCHER, parseEslintFixAnswers } from "../../src/engines/eslint-fix.ts";
import { ESLINT_HOST_LAUNCHER } from "../../src/engines/eslint-host.ts";
import { ESLINT_TYPES_LAUNCHER, parseTypedAnswers } from "../../src/engines/eslint-types.ts";
import { linkPackage, removeDir, REPO } from "../helpers.ts";
import { projectFrom } from "../helpers/project.ts";

const dirs: string[] = [];
after(() => dirs.forEach(removeDir));

/** A regular expression literal the host script assigns to `name`, as the script's own Node would build it. */
function hostPattern(name: string): RegExp {
  const literal = new RegExp(`^const ${name} = (/.*/);$`, "m").exec(ESLINT_HOST_LAUNCHER)?.[1];
  assert.ok(literal, `the host script defines ${name}`);
  return new Script(literal).runInNewContext() as RegExp;
}

it("every launcher compiles, and the host's node_modules patterns match POSIX and Windows paths", () => {
  for (const text of [ESLINT_HOST_LAUNCHER, ESLINT_FIX_LAUNCHER, ESLINT_TYPES_LAUNCHER]) new Script(text);
  const nodeModules = hostPattern("NODE_MODULES");
  const memo = hostPattern("MEMO");
  for (const path of ["/p/node_modules/eslint-plugin-import/lib/index.js", "C:\\p\\node_modules\\eslint-plugin-import\\lib\\index.js"]) {
    assert.ok(nodeModules.test(path), path);
    assert.ok(memo.test(path), path);
  }
  assert.ok(!nodeModules.test("C:\\p\\tools\\rule.js"));
  assert.ok(!memo.test("/p/node_modules/eslint-plugin-importer/index.js"));
});

it("a config that prints while it loads: each launcher's answer is still alone on stdout", () => {
  const dir = projectFrom(
    {
      "package.json": JSON.stringify({ name: "prints", private: true, type: "module" }),
      "eslint.config.js": 'console.log("loading the config");\nexport default [{ files: ["**/*.js"], rules: { "prefer-const": "error" } }];\n',
      "a.js": "let a = 1;\nexport { a };\n",
    },
    "signalint-launchers-",
  );
  dirs.push(dir);
  linkPackage(dir, "eslint", join(REPO, "node_modules", "eslint"));
  const run = (name: string, text: string, request: unknown) => {
    writeFileSync(join(dir, "..", `${name}-launcher.cjs`), text);
    writeFileSync(join(dir, "..", `${name}-request.json`), JSON.stringify(request));
    const result = spawnSync(
      process.execPath,
      [join(dir, "..", `${name}-launcher.cjs`), join(REPO, "node_modules", "eslint"), join(dir, "..", `${name}-request.json`)],
      {
        cwd: dir,
        encoding: "utf8",
      },
    );
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stderr, /loading the config/, "what the config printed went to stderr");
    return result.stdout;
  };
  const file = join(dir, "a.js");
  assert.deepEqual(parseTypedAnswers(run("types", ESLINT_TYPES_LAUNCHER, { files: [file], flat: true, flags: [] }), 1), [false]);
  const fixes = parseEslintFixAnswers(
    run("fix", ESLINT_FIX_LAUNCHER, {
      files: [{ path: file, text: "let a = 1;\nexport { a };\n", rules: null, places: null }],
      flat: true,
      flags: [],
      kinds: ["safe"],
    }),
    1,
  );
  assert.equal(fixes?.[0]?.output, "const a = 1;\nexport { a };\n");
});
