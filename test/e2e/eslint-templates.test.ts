// Files a flat ESLint config lints besides JS/TS (an Angular project's `**/*.html` templates): linted in file checks
// and covered by the cached answer of a directory run, so an edit of one is never answered from an older run.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, it } from "node:test";
import { eslintLegacyAccepts } from "../../src/engines/eslint.ts";
import { BUNDLE, CLEAN_PATH, linkPackage, rawEslintKeys, removeDir, REPO, runCli, tempDir } from "../helpers.ts";

const dirs: string[] = [];
after(() => dirs.forEach(removeDir));

// Templates and a custom extension are linted as JavaScript here (the rule is what matters, not the parser).
const CONFIG = `export default [
  { files: ["**/*.js"], rules: { "no-debugger": "error" } },
  { files: ["**/*.html"], rules: { "no-debugger": "error" } },
  { files: ["**/*.tpl2"], rules: { "no-debugger": "error" } },
];
`;

function project(): { dir: string; env: Record<string, string> } {
  const dir = tempDir("signalint-templates-");
  const files: Record<string, string> = {
    "package.json": '{ "name": "templates", "private": true, "type": "module" }\n',
    "eslint.config.mjs": CONFIG,
    "src/a.js": "export const a = 1;\n",
    "src/card.html": "let card = 1;\n",
    "src/view.tpl2": "let view = 1;\n",
    "README.md": "# templates\n",
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  linkPackage(dir, "eslint", join(REPO, "node_modules", "eslint"));
  dirs.push(dir);
  const state = tempDir("signalint-state-");
  const cache = tempDir("signalint-cache-");
  dirs.push(state, cache);
  return { dir, env: { SIGNALINT_STATE_DIR: state, SIGNALINT_CACHE_DIR: cache } };
}

function keys(dir: string, env: Record<string, string>, paths: string[] = []): string[] {
  const result = runCli(["check", "--format", "json", ...paths], { cwd: dir, env });
  const report = JSON.parse(result.stdout) as {
    engines: Record<string, { status: string }>;
    issues: { file: string; line: number; rule: string; engine: string }[];
  };
  assert.equal(report.engines.eslint?.status, "ok", result.stdout);
  return report.issues
    .filter((issue) => issue.engine === "eslint")
    .map((issue) => `${issue.file}:${issue.line} ${issue.rule}`)
    .sort();
}

it("an edited template is linted again, in a whole-project check and named on its own", () => {
  const { dir, env } = project();
  assert.deepEqual(keys(dir, env), []);
  assert.deepEqual(rawEslintKeys(dir), []);
  writeFileSync(join(dir, "src", "card.html"), "let card = 1;\ndebugger;\n");
  const expected = ["src/card.html:2 no-debugger"];
  assert.deepEqual(rawEslintKeys(dir), expected);
  assert.deepEqual(keys(dir, env), expected, "the directory run's cached answer does not cover the edited template");
  assert.deepEqual(keys(dir, env, ["src/card.html"]), expected, "a template named on its own is given to ESLint");
  // An editor hook after the template's edit checks it (it once skipped .html as no file worth a check).
  const input = JSON.stringify({ cwd: dir, tool_input: { file_path: join(dir, "src", "card.html") } });
  const hook = spawnSync(process.execPath, [BUNDLE, "hook"], {
    cwd: dir,
    env: { PATH: CLEAN_PATH, HOME: process.env.HOME ?? "", SIGNALINT_DAEMON: "0", ...env },
    input,
    encoding: "utf8",
  });
  assert.equal(hook.status, 2, hook.stderr);
  assert.match(hook.stderr, /src\/card\.html:2:1 .*no-debugger/);
  writeFileSync(join(dir, "src", "card.html"), "let card = 1;\n");
  assert.deepEqual(keys(dir, env), []);
});

it("an extension only the project's config lints: its directory answer is never stored, so an edit is seen", () => {
  const { dir, env } = project();
  assert.deepEqual(keys(dir, env), []);
  writeFileSync(join(dir, "src", "view.tpl2"), "debugger;\n");
  assert.deepEqual(rawEslintKeys(dir), ["src/view.tpl2:1 no-debugger"]);
  assert.deepEqual(keys(dir, env), ["src/view.tpl2:1 no-debugger"]);
  assert.deepEqual(keys(dir, env, ["src/view.tpl2"]), ["src/view.tpl2:1 no-debugger"]);
  writeFileSync(join(dir, "src", "view.tpl2"), "let view = 2;\n");
  assert.deepEqual(keys(dir, env), []);
});

it("a legacy config is given JS/TS files and the extensions its scripts add with --ext, nothing else", () => {
  const accepts = eslintLegacyAccepts([".html", "vue"]);
  assert.deepEqual(
    ["src", "a.ts", "b.html", "c.vue", "d.md", "e.json"].map((path) => accepts(path)),
    [true, true, true, true, false, false],
  );
  assert.equal(eslintLegacyAccepts([])("b.html"), false);
});
