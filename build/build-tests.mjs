// Compile every test/**/*.test.ts into dist/test/*.test.mjs (Node 20's test runner cannot load .ts).
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";

const files = readdirSync("test", { recursive: true })
  .map(String)
  .filter((name) => name.endsWith(".test.ts"))
  .map((name) => join("test", name));

rmSync("dist/test", { recursive: true, force: true });
await build({
  entryPoints: files,
  outdir: "dist/test",
  outbase: "test",
  outExtension: { ".js": ".mjs" },
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  packages: "external", // tests import the SDK, zod and friends from node_modules as users would
  logLevel: "warning",
});
