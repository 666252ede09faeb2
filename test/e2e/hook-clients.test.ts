import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { BUNDLE, CLEAN_PATH, linkBin, linkPackage, removeDir, REPO, runCli, STATE_HOME, tempDir } from "../helpers.ts";
import { projectFrom } from "../helpers/project.ts";

const A = "export function mergePath(a: string, b: string): string {\n  return `${a}/${b}`;\n}\n";
const RENAMED = A.replace("mergePath", "joinPath");
/** How many files import a.ts besides main.ts: the rename breaks them all, more than the hook's 20 lines can list. */
const DEPENDENTS = 24;

/** a.ts, imported by main.ts and DEPENDENTS more files; log.js for a warning; tsc and oxlint installed. */
function project(): string {
  const files: Record<string, string> = {
    "package.json": JSON.stringify({ name: "hook-clients", private: true, type: "module" }),
    "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, noEmit: true, module: "nodenext", allowJs: true }, include: ["src"] }),
    "src/a.ts": A,
    "src/main.ts": 'import { mergePath } from "./a.js";\n\nexport const where = mergePath("x", "y");\n',
    "src/log.js": "export function log(message) {\n  console.log(message);\n}\n",
  };
  for (let index = 0; index < DEPENDENTS; index++)
    files[`src/use${index}.ts`] = `import { mergePath } from "./a.js";\n\nexport const p${index} = mergePath("a", "${index}");\n`;
  const dir = projectFrom(files, "signalint-hook-clients-");
  linkPackage(dir, "typescript", join(REPO, "node_modules", "typescript"));
  linkBin(dir, "tsc", join(REPO, "node_modules", "typescript", "bin", "tsc"));
  linkPackage(dir, "oxlint", join(REPO, "node_modules", "oxlint"));
  return dir;
}

/** Each client's real per-edit hook input for an edit of `file` (absolute) in `dir`. */
const INPUTS = {
  claude: (dir: string, file: string) => ({
    session_id: "s1",
    hook_event_name: "PostToolUse",
    cwd: dir,
    tool_name: "Edit",
    tool_input: { file_path: file, old_string: "x", new_string: "y" },
    tool_response: { success: true },
  }),
  cursor: (dir: string, file: string) => ({ hook_event_name: "afterFileEdit", workspace_roots: [dir], file_path: file, edits: [] }),
  gemini: (dir: string, file: string) => ({
    session_id: "s1",
    hook_event_name: "AfterTool",
    cwd: dir,
    timestamp: "2026-01-01T00:00:00Z",
    tool_name: "write_file",
    tool_input: { file_path: file, content: "…" },
    tool_response: { llmContent: "ok", returnDisplay: "ok" },
  }),
  // Codex's apply_patch names its files, relative to cwd, in the patch itself.
  codex: (dir: string, file: string) => ({
    session_id: "s1",
    hook_event_name: "PostToolUse",
    cwd: dir,
    tool_name: "apply_patch",
    tool_input: { command: `*** Begin Patch\n*** Update File: ${file.slice(dir.length + 1)}\n@@\n-x\n+y\n*** End Patch\n` },
  }),
};

describe("the hook after an edit that breaks its dependents, for each client's input", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  it("names the errors the edit introduced elsewhere (within 20 lines), what a fix fixed, and lists warnings with exit 0", () => {
    const dir = project();
    const state = tempDir("signalint-state-");
    dirs.push(dir, state);
    const env = {
      PATH: CLEAN_PATH,
      HOME: dir,
      XDG_STATE_HOME: STATE_HOME,
      SIGNALINT_DAEMON: "1",
      SIGNALINT_STATE_DIR: state,
      SIGNALINT_PREWARM_DELAY_MS: "off",
    };
    const hook = (client: keyof typeof INPUTS, file: string) => {
      const result = spawnSync(process.execPath, [BUNDLE, "hook"], {
        cwd: dir,
        env,
        input: JSON.stringify(INPUTS[client](dir, join(dir, file))),
        encoding: "utf8",
      });
      return { status: result.status, stderr: result.stderr, lines: result.stderr.trimEnd().split("\n") };
    };
    try {
      const first = hook("claude", "src/a.ts");
      assert.equal(first.status, 0, first.stderr);
      for (const [client, content] of [
        ["claude", RENAMED],
        ["cursor", A],
        ["gemini", RENAMED],
        ["codex", A],
      ] as const) {
        writeFileSync(join(dir, "src", "a.ts"), content);
        const after = hook(client, "src/a.ts");
        if (content === RENAMED) {
          assert.equal(after.status, 2, `${client}: ${after.stderr}`);
          assert.match(
            after.lines[0] ?? "",
            new RegExp(`^Signalint after editing src/a\\.ts: ${DEPENDENTS + 1} errors this edit introduced in other files`),
            client,
          );
          assert.match(after.stderr, /^src\/(main|use\d+)\.ts:1:\d+ error TS(2305|2724) \(tsc\)/m, client);
          assert.ok(after.lines.length <= 20, `${client}: ${after.lines.length} lines`);
          // Engines off by default here are one line, not a line each ahead of the errors that did not fit.
          assert.match(after.stderr, /^- off for this project: biome, eslint, deno \(`signalint-mcp doctor` says why\)$/m, client);
          assert.doesNotMatch(after.stderr, / did not run: /, client);
          assert.match(after.stderr, /… and \d+ more: run `signalint-mcp check`/, client);
        } else {
          assert.equal(after.status, 0, `${client}: ${after.stderr}`);
          assert.match(after.stderr, new RegExp(`^fixed by this edit: ${DEPENDENTS + 1} errors \\(src/`, "m"), client);
        }
      }
      // A warning alone is listed, and the agent is not stopped for it (exit 0) unless hook.failOn is "warning".
      writeFileSync(join(dir, "src", "log.js"), "export function log(message) {\n  debugger;\n  console.log(message);\n}\n");
      const warned = hook("claude", "src/log.js");
      assert.equal(warned.status, 0, warned.stderr);
      assert.match(warned.stderr, /^Signalint after editing src\/log\.js: 1 warning$/m);
      assert.match(warned.stderr, /^src\/log\.js:2:3 warning .*no-debugger/m);
      writeFileSync(join(dir, "signalint.config.json"), JSON.stringify({ hook: { failOn: "warning" } }));
      const strict = hook("cursor", "src/log.js");
      assert.equal(strict.status, 2, strict.stderr);
      assert.match(strict.stderr, /^src\/log\.js:2:3 warning .*no-debugger/m);
    } finally {
      const stop = runCli(["daemon", "stop"], { cwd: dir, env });
      assert.equal(stop.status, 0, stop.stderr);
    }
  });

  it("a Codex patch that adds and moves files checks each file it leaves", () => {
    const dir = project();
    const state = tempDir("signalint-state-");
    dirs.push(dir, state);
    writeFileSync(join(dir, "src", "new.ts"), 'export const n: number = "x";\n');
    const patch =
      "*** Begin Patch\n*** Add File: src/new.ts\n+x\n*** Update File: src/old.ts\n*** Move to: src/main.ts\n@@\n-a\n+b\n*** Delete File: src/gone.ts\n*** End Patch\n";
    const result = spawnSync(process.execPath, [BUNDLE, "hook"], {
      cwd: dir,
      env: { PATH: CLEAN_PATH, HOME: dir, XDG_STATE_HOME: STATE_HOME, SIGNALINT_DAEMON: "0", SIGNALINT_STATE_DIR: state },
      input: JSON.stringify({ hook_event_name: "PostToolUse", cwd: dir, tool_name: "apply_patch", tool_input: { command: patch } }),
      encoding: "utf8",
    });
    assert.equal(result.status, 2, result.stderr);
    assert.match(result.stderr, /^Signalint after editing src\/new\.ts, src\/main\.ts: 1 error in the edited files/m);
    assert.match(result.stderr, /^src\/new\.ts:1:14 error TS2322/m);
  });

  it("a check that cannot finish within hook.budgetSeconds says what may be affected and exits 1 (never a silent pass)", () => {
    const dir = project();
    const state = tempDir("signalint-state-");
    dirs.push(dir, state);
    writeFileSync(join(dir, "signalint.config.json"), JSON.stringify({ hook: { budgetSeconds: 0 } }));
    writeFileSync(join(dir, "src", "a.ts"), RENAMED);
    const result = spawnSync(process.execPath, [BUNDLE, "hook"], {
      cwd: dir,
      env: { PATH: CLEAN_PATH, HOME: dir, XDG_STATE_HOME: STATE_HOME, SIGNALINT_DAEMON: "0", SIGNALINT_STATE_DIR: state },
      input: JSON.stringify(INPUTS.claude(dir, join(dir, "src", "a.ts"))),
      encoding: "utf8",
    });
    assert.equal(result.status, 1, result.stderr);
    assert.match(
      result.stderr,
      /^Signalint after editing src\/a\.ts: the check did not finish within 0 s \(hook\.budgetSeconds in signalint\.config\.json\), so the edited files and the files that import them may have errors: run `signalint-mcp check`$/m,
    );
  });
});
