// Differential test of the warm `tsc -b` (src/typescript/warm-solution.ts): over a seeded random sequence of edits
// across the packages of a generated references monorepo (exported types changed, errors introduced and fixed
// upstream, files added and removed, references added — cycles too —, noEmitOnError, strict, broken configs), each
// warm answer equals, line for line and in order, what a cold `tsc -b --pretty false` prints on a fresh copy of the
// tree. Seeds come from fixed lists (helpers/random.ts); replay a failure with the seed its test names and the steps
// its suite names: SIGNALINT_REFS_SEED=<seed> SIGNALINT_REFS_STEPS=<steps> node --test dist/test/e2e/warm-solution.test.mjs
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import type * as TS from "typescript";
import { REFS_PACKAGES, generateRefsProject, refsModule } from "../../build/bench-refs-project.mjs";
import { createNodeRuntime } from "../../src/runtime/node.ts";
import { SignalintService } from "../../src/service/signalint.ts";
import type { ChangeHint } from "../../src/typescript/change-hint.ts";
import { WarmTsPool } from "../../src/typescript/warm-pool.ts";
import { compilerIdentity } from "../../src/typescript/persisted-state.ts";
import { loadTypeScript } from "../../src/typescript/warm-program.ts";
import { WarmTsSolution } from "../../src/typescript/warm-solution.ts";
import { BUNDLE, fixture, flatMessage, gone, REPO, removeDir, serviceTscKeys, tempDir } from "../helpers.ts";
import { TreeGuard } from "../helpers/tree.ts";
import { warmHosts } from "../helpers/processes.ts";
import { damageState } from "../helpers/persisted.ts";
import { random, randomRuns } from "../helpers/random.ts";
import { coldBuild } from "../helpers/cold-build.ts";

/**
 * 583341013 (issue 21): a reference to a missing config added to util; the projects downstream of util were reused
 * because only their direct references were compared, so the warm build printed 2 × TS6053 and a stale TS2307 where
 * a cold one printed 6 × TS6053. Kept in the short list (it once found a bug).
 */
// Short runs in `npm test`; long ones in test:dist and, on new seeds, test:explore (helpers/random.ts).
const { seeds: SEEDS, steps: STEPS } = randomRuns("REFS", {
  short: { seeds: [583341013, 1], steps: 6 },
  long: { seeds: [583341013, 2], steps: 9 },
  explore: { seeds: [], steps: 24 },
});
// Runs with restarts (issue 17): new hosts between steps, edits while none ran, damaged persisted state.
const RESTARTS = randomRuns("REFS_RESTART", { short: { seeds: [29], steps: 14 }, long: { seeds: [2929], steps: 15 }, explore: { seeds: [], steps: 30 } });
const NAMES = REFS_PACKAGES.map(([name]) => name);
const PER_PACKAGE = 4;

/** The generated monorepo (8 packages, 4 modules each) plus a workspace link: ui imports `@refs/core` by package name. */
export function createRefsProject(typescript: string): string {
  const project = tempDir("signalint-refs-");
  writeFileSync(join(project, "package.json"), '{ "name": "refs-diff", "private": true }\n');
  writeFileSync(join(project, "signalint.config.json"), '{ "engines": { "oxlint": false, "biome": false, "eslint": false, "tsc": true } }\n');
  generateRefsProject(project, { files: NAMES.length * PER_PACKAGE, helpers: 2 });
  writeFileSync(join(project, "packages/core/package.json"), '{ "name": "@refs/core", "types": "./dist/index.d.ts" }\n');
  writeFileSync(join(project, "packages/ui/src/extra.ts"), 'import { total } from "@refs/core";\nexport const coreTotal: number = total;\n');
  mkdirSync(join(project, "node_modules", "@refs"), { recursive: true });
  symlinkSync("../../packages/core", join(project, "node_modules", "@refs", "core"));
  symlinkSync(join(REPO, "node_modules", typescript), join(project, "node_modules", "typescript"));
  return project;
}

interface State {
  strict: Set<string>;
  noEmitOnError: Set<string>;
  extraRefs: Map<string, string>;
  broken: string | null;
  gen: Map<string, string>;
}

function tsconfigText(name: string, state: State): string {
  const refs = [...((REFS_PACKAGES.find(([pkg]) => pkg === name)?.[1] as string[]) ?? []), ...(state.extraRefs.get(name) ? [state.extraRefs.get(name)] : [])];
  const compilerOptions = {
    composite: true,
    strict: !state.strict.has(name),
    ...(state.noEmitOnError.has(name) ? { noEmitOnError: true } : {}),
    target: "ES2022",
    module: "ESNext",
    moduleResolution: "bundler",
    skipLibCheck: true,
    types: [],
    rootDir: "src",
    outDir: "dist",
  };
  const text = JSON.stringify({ compilerOptions, include: ["src"], references: refs.map((ref) => ({ path: `../${ref}` })) }, null, 2);
  return state.broken === name ? text.replace('"composite": true,', '"composite": true') : text;
}

/** One random edit; returns its description. */
function edit(project: string, next: () => number, state: State): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  // A cycle stops the whole build: break it again soon, so most steps build.
  const cyclic = [...state.extraRefs].find(([from, to]) => NAMES.indexOf(to) >= NAMES.indexOf(from));
  if (cyclic && next() < 0.6) {
    state.extraRefs.delete(cyclic[0]);
    writeFileSync(join(project, "packages", cyclic[0], "tsconfig.json"), tsconfigText(cyclic[0], state));
    return `${cyclic[0]}/tsconfig.json: reference to ${cyclic[1]} removed`;
  }
  const pkg = pick(NAMES);
  const path = (rel: string) => join(project, "packages", pkg, rel);
  const kind = pick(["hub", "error", "error", "body", "export", "export", "add", "add", "remove", "config", "leaf"]);
  switch (kind) {
    case "hub": {
      const variant = pick(["  id: number;", "  id: string;", "  id: number;\n  email: string;", "  id: number;\n  tag?: string;"]);
      const hub = join(project, "packages/core/src/hub.ts");
      writeFileSync(hub, readFileSync(hub, "utf8").replace(/ {2}id: [^\n]*\n( {2}(email|tag\?): string;\n)?/, `${variant}\n`));
      return `core hub: ${JSON.stringify(variant)}`;
    }
    case "error": {
      const file = path("src/m1.ts");
      const text = readFileSync(file, "utf8");
      const broken = text.includes("export const oops");
      writeFileSync(file, broken ? text.replace(/export const oops[^\n]*\n/, "") : `${text}export const oops: string = 1;\n`);
      return `${pkg}/src/m1.ts ${broken ? "error fixed" : "error introduced"}`;
    }
    case "body":
    case "leaf": {
      const file = kind === "leaf" ? join(project, "packages/app/src/m3.ts") : path(`src/m${Math.floor(next() * PER_PACKAGE)}.ts`);
      const text = readFileSync(file, "utf8");
      writeFileSync(file, text.includes("x * 1 + 1 +") ? text.replace("x * 1 + 1 +", "x * 1 +") : text.replace("x * 1 +", "x * 1 + 1 +"));
      return `body edit of ${file.slice(project.length + 1)}`;
    }
    case "export": {
      const variant = pick([
        `export { value${PER_PACKAGE - 1} as total } from "./m${PER_PACKAGE - 1}";\n`,
        'export const total: string = "t";\n',
        "export {};\n",
        `export { value0 as total } from "./m0";\n`,
      ]);
      writeFileSync(path("src/index.ts"), variant);
      return `${pkg}/src/index.ts: ${JSON.stringify(variant)}`;
    }
    case "add": {
      const n = Math.floor(next() * 4);
      const other = pick(NAMES);
      const text = pick([
        `import { total } from "../../${other}/src/index";\nexport const g${n}: number = total;\n`,
        `import { value0 } from "./m0";\nexport const g${n}: string = value0;\n`,
        refsModule(pkg, 90 + n, { helpers: 1 })
          .replace(/value89/g, "value0")
          .replace('"./m89"', '"./m0"'),
      ]);
      writeFileSync(path(`src/gen${n}.ts`), text);
      state.gen.set(`${pkg}/src/gen${n}.ts`, text);
      return `write ${pkg}/src/gen${n}.ts: ${JSON.stringify(text.slice(0, 80))}`;
    }
    case "remove": {
      const files = [...state.gen.keys()];
      if (!files.length) return edit(project, next, state);
      const file = pick(files);
      rmSync(join(project, "packages", file));
      state.gen.delete(file);
      return `delete ${file}`;
    }
    default: {
      const change = pick(["strict", "noEmitOnError", "noEmitOnError", "reference", "reference", "broken"]);
      if (change === "strict") state.strict.has(pkg) ? state.strict.delete(pkg) : state.strict.add(pkg);
      if (change === "noEmitOnError") state.noEmitOnError.has(pkg) ? state.noEmitOnError.delete(pkg) : state.noEmitOnError.add(pkg);
      // Mostly a reference to an earlier package (or a missing one); a later one closes a cycle now and then.
      const earlier = NAMES.slice(0, NAMES.indexOf(pkg));
      const target = next() < 0.8 ? pick([...earlier, "missing"]) : pick(NAMES);
      if (change === "reference") state.extraRefs.has(pkg) ? state.extraRefs.delete(pkg) : state.extraRefs.set(pkg, target);
      if (change === "broken") state.broken = state.broken ? null : pkg;
      const changed = change === "broken" && !state.broken ? NAMES : [pkg];
      for (const name of changed) writeFileSync(join(project, "packages", name, "tsconfig.json"), tsconfigText(name, state));
      return `${pkg}/tsconfig.json: ${change} (${JSON.stringify({ strict: [...state.strict], noEmitOnError: [...state.noEmitOnError], refs: [...state.extraRefs], broken: state.broken })})`;
    }
  }
}

function formatted(ts: typeof TS, project: string, diagnostics: readonly TS.Diagnostic[]): string {
  return ts.formatDiagnostics(diagnostics, { getCurrentDirectory: () => project, getCanonicalFileName: (file) => file, getNewLine: () => "\n" });
}

async function differential(typescript: string, seed: number, report: (message: string) => void, restarts = false): Promise<void> {
  const typescriptDir = join(REPO, "node_modules", typescript);
  const ts = loadTypeScript(typescriptDir) as typeof TS;
  const project = createRefsProject(typescript);
  const next = random(seed);
  const state: State = { strict: new Set(), noEmitOnError: new Set(), extraRefs: new Map(), broken: null, gen: new Map() };
  // With restarts the build keeps its state where a new host finds it (this run's own directory).
  const cacheBase = tempDir("signalint-refs-cache-");
  const persist = restarts
    ? {
        target: { dir: join(cacheBase, "project"), evictBase: null, maxBytes: 512 * 2 ** 20, version: "test" },
        compiler: compilerIdentity(ts.version, typescriptDir),
      }
    : null;
  let solution = new WarmTsSolution(ts, join(project, "tsconfig.json"), persist);
  const modes = new Map<string, number>();
  const steps = restarts ? RESTARTS.steps : STEPS;
  let errors = 0;
  let views = 0;
  let restartCount = 0;
  try {
    for (let step = 0; step <= steps; step++) {
      let change = step === 0 ? "(initial project)" : "";
      let damaged = false;
      if (restarts && step > 0 && next() < 0.4) {
        // A new host: 0–2 edits landed while none ran, and every third restart from the second finds damaged state.
        // The first restart finds nothing changed (the stored answer serves it); the others by chance.
        const whileStopped =
          restartCount === 0 || next() < 0.33 ? ["(nothing)"] : [edit(project, next, state), ...(next() < 0.5 ? [edit(project, next, state)] : [])];
        damaged = restartCount++ % 3 === 1;
        if (damaged) whileStopped.push(damageState(cacheBase, next));
        solution = new WarmTsSolution(ts, join(project, "tsconfig.json"), persist);
        change = `restart; while stopped: ${whileStopped.join("; ")}`;
      } else if (step > 0) change = edit(project, next, state);
      const cold = coldBuild(project, typescript);
      const stored = solution.storedAnswer() as string | null;
      let warm: string;
      let mode: string;
      if (stored !== null) {
        warm = stored;
        mode = "stored answer";
        solution.warmUp();
      } else {
        const result = solution.check();
        assert.ok(result, "a references config gets a warm answer");
        mode = result.info.reuse;
        warm = formatted(ts, project, result.diagnostics);
        errors += result.diagnostics.length;
        solution.persist(warm);
      }
      modes.set(mode, (modes.get(mode) ?? 0) + 1);
      if (damaged) assert.ok(mode !== "stored answer" && mode !== "restored", `step ${step} (${change}): damaged state was trusted (${mode})`);
      const expected = await cold;
      if (warm !== expected)
        assert.fail(
          `${typescript} seed ${seed} step ${step}: after "${change}" the warm tsc -b (${mode}) printed\n${warm || "(nothing)\n"}but a cold tsc -b printed\n${expected || "(nothing)\n"}`,
        );
      // Now and then one package's own build (a check_files there), served by a view sharing the solution's projects.
      if (next() < 0.35) {
        const pkg = NAMES[1 + Math.floor(next() * (NAMES.length - 1))] as string;
        const config = `packages/${pkg}/tsconfig.json`;
        const coldView = coldBuild(project, typescript, config);
        const viewed = solution.view(join(project, config)).check();
        const expectedView = await coldView;
        // A package whose references were all removed is no build: the plain warm program serves it.
        const warmView = viewed ? formatted(ts, project, viewed.diagnostics) : expectedView;
        views++;
        if (warmView !== expectedView)
          assert.fail(
            `${typescript} seed ${seed} step ${step}: after "${change}" the warm tsc -b ${config} printed\n${warmView || "(nothing)\n"}but a cold one printed\n${expectedView || "(nothing)\n"}`,
          );
      }
    }
  } finally {
    removeDir(project);
    removeDir(cacheBase);
  }
  report(
    `${typescript}: seed ${seed}, ${steps} edits${restarts ? ` (${restartCount} restarts)` : ""}, 0 mismatches (and ${views} single-package builds), ${errors} diagnostics compared; checks by reuse ${JSON.stringify(Object.fromEntries(modes))}`,
  );
  // Some restart must have built on persisted state, and some answered from it.
  if (restarts) assert.ok(modes.has("restored") && modes.has("stored answer"), `restarts used persisted state: ${JSON.stringify(Object.fromEntries(modes))}`);
}

describe(`warm tsc -b equals a cold tsc -b over ${STEPS} random edits`, () => {
  for (const seed of SEEDS) {
    it(`TypeScript 5.9 (SIGNALINT_REFS_SEED=${seed})`, async (t) => {
      await differential("typescript", seed, (message) => t.diagnostic(message));
    });
    it(`TypeScript 6.0 (SIGNALINT_REFS_SEED=${seed})`, async (t) => {
      await differential("typescript6", seed + 1, (message) => t.diagnostic(message));
    });
  }
});

describe(`warm tsc -b equals a cold tsc -b across restarts over ${RESTARTS.steps} random steps`, () => {
  for (const seed of RESTARTS.seeds) {
    it(`TypeScript 5.9, restarts (SIGNALINT_REFS_RESTART_SEED=${seed})`, async (t) => {
      await differential("typescript", seed, (message) => t.diagnostic(message), true);
    });
    it(`TypeScript 6.0, restarts (SIGNALINT_REFS_RESTART_SEED=${seed})`, async (t) => {
      await differential("typescript6", seed + 1, (message) => t.diagnostic(message), true);
    });
  }
});

describe("an edit re-checks only the projects whose inputs changed", () => {
  it("leaf edits leave upstream projects alone; unchanged declarations stop the rebuild at their project", () => {
    const ts = loadTypeScript(join(REPO, "node_modules", "typescript")) as typeof TS;
    const project = createRefsProject("typescript");
    try {
      const solution = new WarmTsSolution(ts, join(project, "tsconfig.json"));
      const reuses = () => Object.fromEntries((solution.check()?.info.projects ?? []).map(({ config, reuse }) => [config.split("/").at(-2), reuse]));
      const first = reuses();
      assert.deepEqual(new Set(Object.values(first)), new Set(["full", "config-only"]), "the first check builds every project");
      const change = (rel: string, from: string, to: string) => {
        const file = join(project, rel);
        const text = readFileSync(file, "utf8");
        assert.ok(text.includes(from), `${rel} contains ${from}`);
        writeFileSync(file, text.replace(from, to));
      };
      const expect = (checked: string[]) =>
        Object.fromEntries(
          NAMES.map((name) => [name, checked.includes(name) ? "incremental" : "reused"]).concat([[project.split("/").at(-1) as string, "config-only"]]),
        );
      assert.deepEqual(reuses(), expect([]), "nothing changed: nothing is re-checked");
      change("packages/app/src/m3.ts", "x * 1 +", "x * 1 + 1 +");
      assert.deepEqual(reuses(), expect(["app"]), "a leaf edit re-checks only the leaf project");
      change("packages/app/src/m3.ts", "export const value3", "export const extra: string = 1;\nexport const value3");
      assert.deepEqual(reuses(), expect(["app"]), "a leaf edit that changes its exports still re-checks only the leaf");
      change("packages/core/src/m1.ts", "x * 1 +", "x * 1 + 1 +");
      assert.deepEqual(reuses(), expect(["core"]), "an upstream body edit whose declarations are unchanged stops at its project");
      change("packages/data/src/index.ts", "export {", "export const more = 1;\nexport {");
      assert.deepEqual(
        reuses(),
        expect(["data", "api", "ui"]),
        "changed declarations re-check the projects that read them, and stop where theirs are unchanged",
      );
      assert.ok(
        existsSync(join(project, "packages/core/src/hub.ts")) && !existsSync(join(project, "packages/core/dist")),
        "nothing is written into the project",
      );
    } finally {
      removeDir(project);
    }
  });

  it("a file deleted and restored re-checks its project on its last builder (issue 36: Hono rebuilt both programs from nothing), each answer a cold tsc -b's", async () => {
    const ts = loadTypeScript(join(REPO, "node_modules", "typescript")) as typeof TS;
    const project = createRefsProject("typescript");
    try {
      writeFileSync(join(project, "packages/app/src/small.ts"), "export const small = 1;\n");
      writeFileSync(join(project, "packages/app/src/user.ts"), 'import { small } from "./small";\nexport const usesSmall: number = small;\n');
      const solution = new WarmTsSolution(ts, join(project, "tsconfig.json"));
      const check = async (what: string) => {
        const cold = coldBuild(project, "typescript");
        const result = solution.check();
        assert.ok(result, "a references config gets a warm answer");
        assert.equal(formatted(ts, project, result.diagnostics), await cold, `${what}: the warm answer is a cold tsc -b's`);
        return Object.fromEntries(result.info.projects.map(({ config, reuse }) => [config.split("/").at(-2), reuse]));
      };
      await check("first check");
      const small = readFileSync(join(project, "packages/app/src/small.ts"), "utf8");
      rmSync(join(project, "packages/app/src/small.ts"));
      const deleted = await check("small.ts deleted");
      assert.equal(deleted.app, "incremental", "the deletion re-checks app on its builder, not from nothing");
      assert.deepEqual(
        NAMES.filter((name) => name !== "app" && deleted[name] !== "reused"),
        [],
        "no other project is re-checked",
      );
      writeFileSync(join(project, "packages/app/src/small.ts"), small);
      assert.equal((await check("small.ts restored")).app, "incremental", "the restoration too");
    } finally {
      removeDir(project);
    }
  });
});

describe("a warm solution takes the file watch's hints", () => {
  it("looks again only at what a hint names, what no watch sees and what lives in memory; a true hint gives the cold answer", async () => {
    const ts = loadTypeScript(join(REPO, "node_modules", "typescript")) as typeof TS;
    const project = createRefsProject("typescript");
    try {
      const solution = new WarmTsSolution(ts, join(project, "tsconfig.json"));
      const hint = (seq: number, changed: string[], since = 0): ChangeHint => ({
        seq,
        since,
        changes: changed.map((path) => [join(project, path), seq]),
        root: project,
        uncovered: [join(project, "node_modules")],
        caseSensitive: true,
      });
      const check = async (seq: number, changed: string[], since = 0) => {
        const cold = coldBuild(project, "typescript");
        const result = solution.check(hint(seq, changed, since));
        assert.ok(result);
        return { warm: formatted(ts, project, result.diagnostics), cold: await cold, reuse: result.info.reuse };
      };
      const first = await check(1, []);
      assert.equal(first.warm, first.cold);
      const change = (rel: string, from: string, to: string) => writeFileSync(join(project, rel), readFileSync(join(project, rel), "utf8").replace(from, to));
      change("packages/core/src/hub.ts", "id: number", "id: string");
      // A hint that does not name the edit: nothing is looked at again (the hint is what the check relies on).
      assert.equal((await check(2, [])).reuse, "reused", "an edit the hint leaves out is not looked for");
      // Named: the edit is seen, and the downstream projects read core's new declarations from memory.
      const named = await check(3, ["packages/core/src/hub.ts"]);
      assert.equal(named.warm, named.cold);
      assert.match(named.warm, /TS2322/, "the hub's type change breaks downstream projects");
      // A file created and a config edited: each named, each seen.
      writeFileSync(join(project, "packages/util/src/gen0.ts"), 'export const g: number = "x";\n');
      const created = await check(4, ["packages/util/src/gen0.ts"]);
      assert.equal(created.warm, created.cold);
      assert.match(created.warm, /gen0\.ts/);
      change("packages/model/tsconfig.json", '"strict": true', '"strict": false');
      const config = await check(5, ["packages/model/tsconfig.json"]);
      assert.equal(config.warm, config.cold);
      // A hint that does not reach back to the last check: everything is looked at again.
      change("packages/core/src/hub.ts", "id: string", "id: number");
      const gap = await check(7, [], 6);
      assert.equal(gap.warm, gap.cold);
      assert.notEqual(gap.reuse, "reused");
    } finally {
      removeDir(project);
    }
  });
});

/** tsc's `--pretty false` lines as the service's issues read: `file:line:col rule message` (global errors on the config). */
function parseBuildOutput(stdout: string, config: string): string[] {
  const out: string[][] = [];
  for (const line of stdout.split("\n")) {
    const located = /^(.+)\((\d+),(\d+)\): error (TS\d+): (.*)$/.exec(line);
    const global = /^error (TS\d+): (.*)$/.exec(line);
    if (located) out.push([`${located[1]}:${located[2]}:${located[3]} ${located[4]}`, located[5] as string]);
    else if (global) out.push([`${config}:1:1 ${global[1]}`, global[2] as string]);
    else if (/^\s+\S/.test(line) && out.length) (out.at(-1) as string[])[1] += `\n${line.trim()}`;
    else if (line.trim()) throw new Error(`unexpected tsc output: ${line}`);
  }
  return [...new Set(out.map(([where, message]) => `${where} ${flatMessage(message as string)}`))].sort();
}

describe("the service answers project references from the warm solution", () => {
  it("check_project and check_files in one package after edits across packages equal a cold tsc -b", async () => {
    const project = createRefsProject("typescript");
    const stateDir = tempDir("signalint-refs-state-");
    process.env.SIGNALINT_STATE_DIR = stateDir;
    let opened: SignalintService | undefined;
    const change = (rel: string, from: string | RegExp, to: string) =>
      writeFileSync(join(project, rel), readFileSync(join(project, rel), "utf8").replace(from, to));
    const steps: [string, string[], () => void][] = [
      ["initial project", ["."], () => {}],
      ["nothing changed", ["."], () => {}],
      ["leaf body edit", ["packages/app/src/m3.ts"], () => change("packages/app/src/m3.ts", "x * 1 +", "x * 1 + 1 +")],
      [
        "upstream error and hub type changed",
        ["."],
        () => {
          change("packages/core/src/m1.ts", "export const value1", "export const oops: string = 1;\nexport const value1");
          change("packages/core/src/hub.ts", "id: number", "id: string");
        },
      ],
      [
        "a reference's export turned into a string",
        ["packages/api/src/m0.ts", "packages/ui/src/m0.ts"],
        () => writeFileSync(join(project, "packages/data/src/index.ts"), 'export const total: string = "t";\n'),
      ],
      [
        "a file importing an unreferenced package",
        ["."],
        () => writeFileSync(join(project, "packages/util/src/gen.ts"), 'import { total } from "../../app/src/index";\nexport const g = total;\n'),
      ],
      [
        "everything fixed",
        ["."],
        () => {
          change("packages/core/src/m1.ts", /export const oops[^\n]*\n/, "");
          change("packages/core/src/hub.ts", "id: string", "id: number");
          rmSync(join(project, "packages/util/src/gen.ts"));
          writeFileSync(join(project, "packages/data/src/index.ts"), `export { value${PER_PACKAGE - 1} as total } from "./m${PER_PACKAGE - 1}";\n`);
        },
      ],
    ];
    try {
      const service = await SignalintService.create(createNodeRuntime({ selfScript: BUNDLE }), { root: project });
      opened = service;
      // After each step's own edits, nothing else may change in the project (its state directory is outside).
      const guard = new TreeGuard();
      guard.watch(project);
      for (const [label, requested, apply] of steps) {
        apply();
        const cold = coldBuild(project, "typescript");
        guard.rebase();
        const response = await service.check(requested, requested[0] !== ".");
        guard.verify();
        const mode = service.lastTiming?.cache?.tsc?.mode ?? "";
        const inRequested = (key: string) => requested[0] === "." || requested.some((file) => key.startsWith(`${file}:`));
        const expected = parseBuildOutput(await cold, "tsconfig.json").filter(inRequested);
        assert.deepEqual([...new Set(serviceTscKeys(service, response))].sort(), expected, `${label} (${mode})`);
        // The first check builds the solution in its host and answers from it; a package's config is a view of it.
        assert.match(mode, /^warm-/, `${label}: answered by the warm solution`);
        assert.equal(warmHosts().length, 1, `${label}: one host, the solution's (a package config with references is a view in it)`);
      }
    } finally {
      opened?.close();
      removeDir(project);
      removeDir(stateDir);
    }
  });
});

describe("two projects that emit the same declarations (both include the file, neither has an outDir)", () => {
  it("a project referencing one of them finds the declarations whichever wrote them last: every check equals a cold tsc -b", async () => {
    // mswjs/msw's shape: src/tsconfig.src.json includes all of src, core's config (extending it) only src/core, and
    // browser references core; both write src/core/*.d.ts. The warm build gave the outputs to the project that wrote
    // them last (src, built after browser), so from the second check on browser could not see them: TS6305.
    const project = tempDir("signalint-shared-outputs-");
    const stateDir = tempDir("signalint-shared-outputs-state-");
    process.env.SIGNALINT_STATE_DIR = stateDir;
    process.env.SIGNALINT_CACHE_DIR = join(stateDir, "cache");
    const write = (rel: string, text: string) => {
      mkdirSync(join(project, rel, ".."), { recursive: true });
      writeFileSync(join(project, rel), text);
    };
    write("package.json", '{ "name": "shared-outputs", "private": true }\n');
    write("signalint.config.json", '{ "engines": { "oxlint": false, "biome": false, "eslint": false, "tsc": true } }\n');
    const references = ["./src/browser/tsconfig.browser.json", "./src/tsconfig.node.json", "./src/tsconfig.worker.json"].map((path) => ({ path }));
    write("tsconfig.json", JSON.stringify({ files: [], references }));
    // A JavaScript project without an outDir: its output is its input (tsc -b says TS5055 and never writes it).
    const worker = { composite: true, allowJs: true, checkJs: true, strict: true, module: "esnext", target: "es2022", types: [] };
    write("src/tsconfig.worker.json", JSON.stringify({ include: ["./worker.js"], files: [], compilerOptions: worker }));
    write("src/worker.js", "export const ready = true;\n");
    const options = { composite: true, strict: true, module: "esnext", moduleResolution: "bundler", target: "es2022", skipLibCheck: true, types: [] };
    write("src/tsconfig.src.json", JSON.stringify({ compilerOptions: options, include: ["./**/*.ts"] }));
    write("src/tsconfig.core.json", JSON.stringify({ extends: "./tsconfig.src.json", include: ["./core/**/*.ts"], files: [] }));
    write("src/tsconfig.node.json", JSON.stringify({ extends: "./tsconfig.src.json", include: ["./node"], references: [{ path: "./tsconfig.src.json" }] }));
    write(
      "src/browser/tsconfig.browser.json",
      JSON.stringify({ extends: "../tsconfig.src.json", include: ["./**/*.ts"], references: [{ path: "../tsconfig.core.json" }] }),
    );
    const shared = "export interface Options {\n  quiet: boolean;\n}\nexport function make(): Options {\n  return { quiet: true };\n}\n";
    write("src/core/shared.ts", shared);
    write(
      "src/browser/a.ts",
      'import { make, type Options } from "../core/shared";\nexport const o: Options = make();\nexport const bad: number = "browser";\n',
    );
    write("src/node/b.ts", 'import { make } from "../core/shared";\nexport const n: boolean = make().quiet;\n');
    mkdirSync(join(project, "node_modules"));
    symlinkSync(join(REPO, "node_modules", "typescript"), join(project, "node_modules", "typescript"));
    const steps: [string, () => void][] = [
      ["initial project", () => {}],
      ["nothing changed", () => {}],
      ["an error added to the shared file", () => writeFileSync(join(project, "src/core/shared.ts"), `${shared}export const x: number = "core";\n`)],
      ["the shared file's export changed", () => writeFileSync(join(project, "src/core/shared.ts"), shared.replace("quiet: boolean", "quiet: string"))],
      ["reverted", () => writeFileSync(join(project, "src/core/shared.ts"), shared)],
    ];
    let opened: SignalintService | undefined;
    try {
      // The warm solution, again after a restart (its persisted state), then the command line through the overlay.
      for (const run of ["warm", "restarted", "command line"]) {
        if (run === "command line") process.env.SIGNALINT_WARM_TYPESCRIPT = "0";
        const service = await SignalintService.create(createNodeRuntime({ selfScript: BUNDLE }), { root: project });
        opened = service;
        for (const [label, apply] of steps) {
          apply();
          const cold = coldBuild(project, "typescript");
          const response = await service.check(["."], false);
          const mode = service.lastTiming?.cache?.tsc?.mode ?? "";
          const expected = parseBuildOutput(await cold, "tsconfig.json");
          assert.ok(
            expected.some((key) => key.startsWith("src/browser/a.ts:3:")),
            "the cold build checked browser",
          );
          assert.ok(
            expected.some((key) => key.includes("TS5055")),
            "the cold build refused to write over the worker's input",
          );
          assert.deepEqual([...new Set(serviceTscKeys(service, response))].sort(), expected, `${run}: ${label} (${mode})`);
          assert.match(mode, run === "command line" ? /^build-incremental$/ : /^warm-/, `${run}: ${label}`);
        }
        await service.close();
        opened = undefined;
      }
    } finally {
      await opened?.close();
      delete process.env.SIGNALINT_STATE_DIR;
      delete process.env.SIGNALINT_CACHE_DIR;
      delete process.env.SIGNALINT_WARM_TYPESCRIPT;
      removeDir(project);
      removeDir(stateDir);
    }
  });
});

/** The files of one config's own program, as `tsc --listFilesOnly -p` counts them. */
function programFileCount(config: string): number {
  const ts = loadTypeScript(join(REPO, "node_modules", "typescript")) as typeof TS;
  const parsed = ts.getParsedCommandLineOfConfigFile(config, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  assert.ok(parsed, config);
  return ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options }).getSourceFiles().length;
}

describe("a new service builds a solution on its persisted state (issue 17)", () => {
  // mswjs/msw's root config is a project of its own (a global.d.ts, no composite): it has no build info and builds
  // from scratch, while the composite projects it references build on theirs.
  for (const rootProject of [false, true])
    it(`unchanged: the stored answer; a leaf edited while stopped: only what it affects re-checked; both equal a cold tsc -b${rootProject ? " (a root project without build info)" : ""}`, async () => {
      const project = createRefsProject("typescript");
      if (rootProject) {
        const root = JSON.parse(readFileSync(join(project, "tsconfig.json"), "utf8"));
        const compilerOptions = { strict: true, skipLibCheck: true, types: [], target: "ES2022", module: "ESNext", moduleResolution: "bundler" };
        writeFileSync(join(project, "tsconfig.json"), JSON.stringify({ compilerOptions, include: ["global.d.ts"], references: root.references }));
        writeFileSync(join(project, "global.d.ts"), "declare const APP_VERSION: string;\n");
      }
      const stateDir = tempDir("signalint-refs-state-");
      const cacheBase = tempDir("signalint-refs-cache-");
      const saved = { state: process.env.SIGNALINT_STATE_DIR, cache: process.env.SIGNALINT_CACHE_DIR };
      process.env.SIGNALINT_STATE_DIR = stateDir;
      process.env.SIGNALINT_CACHE_DIR = cacheBase;
      const guard = new TreeGuard();
      guard.watch(project);
      const checkInNewService = async (label: string) => {
        const service = await SignalintService.create(createNodeRuntime({ selfScript: BUNDLE }), { root: project });
        try {
          const cold = coldBuild(project, "typescript");
          guard.rebase();
          const response = await service.check(["."], false);
          guard.verify();
          assert.deepEqual([...new Set(serviceTscKeys(service, response))].sort(), parseBuildOutput(await cold, "tsconfig.json"), label);
          return service.lastTiming?.cache?.tsc;
        } finally {
          await service.close();
        }
      };
      try {
        assert.equal((await checkInNewService("first service"))?.mode, "warm-full");
        const unchanged = await checkInNewService("unchanged");
        assert.deepEqual([unchanged?.mode, unchanged?.misses], ["warm-restored", 0], "unchanged: answered from the stored answer");
        writeFileSync(join(project, "packages/app/src/m3.ts"), 'export const broken: number = "leaf";\n');
        const edited = await checkInNewService("a leaf edited while stopped");
        assert.equal(edited?.mode, "warm-restored", "built on the persisted build info");
        // The root project's own program (its global.d.ts and the libraries) is built anew: all its files count.
        const rootFiles = rootProject ? programFileCount(join(project, "tsconfig.json")) : 0;
        assert.ok((edited?.misses ?? Infinity) < 4 + rootFiles, `only the edited file is re-checked (${edited?.misses})`);
        assert.ok((edited?.hits ?? 0) > NAMES.length * PER_PACKAGE, `the persisted projects' files are hits (${edited?.hits})`);
        // The state lives in the cache directory, never in the project.
        assert.ok(
          readdirSync(cacheBase, { recursive: true }).some((file) => String(file).endsWith(".state")),
          "state persisted in the cache directory",
        );
      } finally {
        for (const [name, value] of [
          ["SIGNALINT_STATE_DIR", saved.state],
          ["SIGNALINT_CACHE_DIR", saved.cache],
        ] as const)
          if (value === undefined) delete process.env[name];
          else process.env[name] = value;
        removeDir(project);
        removeDir(stateDir);
        removeDir(cacheBase);
      }
    });
});

describe("the warm pool hosts solutions", () => {
  it("a references config is a warm solution in its host; a package's own config is a view in that host; a package without references is not", async () => {
    const pool = new WarmTsPool(createNodeRuntime({ selfScript: BUNDLE }), fixture("references"));
    const typescriptDir = join(REPO, "node_modules", "typescript");
    const check = (kind: "project" | "solution", config: string, timeoutMs = 120_000) =>
      pool.check({
        kind,
        typescriptDir,
        configPath: join(fixture("references"), config),
        configFile: config,
        timeoutMs,
        memoryLimitBytes: 2048 * 1024 ** 2,
        toRelative: (path) => path.split("/fixtures/references/")[1] ?? null,
      });
    try {
      const solution = await check("solution", "tsconfig.json");
      assert.equal(solution.status === "ok" && solution.info.reuse, "full", "the first check builds the solution and answers from it");
      const [solutionHost] = warmHosts();
      const view = await check("solution", "packages/app/tsconfig.json");
      assert.ok(view.status === "ok", "app's own config is answered warm");
      assert.equal(view.info.reuse, "reused", "the view reuses the projects the solution built");
      assert.deepEqual(
        view.issues.map((issue) => `${issue.file.split("packages/")[1]} ${issue.rule}`),
        ["core/src/index.ts TS2322", "app/src/main.ts TS2322", "app/src/main.ts TS2322", "app/src/main.ts TS2769", "app/src/main.ts TS2345"],
        "tsc -b packages/app: core's error, then app's own",
      );
      assert.equal(warmHosts().length, 1, "the view took no host of its own");
      const core = await check("project", "packages/core/tsconfig.json");
      assert.equal(core.status === "ok" && core.info.reuse, "full", "a package without references is a plain program, built in a host of its own");
      assert.equal(warmHosts().length, 2);
      // A view's timeout kills the solution's host like any other: the next check of the solution builds it afresh.
      // The host is stopped first, so it cannot answer in time (a reused view's answer could come within the limit).
      assert.ok(solutionHost !== undefined);
      process.kill(solutionHost, "SIGSTOP");
      assert.equal((await check("solution", "packages/app/tsconfig.json", 500)).status, "timeout");
      assert.ok(await gone(solutionHost, 10_000), "the timed-out host is killed");
      const rebuilt = await check("solution", "tsconfig.json");
      assert.equal(rebuilt.status === "ok" && rebuilt.info.reuse, "full", "a new host built the solution again");
    } finally {
      pool.close();
    }
  });
});
