// The files whose types an edit of some files can change (issue 36 item 1, ESLint's typed rules): a warm program's
// import graph reversed, on real files and the project's TypeScript, and how one check gathers every program's answer.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { CheckDependents } from "../../src/service/job/dependents.ts";
import { dependentsOf } from "../../src/typescript/dependents.ts";
import { loadTypeScript, WarmTsProgram } from "../../src/typescript/warm-program.ts";
import { REPO, removeDir, tempDir } from "../helpers.ts";

/** A program of `files` (name → text), checked once; the names of `dependentsOf(named)`, relative (null: it holds none). */
function dependentsIn(files: Record<string, string>, named: string[], module: "nodenext" | "esnext" = "nodenext"): string[] | null {
  const root = tempDir("signalint-dependents-");
  try {
    const ts = loadTypeScript(join(REPO, "node_modules", "typescript"));
    assert.ok(ts);
    // Under module nodenext every file is a module: a global script needs another module kind (esnext, bundler).
    const resolution = module === "esnext" ? { moduleResolution: "bundler" } : {};
    writeFileSync(join(root, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, module, ...resolution }, include: ["*.ts"] }));
    writeFileSync(join(root, "package.json"), JSON.stringify({ type: "module" }));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(root, name), text);
    const program = new WarmTsProgram(ts, join(root, "tsconfig.json"));
    program.check(null);
    const current = program.currentProgram();
    assert.ok(current);
    const found = dependentsOf(
      ts,
      current,
      named.map((name) => join(root, name)),
    );
    assert.deepEqual(
      found.held,
      named.map((name) => join(root, name)).filter((file) => current.getSourceFile(file)),
    );
    return found.held.length ? found.files.map((file) => file.slice(root.length + 1)) : null;
  } finally {
    removeDir(root);
  }
}

describe("the files that import an edit's files", () => {
  it("direct and transitive importers, nearest first; a type import and a re-export count; unrelated files do not", () => {
    const found = dependentsIn(
      {
        "dep.ts": "export function ping(): void {}\n",
        "hub.ts": 'export { ping } from "./dep.js";\n',
        "typed.ts": 'import type { ping } from "./dep.js";\nexport type P = typeof ping;\n',
        "use.ts": 'import { ping } from "./hub.js";\nping();\n',
        "far.ts": 'import type { P } from "./typed.js";\nexport const p: P | null = null;\n',
        "alone.ts": "export const alone = 1;\n",
      },
      ["dep.ts"],
    );
    assert.deepEqual(found, ["hub.ts", "typed.ts", "far.ts", "use.ts"]);
  });

  it("a global script reaches every file; a file the program does not hold has none", () => {
    const files = { "globals.ts": "declare const VERSION: string;\n", "a.ts": "export const a = VERSION;\n", "b.ts": "export const b = 1;\n" };
    assert.deepEqual(dependentsIn(files, ["globals.ts"], "esnext"), ["a.ts", "b.ts"]);
    assert.equal(dependentsIn(files, ["missing.ts"], "esnext"), null);
  });

  it("one check waits for every program that runs, merges them nearest first, and knows nothing once one cannot tell", async () => {
    const toRelative = (file: string) => file.slice(3);
    const both = new CheckDependents(["/p/dep.ts"], toRelative);
    both.expect(["/p/tsconfig.json", "/p/tsconfig.spec.json"]);
    both.report("/p/tsconfig.json", { held: ["/p/dep.ts"], files: ["/p/a.ts", "/p/b.ts"] });
    both.report("/p/tsconfig.spec.json", { held: ["/p/dep.ts"], files: ["/p/t.ts", "/p/a.ts"] });
    assert.deepEqual(await both.answer, { files: ["/p/a.ts", "/p/t.ts", "/p/b.ts"], held: new Set(["/p/dep.ts"]) });
    const one = new CheckDependents(["/p/dep.ts"], toRelative);
    one.expect(["/p/tsconfig.json", "/p/tsconfig.spec.json"]);
    one.report("/p/tsconfig.json", { held: ["/p/dep.ts"], files: ["/p/a.ts"] });
    one.close("tsc did not answer");
    assert.deepEqual(await one.answer, { unknown: "tsc did not answer" });
    const never = new CheckDependents(["/p/dep.ts"], toRelative);
    never.close("tsc is off");
    assert.deepEqual(await never.answer, { unknown: "tsc is off" });
  });

  it("a program that holds none of the files adds nothing and answers for none: which files it held is kept", async () => {
    const toRelative = (file: string) => file.slice(3);
    const some = new CheckDependents(["/p/dep.ts", "/p/scripts/x.ts"], toRelative);
    some.expect(["/p/tsconfig.json", "/p/tsconfig.spec.json"]);
    some.report("/p/tsconfig.json", { held: ["/p/dep.ts"], files: ["/p/a.ts"] });
    some.report("/p/tsconfig.spec.json", { held: [], files: [] });
    assert.deepEqual(await some.answer, { files: ["/p/a.ts"], held: new Set(["/p/dep.ts"]) });
    const none = new CheckDependents(["/p/scripts/x.ts"], toRelative);
    none.expect(["/p/tsconfig.json"]);
    none.report("/p/tsconfig.json", { held: [], files: [] });
    assert.deepEqual(await none.answer, { files: [], held: new Set() });
  });
});
