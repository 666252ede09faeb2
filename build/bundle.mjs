// Bundle src/main.ts into one file per module format with every dependency inside; only node: builtins stay external.
import { build } from "esbuild";

const common = {
  entryPoints: ["src/main.ts"],
  bundle: true,
  platform: "node", // resolve packages for Node; Deno runs the same ESM bundle through its node: compatibility
  target: "node20",
  legalComments: "none", // keep the single-file bundle small; licenses ship in the npm package
  logLevel: "warning",
};

await build({
  ...common,
  format: "esm",
  outfile: "dist/signalint-mcp.mjs",
  // Bundled CommonJS dependencies call require() for builtins; give the ESM bundle a real require.
  banner: { js: "#!/usr/bin/env node\nimport { createRequire as __signalintRequire } from 'node:module';\nconst require = __signalintRequire(import.meta.url);" },
});

await build({
  ...common,
  format: "cjs",
  outfile: "dist/signalint-mcp.cjs", // the entry the standalone binaries embed (Node SEA needs CommonJS)
  banner: { js: "#!/usr/bin/env node" },
});
