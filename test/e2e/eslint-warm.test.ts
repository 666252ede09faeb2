// Warm ESLint (service/lint/eslint-hosts.ts): a long-lived server lints through the project's own ESLint command line
// kept loaded, and every answer equals a cold `eslint` run of the same tree — after edits of the linted files, of a
// local plugin the config imports, in another client's environment (the config reads a variable), and when a rule
// kills its process or throws (the command line then answers, as it fails).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { after, describe, it } from "node:test";
import type { SignalintService } from "../../src/service/signalint.ts";
import { CLEAN_PATH, linkPackage, removeDir, REPO, serviceIssues, flatMessage } from "../helpers.ts";
import { projectFrom } from "../helpers/project.ts";
import { longLivedService } from "../helpers/warm-service.ts";

/** A local rule: a `TODO` comment is reported with the rule's message; `EXIT_NOW` ends the process, `THROW_NOW` throws. */
const RULE = `export default {
  rules: {
    todo: {
      meta: { type: "suggestion", schema: [] },
      create(context) {
        return {
          Program() {
            const text = context.sourceCode.text;
            if (text.includes("EXIT_" + "NOW")) process.exit(7);
            if (text.includes("THROW_" + "NOW")) throw new Error("the rule threw");
            context.sourceCode.getAllComments().forEach((comment) => {
              if (comment.value.includes("TODO")) context.report({ loc: comment.loc, message: "a todo: first words" });
            });
          },
        };
      },
    },
  },
};
`;

const FILES = {
  "package.json": JSON.stringify({
    name: "eslint-warm",
    private: true,
    type: "module",
    scripts: { lint: "eslint ." },
  }),
  "signalint.config.json": JSON.stringify({
    engines: { oxlint: false, tsc: false, biome: false },
  }),
  // The config reads the environment: each client's answer is its own.
  "eslint.config.js": `import local from "./tools/rule.js";
const strict = process.env.LINT_STRICT === "1";
export default [{ files: ["**/*.js"], plugins: { local }, rules: { "no-var": "error", "prefer-const": strict ? "error" : "off", "local/todo": "warn" } }];
`,
  "tools/rule.js": RULE,
  "src/a.js": "let a = 1;\nexport { a };\n",
  "src/b.js": "// TODO: later\nexport const b = 2;\n",
  "src/sub/c.js": "var c = 3;\nexport { c };\n",
  // prefer-const's finding under LINT_STRICT=1 only.
  "src/d.js": "let d = 1;\nexport { d };\n",
};

/** What a cold `eslint --format json <paths>` of the tree reports, as "file:line:col rule severity message", sorted. */
function coldEslint(dir: string, paths: string[], env: Record<string, string> = {}): { keys: string[]; status: number | null } {
  const run = spawnSync(process.execPath, [join(REPO, "node_modules", "eslint", "bin", "eslint.js"), "--format", "json", ...paths], {
    cwd: dir,
    encoding: "utf8",
    env: { PATH: CLEAN_PATH, ...env },
  });
  if (run.status !== 0 && run.status !== 1) return { keys: [], status: run.status };
  const report = JSON.parse(run.stdout) as {
    filePath: string;
    messages: {
      line: number;
      column: number;
      ruleId: string;
      severity: number;
      message: string;
    }[];
  }[];
  const keys = report.flatMap((file) =>
    file.messages.map(
      (message) =>
        `${relative(dir, file.filePath)}:${message.line}:${message.column} ${message.ruleId} ${message.severity === 2 ? "error" : "warning"} ${flatMessage(message.message)}`,
    ),
  );
  return { keys: keys.sort(), status: run.status };
}

/** A check's ESLint answer: its status and issues, keyed as coldEslint keys them. */
async function warmEslint(service: SignalintService, paths: string[], env?: Record<string, string>): Promise<{ keys: string[]; status: string }> {
  const response = await service.check(paths, paths[0] !== ".", env ? { env } : {});
  const keys = serviceIssues(service, response)
    .filter((issue) => issue.engine === "eslint")
    .map((issue) => {
      // The whole message (a long one is cut in the check's answer).
      const detail = service.issueDetail({ issueId: issue.issueId, checkId: response.checkId });
      const whole = "issues" in detail ? detail.issues.find((one) => one.issueId === issue.issueId)?.fullMessage : undefined;
      return `${issue.file}:${issue.line}:${issue.col} ${issue.rule} ${issue.severity} ${flatMessage(whole ?? issue.message)}`;
    })
    .sort();
  return { keys, status: String(response.engines.eslint?.status) };
}

/** typescript-eslint with type information: a file's findings read the types of what it imports. */
const TYPED_FILES = {
  "package.json": JSON.stringify({
    name: "eslint-warm-typed",
    private: true,
    type: "module",
    scripts: { lint: "eslint ." },
  }),
  "signalint.config.json": JSON.stringify({
    engines: { oxlint: false, tsc: false, biome: false },
  }),
  "eslint.config.mjs": `import tseslint from "typescript-eslint";
export default tseslint.config({
  files: ["**/*.ts"],
  extends: [tseslint.configs.base],
  languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
  rules: { "@typescript-eslint/no-floating-promises": "error", "@typescript-eslint/no-unnecessary-type-assertion": "error" },
});
`,
  // A typed rule's fix: the assertion is unnecessary only as the types say.
  "src/cast.ts": 'import { name } from "./dep";\nexport const upper = (name as string).toUpperCase();\n',
  "tsconfig.json": JSON.stringify({
    compilerOptions: {
      strict: true,
      noEmit: true,
      target: "es2022",
      module: "esnext",
      moduleResolution: "bundler",
    },
    include: ["src"],
  }),
  "src/dep.ts": 'export function ping(): void {}\nexport const name: string = "a";\n',
  "src/use.ts": 'import { ping } from "./dep";\nexport function run(): void {\n  ping();\n}\n',
};

describe("warm ESLint: a long-lived server's lints equal the project's own eslint, cold", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  /**
   * A long-lived server on a new project of `files` (the packages linked from this repository, `prepare` run), handed
   * to `body` with the project's directory, then closed.
   */
  async function withServer(
    label: string,
    files: Record<string, string>,
    body: (service: SignalintService, dir: string) => Promise<void>,
    options: { packages?: string[]; prepare?: (dir: string) => void } = {},
  ): Promise<void> {
    const dir = projectFrom(files, `signalint-eslint-${label}-`);
    dirs.push(dir);
    for (const pkg of options.packages ?? ["eslint"]) linkPackage(dir, pkg, join(REPO, "node_modules", pkg));
    options.prepare?.(dir);
    const service = await longLivedService(dir, `eslint-${label}-`, dirs);
    try {
      await body(service, dir);
    } finally {
      await service.close();
    }
  }

  it("answers each edit warm, and from a new host when a config input changed or another environment asks", async () => {
    await withServer("warm", FILES, async (service, dir) => {
      const warmNow = async (name: string, paths: string[], env?: Record<string, string>) => {
        const before = service.eslintHostAnswers();
        const warm = await warmEslint(service, paths, env);
        assert.equal(warm.status, "ok", name);
        assert.deepEqual(warm.keys, coldEslint(dir, paths, env).keys, `${name}: equal to a cold eslint`);
        assert.ok(service.eslintHostAnswers() > before, `${name}: a warm host answered`);
      };
      await warmNow("the first whole check", ["."]);
      writeFileSync(join(dir, "src/a.js"), "var a = 1;\n// TODO: now\nexport { a };\n");
      await warmNow("an edited file", ["src/a.js"]);
      // The plugin the config imports changed: the host that loaded it is stopped, a new one loads it again.
      writeFileSync(join(dir, "tools/rule.js"), RULE.replace("first words", "second words"));
      await warmNow("the config's local plugin edited", ["src/a.js"]);
      await warmNow("the whole tree after it", ["."]);
      // Another client, whose environment the config reads, and this one again.
      const strict = {
        ...(process.env as Record<string, string>),
        LINT_STRICT: "1",
      };
      assert.notDeepEqual(coldEslint(dir, ["."], strict).keys, coldEslint(dir, ["."]).keys, "the variable changes the answer");
      await warmNow("another client's environment", ["."], strict);
      // A fix preview is that client's too: prefer-const's fix of d.js exists only where LINT_STRICT=1.
      const strictPreview = await service.transactions.previewEngineFixes({ files: ["src/d.js"] }, undefined, strict);
      assert.deepEqual(
        strictPreview.files.map((file) => file.fixes?.map((fix) => `${file.file} ${fix.engine} ${fix.kind}`)),
        [["src/d.js eslint safe"]],
      );
      await assert.rejects(service.transactions.previewEngineFixes({ files: ["src/d.js"] }), /No engine offers an edit/, "nor in this one's");
      writeFileSync(join(dir, "src/sub/c.js"), "var c = 4;\nexport { c };\n");
      await warmNow("this client again", ["src/sub/c.js"]);
    });
  });

  it("files linted with type information are never answered warm: an import's edit changes an unchanged file's findings", async () => {
    await withServer(
      "typed",
      TYPED_FILES,
      async (service, dir) => {
        assert.deepEqual((await warmEslint(service, ["src/use.ts"])).keys, coldEslint(dir, ["src/use.ts"]).keys);
        writeFileSync(join(dir, "src/dep.ts"), 'export function ping(): Promise<void> {\n  return Promise.resolve();\n}\nexport const name: string = "a";\n');
        const cold = coldEslint(dir, ["src/use.ts"]).keys;
        assert.equal(cold.length, 1, "the command line reports the floating promise");
        assert.deepEqual((await warmEslint(service, ["src/use.ts"])).keys, cold);
        // A typed rule's fix, offered, then not once dep.ts makes the assertion necessary: the command line's fixes, never
        // a kept program's.
        const fixable = (await service.transactions.previewEngineFixes({ files: ["src/cast.ts"] })).files.map((file) => file.file);
        assert.deepEqual(fixable, ["src/cast.ts"]);
        writeFileSync(join(dir, "src/dep.ts"), 'export function ping(): void {}\nexport const name: string | number = "a";\n');
        const dryRun = spawnSync(
          process.execPath,
          [join(REPO, "node_modules", "eslint", "bin", "eslint.js"), "--fix-dry-run", "--format", "json", "src/cast.ts"],
          {
            cwd: dir,
            encoding: "utf8",
            env: { PATH: CLEAN_PATH },
          },
        );
        assert.equal((JSON.parse(dryRun.stdout) as { output?: string }[])[0]?.output, undefined, "eslint --fix has nothing to fix now");
        await assert.rejects(service.transactions.previewEngineFixes({ files: ["src/cast.ts"] }), /No engine offers an edit/, "nor has the preview");
        assert.equal(service.eslintHostAnswers(), 0, "no warm host answered a typed lint or fix");
      },
      { packages: ["eslint", "typescript-eslint", "typescript"] },
    );
  });

  it("a module two directories' configs import, edited after one of them was linted: the other's lint is not answered from it", async () => {
    const config = 'import base from "../../base.js";\nexport default [{ files: ["**/*.js"], rules: base }];\n';
    await withServer(
      "shared",
      {
        "package.json": JSON.stringify({ name: "eslint-warm-shared", private: true, type: "module", scripts: { lint: "eslint ." } }),
        "signalint.config.json": JSON.stringify({ engines: { oxlint: false, tsc: false, biome: false } }),
        "eslint.config.js": 'export default [{ files: ["*.js"], rules: {} }];\n',
        "base.js": 'export default { "no-var": "error" };\n',
        "packages/a/eslint.config.js": config,
        "packages/b/eslint.config.js": config,
        "packages/a/x.js": "var a = 1;\nexport { a };\n",
        "packages/b/x.js": "var b = 1;\nexport { b };\n",
      },
      async (service, dir) => {
        assert.deepEqual((await warmEslint(service, ["packages/a/x.js"])).keys, coldEslint(dir, ["packages/a/x.js"]).keys);
        writeFileSync(join(dir, "base.js"), 'export default { "no-var": "off" };\n');
        const cold = coldEslint(dir, ["packages/b/x.js"]).keys;
        assert.deepEqual(cold, [], "the shared rules now allow var");
        assert.deepEqual((await warmEslint(service, ["packages/b/x.js"])).keys, cold);
      },
    );
  });

  it("a module required without its extension, and a workspace config package by its bare name: an edit of either makes a new host", async () => {
    await withServer(
      "modules",
      {
        "package.json": JSON.stringify({ name: "eslint-warm-modules", private: true, scripts: { lint: "eslint ." } }),
        "signalint.config.json": JSON.stringify({ engines: { oxlint: false, tsc: false, biome: false } }),
        "eslint.config.cjs":
          'const rules = require("./rules");\nconst shared = require("@repo/eslint-config");\nmodule.exports = [{ files: ["**/*.js"], rules: { ...rules, ...shared } }];\n',
        "rules.js": 'module.exports = { "no-var": "off" };\n',
        "packages/eslint-config/package.json": JSON.stringify({ name: "@repo/eslint-config", version: "0.0.0", main: "index.js" }),
        "packages/eslint-config/index.js": 'module.exports = { "no-debugger": "off" };\n',
        "src/a.js": "var a = 1;\ndebugger;\nexport { a };\n",
      },
      async (service, dir) => {
        assert.deepEqual((await warmEslint(service, ["src/a.js"])).keys, []);
        writeFileSync(join(dir, "rules.js"), 'module.exports = { "no-var": "error" };\n');
        writeFileSync(join(dir, "src/a.js"), "var a = 2;\ndebugger;\nexport { a };\n");
        const local = coldEslint(dir, ["src/a.js"]).keys;
        assert.equal(local.length, 1, "no-var is on now");
        assert.deepEqual((await warmEslint(service, ["src/a.js"])).keys, local, "./rules (no extension) edited");
        writeFileSync(join(dir, "packages/eslint-config/index.js"), 'module.exports = { "no-debugger": "error" };\n');
        writeFileSync(join(dir, "src/a.js"), "var a = 3;\ndebugger;\nexport { a };\n");
        const shared = coldEslint(dir, ["src/a.js"]).keys;
        assert.equal(shared.length, 2, "no-debugger is on now");
        assert.deepEqual((await warmEslint(service, ["src/a.js"])).keys, shared, "the workspace package edited");
      },
      { prepare: (dir) => linkPackage(dir, "@repo/eslint-config", join(dir, "packages", "eslint-config")) },
    );
  });

  it("a plugin that keeps what it read of other files between runs (eslint-plugin-import): only a host's first lint is warm", async () => {
    await withServer(
      "memo",
      {
        ...FILES,
        "eslint.config.js":
          'import memo from "eslint-plugin-import";\nexport default [{ files: ["**/*.js"], plugins: { memo }, rules: { "memo/flag": "error" } }];\n',
        // A stand-in with the real one's habit: a module-level memo of another file's content.
        "node_modules/eslint-plugin-import/package.json": JSON.stringify({ name: "eslint-plugin-import", version: "2.0.0", main: "index.js" }),
        "node_modules/eslint-plugin-import/index.js": `const { readFileSync } = require("node:fs");
const { join } = require("node:path");
let flag = null;
module.exports = { rules: { flag: { meta: { schema: [] }, create(context) {
  flag ??= readFileSync(join(context.cwd, "flag.txt"), "utf8").trim();
  return { Program(node) { if (flag === "on") context.report({ node, message: "the flag is on" }); } };
} } } };
`,
        "flag.txt": "off\n",
      },
      async (service, dir) => {
        assert.deepEqual((await warmEslint(service, ["src/a.js"])).keys, coldEslint(dir, ["src/a.js"]).keys);
        assert.equal(service.eslintHostAnswers(), 1, "the host's first lint is a cold run's equal");
        writeFileSync(join(dir, "flag.txt"), "on\n");
        writeFileSync(join(dir, "src/a.js"), "export const a = 2;\n");
        const cold = coldEslint(dir, ["src/a.js"]).keys;
        assert.equal(cold.length, 1, "the command line reads the flag anew");
        assert.deepEqual((await warmEslint(service, ["src/a.js"])).keys, cold);
        assert.equal(service.eslintHostAnswers(), 1, "no later lint of that ESLint is warm");
      },
    );
  });

  it("a rule that reads the modules a file imports (eslint-plugin-import-x's named): an unchanged importer is linted again", async () => {
    await withServer(
      "reads",
      {
        ...FILES,
        "eslint.config.js":
          'import ix from "eslint-plugin-import-x";\nexport default [{ files: ["**/*.js"], plugins: { ix }, rules: { "ix/named": "error" } }];\n',
        // A stand-in: named imports of a relative module must be among its `export const` names, read from disk.
        "node_modules/eslint-plugin-import-x/package.json": JSON.stringify({ name: "eslint-plugin-import-x", version: "4.0.0", main: "index.js" }),
        "node_modules/eslint-plugin-import-x/index.js": `const { readFileSync } = require("node:fs");
const { dirname, resolve } = require("node:path");
module.exports = { meta: { name: "eslint-plugin-import-x" }, rules: { named: { meta: { schema: [] }, create(context) {
  return { ImportDeclaration(node) {
    if (!node.source.value.startsWith(".")) return;
    const text = readFileSync(resolve(dirname(context.filename), node.source.value), "utf8");
    for (const spec of node.specifiers) if (spec.imported && !text.includes("export const " + spec.imported.name + " "))
      context.report({ node: spec, message: spec.imported.name + " not found" });
  } };
} } } };
`,
        "src/a.js": "export const foo = 1;\n",
        "src/b.js": 'import { foo } from "./a.js";\nexport const b = foo;\n',
      },
      async (service, dir) => {
        const named = ["src/a.js", "src/b.js"];
        assert.deepEqual((await warmEslint(service, named)).keys, coldEslint(dir, named).keys);
        writeFileSync(join(dir, "src/a.js"), "export const bar = 1;\n");
        const cold = coldEslint(dir, named).keys;
        assert.equal(cold.length, 1, "b.js's import is not found now");
        assert.deepEqual((await warmEslint(service, named)).keys, cold, "b.js did not change; its finding did");
        writeFileSync(join(dir, "src/a.js"), "export const foo = 1;\n");
        assert.deepEqual((await warmEslint(service, named)).keys, coldEslint(dir, named).keys);
      },
    );
  });

  it("a rule that ends its process or throws: answered as the command line fails, and warm again after", async () => {
    await withServer("faults", FILES, async (service, dir) => {
      assert.equal((await warmEslint(service, ["src/a.js"])).status, "ok");
      const answered = service.eslintHostAnswers();
      assert.ok(answered > 0, "a warm host answered the first lint");
      for (const fault of ["EXIT_NOW", "THROW_NOW"]) {
        writeFileSync(join(dir, "src/a.js"), `// ${fault}\nexport const a = 1;\n`);
        const cold = coldEslint(dir, ["src/a.js"]);
        assert.notEqual(cold.status, 0, `${fault}: the command line fails`);
        const warm = await warmEslint(service, ["src/a.js"]);
        assert.equal(warm.status, "error", `${fault}: never an answer from the host that failed`);
        assert.equal(service.eslintHostAnswers(), answered, `${fault}: no warm answer`);
      }
      writeFileSync(join(dir, "src/a.js"), readFileSync(join(dir, "src/b.js"), "utf8"));
      const warm = await warmEslint(service, ["src/a.js"]);
      assert.deepEqual(warm.keys, coldEslint(dir, ["src/a.js"]).keys);
    });
  });
});
