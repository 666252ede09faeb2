// Bundle src/main.ts with every dependency inside (only node: builtins stay external): for npm, an ESM entry and the
// chunks it loads; one ESM file for deno run <url>; one CommonJS file for the standalone binaries.
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";

// --outdir=DIR writes the two files there instead of dist/ (a test builds into a temporary directory).
const outdir = process.argv.find((arg) => arg.startsWith("--outdir="))?.slice("--outdir=".length) ?? "dist";

const common = {
  entryPoints: ["src/main.ts"],
  bundle: true,
  platform: "node", // resolve packages for Node; Deno runs the same ESM bundle through its node: compatibility
  target: "node20",
  legalComments: "none", // keep the single-file bundle small; licenses ship in the npm package
  // jsonc-parser's "main" is a UMD build whose require() calls esbuild cannot follow; its ES module build bundles.
  alias: { "jsonc-parser": "jsonc-parser/lib/esm/main.js" },
  logLevel: "warning",
};

// Bundled CommonJS dependencies call require() for builtins; give an ESM bundle a real require. Only builtins are
// required, so any file URL will do when the bundle itself was loaded over http(s) (deno run https://…).
const esmRequire = [
  "import { createRequire as __signalintRequire } from 'node:module';",
  "const require = __signalintRequire(import.meta.url.startsWith('file:') ? import.meta.url : 'file:///signalint-mcp.mjs');",
].join("\n");

// The tool catalog (src/mcp/tool-catalog.ts: every tool's JSON schemas from its zod contracts, initialize's result
// from the SDK's Server), computed here and embedded in both bundles as an object literal (see the define below): the
// stdio front answers initialize and tools/list from it before zod and the SDK are loaded. Bundled to a temporary file
// and run once.
mkdirSync(outdir, { recursive: true });
const scratch = mkdtempSync(join(tmpdir(), "signalint-catalog-"));
let catalog;
try {
  const script = join(scratch, "tool-catalog.mjs");
  await build({ ...common, entryPoints: ["src/mcp/tool-catalog.ts"], format: "esm", outfile: script, banner: { js: esmRequire } });
  catalog = JSON.stringify(await (await import(pathToFileURL(script).href)).prepareToolCatalog());
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
// An object literal (esbuild takes JSON as a define's value): its strings are JSON pieces the front joins into its
// answers, so nothing is parsed at a start.
common.define = { __signalintToolCatalog: catalog };

// npm's bundle: the entry (src/main.ts: the stdio front and the few modules it needs) and, beside it, the chunks the
// front loads when it hands over (run.ts: zod, the SDK, everything else); a start compiles only the entry before it
// answers. Chunk names carry no hash, so a rebuild replaces them (package.json lists dist/signalint-mcp*.mjs).
for (const stale of readdirSync(outdir, { withFileTypes: true }).filter((entry) => /^signalint-mcp-.*\.mjs$/.test(entry.name)))
  rmSync(join(outdir, stale.name));
const split = await build({
  ...common,
  entryPoints: { "signalint-mcp": "src/main.ts" },
  format: "esm",
  splitting: true, // ESM only: the dynamic import of run.ts becomes a chunk loaded on demand
  outdir,
  entryNames: "[name]",
  chunkNames: "signalint-mcp-[name]",
  outExtension: { ".js": ".mjs" },
  metafile: true,
  banner: { js: `#!/usr/bin/env node\n${esmRequire}` },
});

// One file for `deno run <url>` (the release asset): chunks beside it would not resolve behind a download's redirect.
// run.ts is wrapped by esbuild to be evaluated on the front's import, not at load, in the one-file bundles too.
await build({ ...common, format: "esm", outfile: `${outdir}/single/signalint-mcp.mjs`, banner: { js: `#!/usr/bin/env node\n${esmRequire}` } });

await build({
  ...common,
  format: "cjs",
  outfile: `${outdir}/signalint-mcp.cjs`, // the entry the standalone binaries embed (Node SEA needs CommonJS)
  banner: { js: "#!/usr/bin/env node" },
});
// The npm bin and a clone's `./dist/signalint-mcp.mjs` run directly through the shebang.
chmodSync(`${outdir}/signalint-mcp.mjs`, 0o755);

// Say what was written, one line per file, with its size (npm run build was silent).
console.log(`embedded the tool catalog (${(catalog.length / 1024).toFixed(0)} KB of JSON) in the bundles`);
const chunks = Object.keys(split.metafile.outputs)
  .map((file) => `${outdir}/${basename(file)}`)
  .sort();
for (const file of [...chunks, `${outdir}/single/signalint-mcp.mjs`, `${outdir}/signalint-mcp.cjs`]) {
  const bytes = statSync(file).size;
  console.log(`wrote ${file} (${(bytes / 1024 / 1024).toFixed(2)} MB, ${bytes.toLocaleString("en-US")} bytes)`);
}
