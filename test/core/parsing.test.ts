import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { compileIgnore } from "../../src/core/glob.ts";
import { parseJsonc } from "../../src/core/jsonc.ts";

describe("JSONC (jsonc-parser)", () => {
  it("keeps strings that contain ,] and ,} as they are", () => {
    assert.deepEqual(parseJsonc('{ "a": "x,]", "b": "y, }", "c": [1,], }'), { a: "x,]", b: "y, }", c: [1] });
  });
  it("skips a leading UTF-8 BOM", () => {
    assert.deepEqual(parseJsonc('\uFEFF{ "files": [], "references": [{ "path": "./a" }] }'), { files: [], references: [{ path: "./a" }] });
  });
  it("throws a SyntaxError naming the error and its line and column", () => {
    assert.throws(
      () => parseJsonc('{ "a": 1,\n  "b" 2 }'),
      (error: unknown) => error instanceof SyntaxError && /ColonExpected at line 2, column 7/.test(error.message),
    );
    assert.throws(() => parseJsonc(""), SyntaxError);
  });
});

describe("ignore globs (picomatch)", () => {
  it("supports braces, classes and extglobs", () => {
    const ignored = compileIgnore(["src/{gen,out}/**", "lib/[ab].ts", "**/*.@(spec|test).ts"]);
    assert.ok(ignored("src/gen/x.ts"));
    assert.ok(ignored("src/out/y/z.ts"));
    assert.ok(!ignored("src/lib/x.ts"));
    assert.ok(ignored("lib/a.ts") && ignored("lib/b.ts") && !ignored("lib/c.ts"));
    assert.ok(ignored("deep/x.spec.ts") && ignored("x.test.ts") && !ignored("x.ts"));
  });
  it("re-includes with !, the last matching glob deciding", () => {
    const ignored = compileIgnore(["generated", "!generated/keep.ts"]);
    assert.ok(ignored("generated/a.ts"));
    assert.ok(!ignored("generated/keep.ts"));
    assert.ok(!ignored("src/a.ts"));
    const again = compileIgnore(["generated", "!generated/keep.ts", "**/keep.ts"]);
    assert.ok(again("generated/keep.ts"));
  });
  it("treats a backslash as an escape, never as a separator", () => {
    assert.ok(!compileIgnore(["src\\gen"])("src/gen/a.ts"));
  });
});
