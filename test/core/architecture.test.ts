import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { it } from "node:test";
import { REPO } from "../helpers.ts";

function sources(dir: string): string[] {
  return readdirSync(join(REPO, dir), { recursive: true })
    .map(String)
    .filter((name) => name.endsWith(".ts"))
    .map((name) => join(dir, name));
}

it("src/core is pure: no node: imports, no process or Deno, no imports from outside core", () => {
  for (const file of sources("src/core")) {
    const text = readFileSync(join(REPO, file), "utf8");
    for (const [, specifier] of text.matchAll(/from\s+"([^"]+)"/g)) {
      // Pure parsing libraries only: zod, jsonc-parser, and picomatch's posix entry (plain picomatch reads process.platform).
      assert.ok(
        ["zod", "jsonc-parser", "picomatch/posix.js"].includes(specifier as string) || (specifier?.startsWith("./") && !specifier.includes("..")),
        `${file} imports ${specifier}`,
      );
    }
    assert.doesNotMatch(text, /\bprocess\.|\bDeno\./, `${file} touches process or Deno`);
  }
});

it("process and Deno appear only in runtime/, cli/ and main.ts", () => {
  for (const file of sources("src")) {
    if (/src\/(runtime|cli)\/|src\/main\.ts$/.test(file)) continue;
    assert.doesNotMatch(readFileSync(join(REPO, file), "utf8"), /\bprocess\.|\bDeno\./, file);
  }
});

it("the environment and the working directory are read only in runtime/ (Runtime.env, ProcessShell.env and cwd)", () => {
  for (const file of sources("src")) {
    if (file.startsWith(join("src", "runtime"))) continue;
    assert.doesNotMatch(readFileSync(join(REPO, file), "utf8"), /\b(process|Deno)\.(env|cwd)\b/, file);
  }
});

it("dependencies point down: engines and core never import typescript, service, mcp or cli", () => {
  for (const file of [...sources("src/engines"), ...sources("src/core")]) {
    assert.doesNotMatch(readFileSync(join(REPO, file), "utf8"), /from "\.\.\/(typescript|service|mcp|cli)\//, file);
  }
});

it("warm TypeScript sits under service: src/typescript never imports service, mcp or cli", () => {
  for (const file of sources("src/typescript")) {
    assert.doesNotMatch(readFileSync(join(REPO, file), "utf8"), /from "\.\.\/(service|mcp|cli)\//, file);
  }
});

it('service code never turns a failed read into "nothing there": only not_found is swallowed (ifMissing)', () => {
  // A bare `.catch(() => null | [] | "")` (or `.then(…).catch(() => null)` over lines) makes an unreadable config or
  // directory look empty or absent; core/errors.ts ifMissing(fallback) rethrows every failure but not_found.
  const bare = /\.catch\(\s*(?:\(\s*\)|_\w*|\(\s*_\w*\s*\))\s*=>\s*(?:null|\[\s*\]|""|''|``)\s*\)/;
  for (const file of sources("src/service")) {
    const text = readFileSync(join(REPO, file), "utf8");
    const line = text.split("\n").findIndex((entry) => bare.test(entry));
    assert.equal(line, -1, `${file}:${line + 1} swallows every failure; use .catch(ifMissing(…)) or handle the error`);
    assert.doesNotMatch(text.replace(/\s+/g, " "), bare, file);
  }
});

it("every catch that drops its error says why: a reason comment, a rethrow, or a named tolerance (ifMissing)", () => {
  // `catch {` (no binding) and `.catch(() => …)` (the error unnamed) swallow whatever failed; each needs its reason on
  // the catch line or the next (`catch {` + `// why` or `throw …`), or, for `.catch`, on its line, the two above or the
  // next. `.catch(ifMissing(…))` names what it tolerates and needs none.
  const unnamed = /\.catch\(\s*(?:\(\s*\)|_\w*|\(\s*_\w*\s*\))\s*=>/;
  const comment = (line: string | undefined) => line !== undefined && /\/\/|^\s*\/?\*/.test(line);
  const found: string[] = [];
  for (const file of sources("src")) {
    const lines = readFileSync(join(REPO, file), "utf8").split("\n");
    lines.forEach((line, index) => {
      const next = lines[index + 1];
      if (/\bcatch \{/.test(line) && !comment(line) && !comment(next) && !/^\s*throw\b/.test(next ?? "")) found.push(`${file}:${index + 1}`);
      if (unnamed.test(line) && ![line, lines[index - 1], lines[index - 2], next].some(comment)) found.push(`${file}:${index + 1}`);
    });
  }
  assert.deepEqual(found, [], "each of these catches drops every failure without a word: say why in a comment, or name what it tolerates");
});

/** Which layers each layer may import (DESIGN.md §2: dependencies point down; the runtime is passed in). */
const LAYERS: Record<string, readonly string[]> = {
  core: [],
  runtime: ["core"],
  engines: ["core", "runtime"],
  typescript: ["core", "engines", "runtime"],
  service: ["core", "engines", "runtime", "typescript"],
  daemon: ["core", "runtime", "service"],
  client: ["core", "daemon", "runtime", "service"],
  mcp: ["core", "runtime", "service"],
  cli: ["client", "core", "daemon", "engines", "mcp", "runtime", "service"],
};

/** Every relative import of every source file (type-only imports included), as repository paths. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sources("src")) {
    const text = readFileSync(join(REPO, file), "utf8");
    const targets = [...text.matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)].map((match) => join(dirname(file), match[1] as string));
    graph.set(file, targets);
  }
  return graph;
}

it("layers import only the layers below them (service never imports mcp or cli)", () => {
  const layerOf = (file: string) => file.split("/")[1] as string;
  for (const [file, targets] of importGraph()) {
    const allowed = LAYERS[layerOf(file)];
    if (!allowed) continue; // src/main.ts and src/version.ts
    for (const target of targets) {
      const layer = layerOf(target);
      if (layer === layerOf(file) || target === "src/version.ts") continue;
      assert.ok(allowed.includes(layer), `${file} imports ${target}: ${layerOf(file)} may import only ${allowed.join(", ") || "itself"}`);
    }
  }
});

/**
 * The rooms of src/service, by floor, lowest first (docs/architecture.md): a room imports only rooms on floors below
 * its own, never one beside or above it. api.ts and signalint.ts, the composition root, sit above every room.
 */
const SERVICE_FLOORS: readonly (readonly string[])[] = [
  ["freshness"],
  ["project"],
  ["history", "job"],
  ["lint", "tsc"],
  ["check"],
  ["workflow", "report"],
  ["fix"],
];

it("service rooms import only the rooms on floors below theirs (an upward or sideways import fails)", () => {
  const floorOf = (room: string) => SERVICE_FLOORS.findIndex((floor) => floor.includes(room));
  const roomOf = (file: string) => (file.startsWith("src/service/") ? file.split("/").slice(2, -1)[0] : undefined);
  for (const [file, targets] of importGraph()) {
    const room = roomOf(file);
    if (room === undefined) continue; // outside service, or api.ts / signalint.ts (above every room)
    assert.ok(floorOf(room) >= 0, `src/service/${room}/ is on no floor of SERVICE_FLOORS`);
    for (const target of targets) {
      const other = roomOf(target);
      if (other === undefined || other === room) continue;
      assert.ok(
        floorOf(other) >= 0 && floorOf(other) < floorOf(room),
        `${file} imports ${target}: the ${room} room (floor ${floorOf(room)}) may import only rooms on lower floors (${other}: floor ${floorOf(other)})`,
      );
    }
  }
  // A room that imports api.ts or signalint.ts climbs above every room.
  for (const [file, targets] of importGraph()) {
    if (roomOf(file) === undefined) continue;
    for (const target of targets) assert.doesNotMatch(target, /^src\/service\/[^/]+\.ts$/, `${file} imports ${target}, above every room`);
  }
});

it("no import cycles anywhere in src (type-only imports count)", () => {
  const graph = importGraph();
  const done = new Set<string>();
  const onPath: string[] = [];
  const visit = (file: string): void => {
    const open = onPath.indexOf(file);
    assert.ok(open < 0, `import cycle: ${[...onPath.slice(open), file].join(" -> ")}`);
    if (done.has(file)) return;
    onPath.push(file);
    for (const target of graph.get(file) ?? []) visit(target);
    onPath.pop();
    done.add(file);
  };
  for (const file of graph.keys()) visit(file);
});

it("no source file exceeds 400 lines", () => {
  for (const file of sources("src")) {
    const lines = readFileSync(join(REPO, file), "utf8").split("\n").length;
    assert.ok(lines <= 400, `${file} has ${lines} lines`);
  }
});

it("the version constant matches package.json", async () => {
  const { VERSION } = await import("../../src/version.ts");
  assert.equal(VERSION, JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")).version);
});
