// Warm TypeScript answers that used to differ from a cold run: module-resolution changes (a file shadowing the
// directory an import resolved to, a linked workspace package's "types"/"exports"), TypeScript upgraded in place, and a
// tsconfig.json with a syntax error. Each check is compared with `tsc --noEmit -p` run directly.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { CheckResponse } from "../../src/core/contracts.ts";
import { createNodeRuntime } from "../../src/runtime/node.ts";
import { SignalintService } from "../../src/service/signalint.ts";
import { BUNDLE, REPO, removeDir, serviceIssues, tempDir } from "../helpers.ts";
import { writeFiles, writeProjectFile } from "../helpers/project.ts";

const TSCONFIG =
  '{ "compilerOptions": { "strict": true, "noEmit": true, "target": "ES2022", "lib": ["ES2022"], "module": "ESNext", "moduleResolution": "bundler", "skipLibCheck": true, "types": [] }, "include": ["src"] }';

interface Scratch {
  project: string;
  write: (path: string, text: string) => void;
  /** check_files (or check_project for "."), after the warm program asked for by the previous check is built. */
  check: (...files: string[]) => Promise<CheckResponse>;
  /** `file:line rule` of every tsc issue of the last response, and of a cold run (restricted to `files`). */
  tscKeys: (response: CheckResponse) => string[];
  cold: (...files: string[]) => string[];
  close: () => void;
}

async function scratch(files: Record<string, string>, typescript: "link" | "copy" = "link", version = "typescript"): Promise<Scratch> {
  const project = tempDir("signalint-warm-res-");
  const write = (path: string, text: string) => writeProjectFile(project, path, text);
  let service: SignalintService;
  try {
    write("signalint.config.json", '{ "engines": { "oxlint": false, "biome": false, "eslint": false, "tsc": true } }');
    write("tsconfig.json", TSCONFIG);
    writeFiles(project, files);
    mkdirSync(join(project, "node_modules"), { recursive: true });
    if (typescript === "copy") cpSync(join(REPO, "node_modules", version), join(project, "node_modules", "typescript"), { recursive: true });
    else symlinkSync(join(REPO, "node_modules", version), join(project, "node_modules", "typescript"));
    mkdirSync(join(project, "node_modules", ".bin"), { recursive: true });
    symlinkSync("../typescript/bin/tsc", join(project, "node_modules", ".bin", "tsc"));
    // The state directory inside the project (the default): the file watch's hints serve these warm checks too.
    delete process.env.SIGNALINT_STATE_DIR;
    service = await SignalintService.create(createNodeRuntime({ selfScript: BUNDLE }), { root: project });
  } catch (error) {
    removeDir(project);
    throw error;
  }
  const check = async (...paths: string[]) => {
    const hold = setInterval(() => {}, 1000);
    await Promise.all([service.warmSettled(), service.changes.ready()]).finally(() => clearInterval(hold));
    return service.check(paths.length ? paths : ["."], paths.length > 0);
  };
  const tscKeys = (response: CheckResponse) =>
    serviceIssues(service, response)
      .filter((issue) => issue.engine === "tsc")
      .map((issue) => `${issue.file}:${issue.line}:${issue.col} ${issue.rule}`)
      .sort();
  const cold = (...paths: string[]) => {
    const result = spawnSync(
      process.execPath,
      [join(project, "node_modules", "typescript", "bin", "tsc"), "--noEmit", "--pretty", "false", "-p", "tsconfig.json"],
      { cwd: project, encoding: "utf8" },
    );
    const keys = result.stdout.split("\n").flatMap((line) => {
      const located = /^(.+)\((\d+),(\d+)\): error (TS\d+)/.exec(line);
      if (located) return [`${located[1]}:${located[2]}:${located[3]} ${located[4]}`];
      const global = /^error (TS\d+)/.exec(line);
      return global ? [`tsconfig.json:1:1 ${global[1]}`] : [];
    });
    return keys.filter((key) => !paths.length || paths.some((path) => key.startsWith(`${path}:`)) || /^[^:]*\.json:/.test(key)).sort();
  };
  const close = () => {
    service.close();
    removeDir(project);
  };
  return { project, write, check, tscKeys, cold, close };
}

/** Check until the answer comes from the warm program; returns that answer's mode. */
async function warmUp(scratch: Scratch, file: string): Promise<void> {
  await scratch.check(file);
  const mode = (await scratch.check(file)).cache?.tsc?.mode ?? "";
  assert.match(mode, /^warm-/, "the second check is answered by the warm program");
}

// shared/ is outside the tsconfig's include: only module resolution ever looks there.
const SHADOW = {
  "shared/lib/index.ts": "export const lib = 1;\n",
  "src/main.ts": 'import { lib } from "../shared/lib";\nexport const n: number = lib;\n',
};
const LINKED = {
  "packages/pkg/package.json": '{ "name": "pkg", "version": "1.0.0", "types": "./index.d.ts" }',
  "packages/pkg/index.d.ts": "export declare const pkgValue: number;\n",
  "packages/pkg/alt.d.ts": "export declare const pkgValue: string;\n",
  "src/main.ts": 'import { pkgValue } from "pkg";\nexport const p: number = pkgValue;\n',
};

for (const version of ["typescript", "typescript7"]) {
  describe(`warm ${version === "typescript" ? "TypeScript 5.9" : "TypeScript 7"} sees module-resolution changes`, () => {
    it("a new shared/lib.ts shadowing the shared/lib/index.ts an import resolved to", async () => {
      const s = await scratch(SHADOW, "link", version);
      try {
        await warmUp(s, "src/main.ts");
        s.write("shared/lib.ts", 'export const lib = "shadow";\n');
        const response = await s.check("src/main.ts");
        assert.deepEqual(s.tscKeys(response), ["src/main.ts:2:14 TS2322"]);
        assert.deepEqual(s.tscKeys(response), s.cold("src/main.ts"));
        rmSync(join(s.project, "shared/lib.ts"));
        assert.deepEqual(s.tscKeys(await s.check("src/main.ts")), []);
      } finally {
        s.close();
      }
    });

    it('"types" and then "exports" changed in a linked workspace package\'s package.json', async () => {
      const s = await scratch(LINKED, "link", version);
      symlinkSync("../packages/pkg", join(s.project, "node_modules", "pkg"));
      try {
        await warmUp(s, "src/main.ts");
        s.write("packages/pkg/package.json", '{ "name": "pkg", "version": "1.0.0", "types": "./alt.d.ts" }');
        assert.deepEqual(s.tscKeys(await s.check("src/main.ts")), ["src/main.ts:2:14 TS2322"]);
        s.write("packages/pkg/package.json", '{ "name": "pkg", "version": "1.0.0", "types": "./alt.d.ts", "exports": { ".": { "types": "./index.d.ts" } } }');
        assert.deepEqual(s.tscKeys(await s.check("src/main.ts")), []);
        s.write("packages/pkg/package.json", '{ "name": "pkg", "version": "1.0.0", "exports": { "./other": "./index.d.ts" } }');
        const response = await s.check();
        assert.ok(s.tscKeys(response).length > 0);
        assert.deepEqual(s.tscKeys(response), s.cold());
      } finally {
        s.close();
      }
    });

    it("a same-size rewrite within one file-system timestamp tick (same mtime, size and inode)", async () => {
      const s = await scratch({ "src/tick.ts": "export const tick: number = 1;\n" }, "link", version);
      try {
        await warmUp(s, "src/tick.ts");
        // A coarse clock gives both writes one mtime; set it explicitly so the test does not depend on timing.
        const mtime = new Date(Date.now() + 5000);
        s.write("src/tick.ts", "export const tick: number = 2;\n");
        utimesSync(join(s.project, "src/tick.ts"), mtime, mtime);
        assert.deepEqual(s.tscKeys(await s.check("src/tick.ts")), []);
        s.write("src/tick.ts", "export const tick: string = 2;\n");
        utimesSync(join(s.project, "src/tick.ts"), mtime, mtime);
        assert.deepEqual(s.tscKeys(await s.check("src/tick.ts")), ["src/tick.ts:1:14 TS2322"]);
      } finally {
        s.close();
      }
    });

    it("a tsconfig.json syntax error: every config diagnostic of the cold run, in check_project and check_files alike", async () => {
      const s = await scratch({ "src/ok.ts": "export const ok = 1;\n" }, "link", version);
      try {
        await warmUp(s, "src/ok.ts");
        s.write("tsconfig.json", TSCONFIG.replace('"noEmit": true,', '"noEmit": true').replace('"include"', '"include" "x",'));
        const cold = s.cold();
        assert.ok(cold.length >= 2, cold.join("\n"));
        const files = await s.check("src/ok.ts");
        assert.equal(files.status, "issues_found", "a broken tsconfig is never clean");
        assert.deepEqual(s.tscKeys(files), cold);
        assert.deepEqual(s.tscKeys(await s.check()), cold);
      } finally {
        s.close();
      }
    });
  });
}

describe("a write the file watch reports", () => {
  it("is looked at even when the file keeps its size, its inode and its (old) mtime", async () => {
    const s = await scratch({ "src/a.ts": "export const v: number = 1;\n", "src/b.ts": 'import { v } from "./a";\nexport const w: number = v;\n' });
    try {
      // Old enough that its stamp is not "racy" (a stamp within a second of the write is never trusted).
      const path = join(s.project, "src", "a.ts");
      const past = new Date(Date.now() - 3_600_000);
      utimesSync(path, past, past);
      await warmUp(s, "src/a.ts");
      assert.deepEqual(s.tscKeys(await s.check("src/a.ts")), []);
      // Same length ("number" → "string"), written in place, mtime set back: only the watch's event tells.
      writeFileSync(path, "export const v: string = 1;\n");
      utimesSync(path, past, past);
      const response = await s.check("src/a.ts");
      assert.deepEqual(s.tscKeys(response), s.cold("src/a.ts"));
      assert.equal(s.tscKeys(response).length, 1, "TS2322 in src/a.ts");
    } finally {
      s.close();
    }
  });
});

describe("TypeScript upgraded in place", () => {
  it("a new compiler (cold, then warm again), never the old one kept in memory, and no negative cache hits", async () => {
    // TypeScript 6.0 reports `baseUrl` as deprecated (TS5101); 5.9 does not.
    const s = await scratch({ "src/ok.ts": "export const ok = 1;\n" }, "copy");
    try {
      s.write("tsconfig.json", TSCONFIG.replace('"types": []', '"types": [], "baseUrl": "."'));
      await warmUp(s, "src/ok.ts");
      assert.deepEqual(s.tscKeys(await s.check("src/ok.ts")), []);
      rmSync(join(s.project, "node_modules", "typescript"), { recursive: true });
      cpSync(join(REPO, "node_modules", "typescript6"), join(s.project, "node_modules", "typescript"), { recursive: true });
      const modes: string[] = [];
      for (let round = 0; round < 3; round++) {
        const response = await s.check("src/ok.ts");
        assert.deepEqual(s.tscKeys(response), s.cold("src/ok.ts"));
        assert.equal(s.tscKeys(response).length, 1, "TS5101 from TypeScript 6.0");
        assert.ok((response.cache?.tsc?.hits ?? 0) >= 0, JSON.stringify(response.cache?.tsc));
        modes.push(response.cache?.tsc?.mode ?? "");
      }
      // The swap is seen (the first check after it never repeats the old answer), the program is warm again on the new
      // compiler, and a later check with nothing changed since may repeat that answer (a quiet check).
      assert.notEqual(modes[0], "unchanged", modes.join(", "));
      assert.ok(
        modes.some((mode) => mode.startsWith("warm-")),
        `warm again on the new compiler: ${modes.join(", ")}`,
      );
      assert.ok(
        modes.every((mode, round) => round === 0 || mode.startsWith("warm-") || mode === "unchanged"),
        modes.join(", "),
      );
    } finally {
      s.close();
    }
  });
});
