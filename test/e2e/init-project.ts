// What the init tests share (test/e2e/init.test.ts, and test/dist/init-launches.test.ts for Deno and the binary).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { BUNDLE, CLEAN_PATH, linkPackage, removeDir, REPO, tempDir } from "../helpers.ts";
import { projectFrom } from "../helpers/project.ts";

/** The TOML init writes: tables and `key = value` lines whose values are JSON-compatible (strings, arrays, integers). */
export function parseToml(text: string): Record<string, Record<string, unknown>> {
  const tables: Record<string, Record<string, unknown>> = { "": {} };
  let current: Record<string, unknown> | undefined = tables[""];
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const header = /^\[([\w.-]+)\]$/.exec(line);
    if (header) {
      const name = header[1] as string;
      assert.ok(!(name in tables), `table ${name} defined twice`);
      current = tables[name] = {};
      continue;
    }
    const pair = /^([\w-]+)\s*=\s*(.+)$/.exec(line);
    assert.ok(pair && current, `not a key/value line in a table: ${line}`);
    current[pair[1] as string] = JSON.parse(pair[2] as string);
  }
  return tables;
}

/** A TypeScript project with one error in src/bad.ts and none in src/good.ts. */
export function initProject(): string {
  const dir = projectFrom(
    {
      "package.json": '{ "name": "init-me", "private": true }\n',
      "tsconfig.json": '{ "compilerOptions": { "strict": true, "noEmit": true }, "include": ["src"] }\n',
      "src/bad.ts": 'export const n: number = "x";\n',
      "src/good.ts": "export const ok = 1;\n",
    },
    "signalint-init-",
  );
  linkPackage(dir, "typescript", join(REPO, "node_modules", "typescript"));
  linkPackage(dir, "oxlint", join(REPO, "node_modules", "oxlint"));
  installSignalint(dir);
  return dir;
}

/**
 * signalint-mcp installed in a project as npm lays a package out (the package with this bundle, and its
 * node_modules/.bin link), so the portable `npx -y signalint-mcp` runs it without the registry.
 */
function installSignalint(dir: string): void {
  const pkg = join(dir, "node_modules", "signalint-mcp");
  mkdirSync(join(pkg, "dist"), { recursive: true });
  writeFileSync(
    join(pkg, "package.json"),
    JSON.stringify({ name: "signalint-mcp", version: "0.0.0-test", bin: { "signalint-mcp": "dist/signalint-mcp.mjs" } }),
  );
  // The npm bundle is an entry and the chunks it imports (build/bundle.mjs): the package ships them all.
  for (const file of readdirSync(dirname(BUNDLE)).filter((name) => /^signalint-mcp.*\.mjs$/.test(name)))
    copyFileSync(join(dirname(BUNDLE), file), join(pkg, "dist", file));
  chmodSync(join(pkg, "dist", "signalint-mcp.mjs"), 0o755);
  mkdirSync(join(dir, "node_modules", ".bin"), { recursive: true });
  symlinkSync("../signalint-mcp/dist/signalint-mcp.mjs", join(dir, "node_modules", ".bin", "signalint-mcp"));
}

/** Run a command in `cwd` with a clean PATH, HOME there and a state directory of its own (removed after). */
export function runIn(command: string, args: string[], cwd: string, options: { input?: string; env?: Record<string, string> } = {}) {
  const stateDir = tempDir("signalint-state-");
  try {
    const result = spawnSync(command, args, {
      cwd,
      encoding: "utf8",
      input: options.input ?? "",
      env: { PATH: CLEAN_PATH, HOME: cwd, SIGNALINT_DAEMON: "0", SIGNALINT_STATE_DIR: stateDir, ...options.env },
    });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  } finally {
    removeDir(stateDir);
  }
}

/** A file of a project, as text. */
export const readIn = (dir: string, path: string) => readFileSync(join(dir, path), "utf8");
