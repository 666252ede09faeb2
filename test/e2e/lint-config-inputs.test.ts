// What a linter reads as its configuration beyond its own config files, and an edit's check of a linter's
// configuration (found by a trial on supermacro/neverthrow: ESLint 7 with eslint-plugin-prettier). Both were false
// cleans: a `.prettierrc` edit left every check answering from results stored under the old Prettier settings, and
// a check of the edited `.eslintrc.js` alone said clean while `npm run lint` failed on five other files.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { linkPackage, removeDir, REPO, runCli, tempDir } from "../helpers.ts";
import { writeFiles } from "../helpers/project.ts";

/**
 * A local plugin standing in for eslint-plugin-prettier: its rule reads `.prettierrc.json` (found from the linted file's
 * directory up) for every file it lints and reports lines longer than its printWidth.
 */
const PLUGIN = `import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
function printWidth(file) {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    const path = join(dir, ".prettierrc.json");
    if (existsSync(path)) return JSON.parse(readFileSync(path, "utf8")).printWidth ?? 80;
    if (dirname(dir) === dir) return 80;
  }
}
export default {
  rules: {
    width: {
      meta: { type: "layout", schema: [] },
      create(context) {
        const width = printWidth(context.filename);
        return {
          Program() {
            context.sourceCode.lines.forEach((line, index) => {
              if (line.length > width) context.report({ loc: { line: index + 1, column: 0 }, message: "Line longer than printWidth." });
            });
          },
        };
      },
    },
  },
};
`;

const LINE = `export const value = ${JSON.stringify("x".repeat(60))};\n`;

function project(): { dir: string; env: Record<string, string> } {
  const dir = tempDir("signalint-lint-inputs-");
  writeFiles(dir, {
    "package.json": JSON.stringify({ name: "lint-inputs", private: true, type: "module", scripts: { lint: "eslint src" } }),
    "eslint.config.js":
      'import fmt from "./tools/fmt.js";\nexport default [{ files: ["**/*.js"], plugins: { fmt }, rules: { "fmt/width": "error", "no-var": "off" } }];\n',
    "tools/fmt.js": PLUGIN,
    ".prettierrc.json": JSON.stringify({ printWidth: 100 }),
    "signalint.config.json": JSON.stringify({ engines: { oxlint: false, tsc: false } }),
    "src/a.js": LINE,
    "src/b.js": "var b = 1;\nexport { b };\n",
  });
  linkPackage(dir, "eslint", join(REPO, "node_modules", "eslint"));
  return { dir, env: { SIGNALINT_CACHE_DIR: tempDir("signalint-lint-inputs-cache-") } };
}

interface Report {
  status: string;
  issues: { file: string; rule: string }[];
  notChecked?: { reason: string; sample: string[] }[];
}

const check = (dir: string, env: Record<string, string>, paths: string[] = []) => {
  const run = runCli(["check", "--format", "json", ...paths], { cwd: dir, env });
  return { exit: run.status, report: JSON.parse(run.stdout) as Report };
};

describe("a linter's configuration", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  it("Prettier's config read by an ESLint plugin is part of a stored result's identity: its edit is linted again", () => {
    const { dir, env } = project();
    dirs.push(dir, env.SIGNALINT_CACHE_DIR as string);
    assert.equal(check(dir, env).report.status, "clean");
    writeFileSync(join(dir, ".prettierrc.json"), JSON.stringify({ printWidth: 40 }));
    const { exit, report } = check(dir, env);
    assert.deepEqual(
      report.issues.map((issue) => `${issue.file} ${issue.rule}`),
      ["src/a.js fmt/width"],
      JSON.stringify(report),
    );
    assert.equal(exit, 1);
  });

  it("a check of an edited ESLint config alone, or of a module it imports, is never clean; the whole project's shows what changed", () => {
    const { dir, env } = project();
    dirs.push(dir, env.SIGNALINT_CACHE_DIR as string);
    assert.equal(check(dir, env).report.status, "clean");
    writeFileSync(
      join(dir, "eslint.config.js"),
      'import fmt from "./tools/fmt.js";\nexport default [{ files: ["**/*.js"], plugins: { fmt }, rules: { "fmt/width": "error", "no-var": "error" } }];\n',
    );
    for (const named of ["eslint.config.js", "tools/fmt.js", ".prettierrc.json"]) {
      const { exit, report } = check(dir, env, [named]);
      assert.equal(report.status, "error", `${named}: ${JSON.stringify(report)}`);
      assert.equal(exit, 1);
      const note = report.notChecked?.find((entry) => entry.reason.startsWith("not linted by eslint with the files it governs"));
      assert.ok(note, JSON.stringify(report.notChecked));
      assert.deepEqual(note.sample, [named]);
    }
    // A source file alone is no configuration: its own answer.
    assert.equal(check(dir, env, ["src/a.js"]).report.status, "clean");
    const whole = check(dir, env).report;
    assert.deepEqual(
      whole.issues.map((issue) => `${issue.file} ${issue.rule}`),
      ["src/b.js no-var"],
    );
  });
});
