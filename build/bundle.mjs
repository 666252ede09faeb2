// Bundle src/main.ts into one file per module format with every dependency inside; only node: builtins stay external.
import { chmodSync, statSync } from "node:fs";
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

await build({
  ...common,
  format: "esm",
  outfile: `${outdir}/signalint-mcp.mjs`,
  // Bundled CommonJS dependencies call require() for builtins; give the ESM bundle a real require. Only builtins are
  // required, so any file URL will do when the bundle itself was loaded over http(s) (deno run https://…).
  banner: {
    js: [
      "#!/usr/bin/env node",
      "import { createRequire as __signalintRequire } from 'node:module';",
      "const require = __signalintRequire(import.meta.url.startsWith('file:') ? import.meta.url : 'file:///signalint-mcp.mjs');",
    ].join("\n"),
  },
});

await build({
  ...common,
  format: "cjs",
  outfile: `${outdir}/signalint-mcp.cjs`, // the entry the standalone binaries embed (Node SEA needs CommonJS)
  banner: { js: "#!/usr/bin/env node" },
});
// The npm bin and a clone's `./dist/signalint-mcp.mjs` run directly through the shebang.
chmodSync(`${outdir}/signalint-mcp.mjs`, 0o755);

// Say what was written, one line per file, with its size (npm run build was silent).
for (const file of [`${outdir}/signalint-mcp.mjs`, `${outdir}/signalint-mcp.cjs`]) {
  const bytes = statSync(file).size;
  console.log(`wrote ${file} (${(bytes / 1024 / 1024).toFixed(2)} MB, ${bytes.toLocaleString("en-US")} bytes)`);
}
