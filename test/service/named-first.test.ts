// A warm program's named files first (issue 36 item 2) on real files and the project's TypeScript: the named part is
// exactly the whole answer's part for those files, and the check after it is the whole answer — also when a file
// changed in between — each compared with a cold `tsc --noEmit -p`.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import type * as TS from "typescript";
import { loadTypeScript, WarmTsProgram } from "../../src/typescript/warm-program.ts";
import { REPO, removeDir, tempDir } from "../helpers.ts";

const USERS = 12;
const HUB = "export function hub(x: number): number {\n  return x + 1;\n}\n";
const RETYPED = `export function hub(x: string): string {\n  return x;\n}\nexport const own: number = "hub";\n`;

/** A program over a hub and its importers, the project's TypeScript loaded as a warm host loads it. */
function withHub(body: (facts: { root: string; ts: typeof TS; program: WarmTsProgram; hub: string }) => void, options: Record<string, unknown> = {}): void {
  const root = tempDir("signalint-named-first-");
  try {
    const ts = loadTypeScript(join(REPO, "node_modules", "typescript"));
    assert.ok(ts);
    writeFileSync(
      join(root, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { strict: true, noEmit: true, module: "nodenext", ...options }, include: ["*.ts"] }),
    );
    writeFileSync(join(root, "package.json"), JSON.stringify({ type: "module" }));
    writeFileSync(join(root, "hub.ts"), HUB);
    for (let index = 0; index < USERS; index++)
      writeFileSync(join(root, `use${index}.ts`), `import { hub } from "./hub.js";\nexport const v${index} = hub(${index});\n`);
    const program = new WarmTsProgram(ts, join(root, "tsconfig.json"));
    body({ root, ts, program, hub: join(root, "hub.ts") });
  } finally {
    removeDir(root);
  }
}

/** Diagnostics as `file:line:col TScode`, sorted. */
function keys(ts: typeof TS, root: string, diagnostics: readonly TS.Diagnostic[]): string[] {
  return diagnostics
    .map((diagnostic) => {
      const file = diagnostic.file as TS.SourceFile;
      const at = ts.getLineAndCharacterOfPosition(file, diagnostic.start ?? 0);
      return `${file.fileName.slice(root.length + 1)}:${at.line + 1}:${at.character + 1} TS${diagnostic.code}`;
    })
    .sort();
}

/** A cold `tsc --noEmit -p` of the project, as keys. */
function cold(root: string): string[] {
  const run = spawnSync(process.execPath, [join(REPO, "node_modules", "typescript", "bin", "tsc"), "--pretty", "false", "-p", "tsconfig.json"], {
    cwd: root,
    encoding: "utf8",
  });
  return [...run.stdout.matchAll(/^(.+)\((\d+),(\d+)\): error (TS\d+)/gm)].map((match) => `${match[1]}:${match[2]}:${match[3]} ${match[4]}`).sort();
}

describe("a warm program's named files first", () => {
  it("answers the edited hub alone, pending its importers; the next check is the whole answer", () => {
    withHub(({ root, ts, program, hub }) => {
      assert.deepEqual(keys(ts, root, program.check(null)?.diagnostics ?? []), []);
      writeFileSync(hub, RETYPED);
      const named = program.checkFirst(null, [hub]);
      assert.ok(named);
      assert.equal(named.pending, USERS);
      assert.equal(named.info.reuse, "incremental");
      const whole = cold(root);
      assert.equal(whole.length, USERS + 1);
      assert.deepEqual(
        keys(ts, root, named.diagnostics),
        whole.filter((key) => key.startsWith("hub.ts:")),
      );
      const rest = program.check(null);
      assert.equal(rest?.info.reuse, "incremental", "the rest of the same build, not a new one");
      assert.deepEqual(keys(ts, root, rest?.diagnostics ?? []), whole);
      assert.equal(program.check(null)?.info.reuse, "reused", "then nothing is left to do");
    });
  });

  it("after a file changed between the named answer and the rest, the next check rebuilds on it and equals a cold tsc", () => {
    withHub(({ root, ts, program, hub }) => {
      program.check(null);
      writeFileSync(hub, RETYPED);
      assert.equal(program.checkFirst(null, [hub])?.pending, USERS);
      writeFileSync(join(root, "use3.ts"), 'import { hub } from "./hub.js";\nexport const v3 = hub("3");\nexport const late: number = "late";\n');
      const rest = program.check(null);
      assert.deepEqual(keys(ts, root, rest?.diagnostics ?? []), cold(root));
    });
  });

  it("answers whole when there is nothing else to re-check, or an early error stops tsc before any file's check", () => {
    withHub(({ root, ts, program, hub }) => {
      program.check(null);
      writeFileSync(join(root, "use5.ts"), 'import { hub } from "./hub.js";\nexport const v5: string = hub(5);\n');
      // A leaf's edit leaves nobody affected, yet tsc's answer is the program's: the named part comes with the rest pending.
      const leaf = program.checkFirst(null, [join(root, "use5.ts")]);
      assert.equal(leaf?.pending, USERS, "every other file may change, as far as the answer can tell");
      assert.deepEqual(keys(ts, root, program.check(null)?.diagnostics ?? []), cold(root));
      writeFileSync(hub, `${RETYPED}export const broken = ;\n`);
      const syntax = program.checkFirst(null, [hub]);
      assert.equal(syntax?.pending, undefined, "a syntax error: tsc reports it alone, the whole answer at once");
      assert.deepEqual(keys(ts, root, syntax?.diagnostics ?? []), cold(root));
      assert.equal(program.checkFirst(null, [hub])?.info.reuse, "reused", "nothing changed since: the last answer");
    });
  });
  it("a config diagnostic tsc reports beside the semantic ones (an unknown option) still lets the named files come first, with it", () => {
    withHub(
      ({ root, ts, program, hub }) => {
        const before = keys(ts, root, program.check(null)?.diagnostics ?? []);
        assert.deepEqual(before, cold(root));
        assert.deepEqual(
          before.map((key) => key.replace(/:.*? /, " ")),
          ["tsconfig.json TS5023"],
        );
        writeFileSync(hub, RETYPED);
        const named = program.checkFirst(null, [hub]);
        assert.equal(named?.pending, USERS, "tsc checks every file despite it: so does the named part");
        const whole = cold(root);
        assert.deepEqual(
          keys(ts, root, named?.diagnostics ?? []),
          whole.filter((key) => key.startsWith("hub.ts:") || key.startsWith("tsconfig.json:")),
        );
        assert.deepEqual(keys(ts, root, program.check(null)?.diagnostics ?? []), whole);
      },
      { notAnOption: true },
    );
  });
});
