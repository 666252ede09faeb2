// Probe (not part of Signalint): how much a warm svelte-check would save, and whether its answer after an edit equals a
// fresh one. Loads the project's own svelte-check internals (its bundled SvelteCheck class, which the package does not
// export), checks once (cold, in process), again with nothing changed, then after one edit (the changed file told to
// it, as svelte-check --watch does), and compares with a fresh instance on the edited tree. The edit is undone.
// usage: node build/svelte-warm-probe.mjs <project dir> <file> <search> <replace> (docs/architecture.md, svelte-check)
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { createRequire, Module } from "node:module";
import { dirname, join, relative, resolve } from "node:path";

const [projectArg, fileArg, search, replace] = process.argv.slice(2);
const project = resolve(projectArg);
const tsconfig = join(project, "tsconfig.json");
const file = resolve(project, fileArg);
const require = createRequire(join(project, "package.json"));
const pkgDir = dirname(require.resolve("svelte-check/package.json"));
// 4.7: the class is in dist/src/ts6.js (module variable `src`); 4.4: in dist/src/index.js (`src$1`), which runs the
// command line when loaded (its last statement, cut here).
const ts6 = join(pkgDir, "dist", "src", "ts6.js");
const layout = existsSync(ts6)
  ? { file: ts6, text: readFileSync(ts6, "utf8"), name: "src", uri: "undefined" }
  : (() => {
      const file = join(pkgDir, "dist", "src", "index.js");
      const text = readFileSync(file, "utf8");
      return { file, text: text.slice(0, text.lastIndexOf("\nparseOptions(async")), name: "src$1", uri: "URI$2" };
    })();
const loaded = new Module(layout.file);
loaded.filename = layout.file;
loaded.paths = Module._nodeModulePaths(dirname(layout.file));
loaded._compile(`${layout.text}\nexports.__src = ${layout.name}; exports.__URI = ${layout.uri};`, layout.file);
const { SvelteCheck } = loaded.exports.__src;
const URI = loaded.exports.__URI ?? loaded.require("./index.js").URI;

const keys = (results) =>
  results
    .flatMap((r) =>
      r.diagnostics
        .filter((d) => d.severity === 1 || d.severity === 2)
        .map((d) => `${relative(project, r.filePath)}:${d.range.start.line + 1}:${d.range.start.character + 1} ${d.code ?? d.source}`),
    )
    .sort();
const timed = async (fn) => {
  const started = performance.now();
  const value = await fn();
  return [value, Math.round(performance.now() - started)];
};

const original = readFileSync(file, "utf8");
// As the command line runs: from the project (svelte.config.js may resolve paths from the working directory).
process.chdir(project);
try {
  const [warm, createMs] = await timed(() => new SvelteCheck(project, { tsconfig, watch: false }));
  const [first, firstMs] = await timed(async () => keys(await warm.getDiagnostics()));
  const [again, againMs] = await timed(async () => keys(await warm.getDiagnostics()));
  const edited = original.replace(search, replace);
  if (edited === original) throw new Error("search not found");
  writeFileSync(file, edited);
  const [after, afterMs] = await timed(async () => {
    await warm.upsertDocument({ uri: URI.file(file).toString(), text: edited }, false);
    return keys(await warm.getDiagnostics());
  });
  // The reference: the project's svelte-check on the command line, in a process of its own, on the edited tree.
  const [fresh, freshMs] = await timed(async () => {
    const run = spawnSync(process.execPath, [join(pkgDir, "bin", "svelte-check"), "--tsconfig", tsconfig, "--output", "machine-verbose"], {
      cwd: project,
      encoding: "utf8",
      maxBuffer: 1 << 28,
    });
    return run.stdout
      .split("\n")
      .map((line) => /^\d+ (\{.*\})$/.exec(line)?.[1])
      .filter(Boolean)
      .map((json) => JSON.parse(json))
      .map((d) => `${d.filename}:${d.start.line + 1}:${d.start.character + 1} ${d.code ?? d.source}`)
      .sort();
  });
  const same = JSON.stringify(after) === JSON.stringify(fresh);
  console.log(
    JSON.stringify({
      createMs,
      firstMs,
      againMs,
      afterMs,
      freshMs,
      first: first.length,
      again: again.length,
      after: after.length,
      fresh: fresh.length,
      equal: same,
    }),
  );
  if (!same) console.log(JSON.stringify({ onlyWarm: after.filter((k) => !fresh.includes(k)), onlyFresh: fresh.filter((k) => !after.includes(k)) }));
} finally {
  writeFileSync(file, original);
}
