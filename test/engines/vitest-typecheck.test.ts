// Which vitest runs type-check, and with which tsconfig (engines/tsc-scripts.ts): read from scripts and config text.
import assert from "node:assert/strict";
import { it } from "node:test";
import { vitestTypecheckConfig, vitestTypechecks } from "../../src/engines/tsc-scripts.ts";

it("a script's vitest commands that type-check, and the tsconfig their command line names", () => {
  assert.deepEqual(vitestTypechecks("vitest --run --typecheck.only", false), [{ tsconfig: null }]);
  assert.deepEqual(vitestTypechecks("node x.js --run && vitest --run --typecheck.only", false), [{ tsconfig: null }]);
  assert.deepEqual(vitestTypechecks("CI=1 npx vitest --typecheck", false), [{ tsconfig: null }]);
  assert.deepEqual(vitestTypechecks("pnpm exec vitest --typecheck.only", false), [{ tsconfig: null }]);
  // `typecheck` is a filter since vitest 1; `vitest` as a word of another command is no run.
  assert.deepEqual(vitestTypechecks("vitest typecheck", false), []);
  assert.deepEqual(vitestTypechecks("pnpm --filter vitest run build", true), []);
  assert.deepEqual(vitestTypechecks("vitest run --no-typecheck", true), []);
  assert.deepEqual(vitestTypechecks("npx vitest run --typecheck --typecheck.tsconfig tsconfig.test.json", false), [{ tsconfig: "tsconfig.test.json" }]);
  assert.deepEqual(vitestTypechecks("vitest --typecheck.enabled --typecheck.tsconfig=./t/tsconfig.json", false), [{ tsconfig: "./t/tsconfig.json" }]);
  // A plain run type-checks only when its config enables it; the command line can turn it off.
  assert.deepEqual(vitestTypechecks("vitest run", false), []);
  assert.deepEqual(vitestTypechecks("vitest run", true), [{ tsconfig: null }]);
  assert.deepEqual(vitestTypechecks("vitest run --typecheck=false", true), []);
  assert.deepEqual(vitestTypechecks("tsc -p . && eslint .", true), []);
});

it("a vitest config's typecheck block: its tsconfig and whether every run type-checks", () => {
  const reselect = "export default defineConfig({\n  test: {\n    typecheck: { tsconfig: 'type-tests/tsconfig.json' },\n    globals: true,\n  }\n})\n";
  assert.deepEqual(vitestTypecheckConfig(reselect), { tsconfig: "type-tests/tsconfig.json", enabled: false });
  assert.deepEqual(vitestTypecheckConfig('test: { typecheck: {\n enabled: true,\n tsconfig: "./tsconfig.vitest.json" } }'), {
    tsconfig: "./tsconfig.vitest.json",
    enabled: true,
  });
  // vitest's documented default include glob has braces inside a string; a commented-out line says nothing.
  const withGlob =
    "test: {\n  typecheck: {\n    include: ['**/*.{test,spec}-d.?(c|m)[jt]s?(x)'],\n    // enabled: false,\n    enabled: true,\n    tsconfig: './tsconfig.test.json',\n  },\n}";
  assert.deepEqual(vitestTypecheckConfig(withGlob), { tsconfig: "./tsconfig.test.json", enabled: true });
  assert.deepEqual(vitestTypecheckConfig("test: { typecheck: { /* enabled: true */ tsconfig: 'a.json' } }"), { tsconfig: "a.json", enabled: false });
  assert.deepEqual(vitestTypecheckConfig("test: { typecheck: {\n  // enabled: true\n} }"), { tsconfig: null, enabled: false });
  // A tsconfig elsewhere in the config (vite's own options) is not vitest's type-check.
  assert.deepEqual(vitestTypecheckConfig("export default { esbuild: { tsconfigRaw: {} }, test: { globals: true } }"), { tsconfig: null, enabled: false });
});
