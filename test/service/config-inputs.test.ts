import assert from "node:assert/strict";
import { mkdirSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { after, it } from "node:test";
import { createNodeRuntime } from "../../src/runtime/node.ts";
import type { Runtime } from "../../src/runtime/types.ts";
import type { ChangeHint } from "../../src/typescript/change-hint.ts";
import { ContentHasher } from "../../src/service/freshness/content-hasher.ts";
import { configInputsHash } from "../../src/service/freshness/config-inputs.ts";
import { ENGINES } from "../../src/engines/registry.ts";
import { BUNDLE, removeDir, tempDir } from "../helpers.ts";

const runtime = createNodeRuntime({ selfScript: BUNDLE });
const dirs: string[] = [];
after(() => dirs.forEach(removeDir));

it("an ESLint config's absolute and file: URL imports outside the root are configuration inputs (and seen by the watchless hasher)", async () => {
  const root = tempDir("signalint-config-inputs-");
  const outside = tempDir("signalint-config-outside-");
  dirs.push(root, outside);
  mkdirSync(join(root, "src"));
  const byPath = join(outside, "rules.mjs");
  const byUrl = join(outside, "more.mjs");
  writeFileSync(byPath, 'export const rules = { "no-debugger": "error" };\n');
  writeFileSync(byUrl, "export const more = {};\n");
  writeFileSync(
    join(root, "eslint.config.mjs"),
    `import { rules } from "${byPath}";\nimport { more } from "${pathToFileURL(byUrl).href}";\nexport default [{ rules: { ...rules, ...more } }];\n`,
  );
  const hash = () =>
    configInputsHash(runtime, new ContentHasher(runtime, undefined, root), {
      configFiles: ENGINES.eslint.linter?.configFiles ?? [],
      root,
      dirs: [join(root, "src")],
    });
  const before = await hash();
  writeFileSync(byPath, 'export const rules = { "no-debugger": "off" };\n');
  const afterPath = await hash();
  assert.notEqual(afterPath, before, "an edit of the absolute import changes the inputs");
  writeFileSync(byUrl, 'export const more = { "no-console": "error" };\n');
  assert.notEqual(await hash(), afterPath, "an edit of the file: URL import changes the inputs");
  const hasher = new ContentHasher(runtime, undefined, root);
  await configInputsHash(runtime, hasher, {
    configFiles: ENGINES.eslint.linter?.configFiles ?? [],
    root,
    dirs: [join(root, "src")],
  });
  assert.deepEqual([...(hasher.external() ?? [])].sort(), [byUrl, byPath].sort(), "a quiet check stamps both");
});

it("hashMany hashes each file's content: missing files, directories, a symlink loop, an unreadable-as-file path, re-reads only what changed", async () => {
  const root = tempDir("signalint-hash-many-");
  dirs.push(root);
  mkdirSync(join(root, "dir"));
  const files = Array.from({ length: 300 }, (_, index) => join(root, `f${index}.ts`));
  files.forEach((file, index) => writeFileSync(file, `export const v${index} = ${index};\n`));
  symlinkSync(join(root, "loop-a"), join(root, "loop-b"));
  symlinkSync(join(root, "loop-b"), join(root, "loop-a"));
  writeFileSync(join(root, "bom.ts"), "\uFEFFexport {};\n");
  const paths = [...files, join(root, "missing.ts"), join(root, "dir"), join(root, "loop-a"), join(root, "bom.ts"), join(root, "f0.ts", "below")];
  const many = await new ContentHasher(runtime, undefined, root).hashMany(paths);
  // Each file's own hash, taken here: null for whatever is not a regular file one can stat.
  const one = paths.map((path) => {
    try {
      return statSync(path).isFile() ? runtime.sha256(readFileSync(path, "utf8")) : null;
    } catch {
      return null;
    }
  });
  assert.deepEqual(many, one);
  assert.equal(many.filter((hash) => hash === null).length, 4, "missing, a directory, a loop and a path below a file are null");
  // The second call reads only the file whose size changed; the rest come from what the first call hashed.
  const hasher = new ContentHasher(runtime, undefined, root);
  await hasher.hashMany(paths);
  writeFileSync(files[7] as string, "export const v7 = 'changed';\n");
  const reads: string[] = [];
  const counting = {
    ...runtime,
    readFiles: (asked: readonly string[], wanted: Parameters<typeof runtime.readFiles>[1]) =>
      runtime.readFiles(asked, (path, info) => (wanted(path, info) ? (reads.push(path), true) : false)),
  };
  const again = await new ContentHasher(counting, undefined, root).hashMany([files[7] as string]);
  assert.notEqual(again[0], many[7]);
  Object.assign(hasher, { runtime: counting });
  const second = await hasher.hashMany(paths);
  assert.deepEqual(reads, [files[7], files[7]]);
  assert.deepEqual(second, [...many.slice(0, 7), again[0], ...many.slice(8)]);
});

it("a hash read before the watch's hint dropped its file is not remembered after it (a same-size, same-mtime rewrite)", async () => {
  const root = tempDir("signalint-hash-epoch-");
  dirs.push(root);
  const file = join(root, "a.ts");
  writeFileSync(file, "export const a = 1;\n");
  const stamp = statSync(file).mtime;
  // Whole milliseconds, as the rewrite below sets them: the same modification time before and after it.
  utimesSync(file, stamp, stamp);
  const hint = (seq: number): ChangeHint => ({
    seq,
    since: 0,
    changes: [[file, seq]],
    root,
    uncovered: [],
    caseSensitive: true,
  });
  let hasher: ContentHasher | null = null;
  // The read happens, then (before the call returns) the watch reports the file rewritten: same size, same mtime.
  const racing: Runtime = {
    ...runtime,
    readFiles: async (paths, wanted) => {
      const reads = await runtime.readFiles(paths, wanted);
      rewrite();
      return reads;
    },
  };
  let next = 0;
  const rewrite = () => {
    writeFileSync(file, next % 2 ? "export const a = 1;\n" : "export const a = 2;\n");
    utimesSync(file, stamp, stamp);
    hasher?.forgetChanged(hint(++next + 1));
  };
  hasher = new ContentHasher(racing, undefined, root);
  hasher.forgetChanged(hint(1));
  const [first] = await hasher.hashMany([file]);
  Object.assign(hasher, { runtime });
  const [second] = await hasher.hashMany([file]);
  assert.notEqual(second, first, "the rewrite is seen");
  assert.equal(second, runtime.sha256(readFileSync(file, "utf8")));
});

it("a JSON file an ESLint config names by a relative path is a configuration input (eslint-plugin-oxlint's .oxlintrc.json)", async () => {
  const root = tempDir("signalint-config-named-");
  dirs.push(root);
  writeFileSync(join(root, ".oxlintrc.json"), JSON.stringify({ rules: { "no-debugger": "error" } }));
  writeFileSync(
    join(root, "eslint.config.mjs"),
    'import oxlint from "eslint-plugin-oxlint";\nexport default [...oxlint.buildFromOxlintConfigFile(".oxlintrc.json")];\n',
  );
  const hash = () =>
    configInputsHash(runtime, new ContentHasher(runtime, undefined, root), {
      configFiles: ENGINES.eslint.linter?.configFiles ?? [],
      root,
      dirs: [root],
    });
  const before = await hash();
  writeFileSync(join(root, ".oxlintrc.json"), JSON.stringify({ rules: { "no-debugger": "off" } }));
  assert.notEqual(await hash(), before, "an edit of the JSON file it names changes the inputs");
});

it("a module a config requires without its extension (or as a directory) is a configuration input", async () => {
  const root = tempDir("signalint-config-bare-");
  dirs.push(root);
  mkdirSync(join(root, "rules"));
  writeFileSync(join(root, "base.js"), 'module.exports = { "no-var": "off" };\n');
  writeFileSync(join(root, "rules", "index.js"), "module.exports = {};\n");
  writeFileSync(
    join(root, "eslint.config.cjs"),
    'const base = require("./base");\nconst more = require("./rules");\nmodule.exports = [{ rules: { ...base, ...more } }];\n',
  );
  const hash = () =>
    configInputsHash(runtime, new ContentHasher(runtime, undefined, root), { configFiles: ENGINES.eslint.linter?.configFiles ?? [], root, dirs: [root] });
  const before = await hash();
  writeFileSync(join(root, "base.js"), 'module.exports = { "no-var": "error" };\n');
  const afterBase = await hash();
  assert.notEqual(afterBase, before, "./base is base.js");
  writeFileSync(join(root, "rules", "index.js"), 'module.exports = { "no-debugger": "error" };\n');
  assert.notEqual(await hash(), afterBase, "./rules is rules/index.js");
});
