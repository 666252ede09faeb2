// Differential test on the shapes that cost time in real code (issue 36 item 5): heavy generic types (a validator whose
// object types are inferred from its schemas, a router whose handler parameters come from template-literal paths) and
// one file in two programs (the project's typecheck script runs tsc over tsconfig.json and over tsconfig.spec.json,
// whose include holds src/ as well as test/). Over a seeded random sequence of edits — schemas, paths, the inference
// itself, specs created and deleted, a shared export renamed — every warm answer equals the project's own two cold tsc
// runs, step after step. Seeds from fixed lists (helpers/random.ts); replay one with
// SIGNALINT_SHAPES_SEED=<seed> SIGNALINT_SHAPES_STEPS=<steps> node --test dist/test/e2e/warm-shapes.test.mjs
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { createNodeRuntime } from "../../src/runtime/node.ts";
import { SignalintService } from "../../src/service/signalint.ts";
import { BUNDLE, CLEAN_PATH, REPO, removeDir, serviceTscKeys, tempDir } from "../helpers.ts";
import { writeFiles } from "../helpers/project.ts";
import { random, randomRuns } from "../helpers/random.ts";

const { seeds: SEEDS, steps: STEPS } = randomRuns("SHAPES", {
  short: { seeds: [36], steps: 12 },
  long: { seeds: [3605], steps: 16 },
});

const SCHEMA = [
  // Optional keys inferred from `optional(…)` schemas.
  [
    "export interface Schema<T> { parse(input: unknown): T }",
    "export type Infer<S> = S extends Schema<infer T> ? T : never;",
    "type Shape = Record<string, Schema<unknown>>;",
    "type OptionalKeys<S extends Shape> = { [K in keyof S]: undefined extends Infer<S[K]> ? K : never }[keyof S];",
    "export type ObjectOf<S extends Shape> = { [K in Exclude<keyof S, OptionalKeys<S>>]: Infer<S[K]> } & { [K in OptionalKeys<S>]?: Infer<S[K]> };",
  ].join("\n"),
  // Every key required: what an optional field's readers do not check for now breaks elsewhere.
  [
    "export interface Schema<T> { parse(input: unknown): T }",
    "export type Infer<S> = S extends Schema<infer T> ? T : never;",
    "type Shape = Record<string, Schema<unknown>>;",
    "export type ObjectOf<S extends Shape> = { [K in keyof S]: Infer<S[K]> };",
  ].join("\n"),
].map(
  (types) =>
    `${types}\n` +
    "export const string = (): Schema<string> => ({ parse: (input) => String(input) });\n" +
    "export const number = (): Schema<number> => ({ parse: (input) => Number(input) });\n" +
    "export const optional = <T>(schema: Schema<T>): Schema<T | undefined> => ({\n" +
    "  parse: (input) => (input === undefined ? undefined : schema.parse(input)),\n" +
    "});\n" +
    "export const array = <T>(schema: Schema<T>): Schema<T[]> => ({ parse: (input) => (input as unknown[]).map((item) => schema.parse(item)) });\n" +
    "export const object = <S extends Shape>(shape: S): Schema<ObjectOf<S>> => ({\n" +
    "  parse: (input) => {\n" +
    "    const out: Record<string, unknown> = {};\n" +
    "    for (const key in shape) out[key] = shape[key]?.parse((input as Record<string, unknown>)[key]);\n" +
    "    return out as ObjectOf<S>;\n" +
    "  },\n" +
    "});\n",
);

const ROUTER =
  "export type Params<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`\n" +
  "  ? { [K in Name | keyof Params<`/${Rest}`>]: string }\n" +
  "  : P extends `${string}:${infer Name}`\n" +
  "    ? { [K in Name]: string }\n" +
  "    : Record<never, string>;\n" +
  "export function route<P extends string>(path: P, handler: (params: Params<P>) => string): { path: P; handler: (params: Params<P>) => string } {\n" +
  "  return { path, handler };\n" +
  "}\n";

const MODELS = [
  "id: number(), name: string(), email: optional(string()), tags: array(string())",
  "id: number(), name: string(), tags: array(string())",
  "id: string(), name: string(), email: optional(string()), tags: array(string())",
  "id: number(), fullName: string(), email: optional(string()), tags: array(string())",
  "id: number(), name: string(), email: string(), tags: array(number())",
].map(
  (fields) =>
    `import { array, number, object, optional, string, type Infer } from "./schema";\nexport const User = object({ ${fields} });\nexport type User = Infer<typeof User>;\n`,
);

const PATHS = ["/users/:id/posts/:postId", "/users/:uid/posts/:postId", "/users/:id", "/posts/:postId/users/:id"];

const ROUTES = (path: string) =>
  'import { route } from "./router";\nimport type { User } from "./models";\nimport { label } from "./util";\n' +
  `export const show = route("${path}", (params) => params.id + params.postId);\n` +
  'export function describe(user: User): string {\n  return `${label(user.name)} <${user.email ?? "none"}> ${user.tags.join(",")}`;\n}\n';

const UTIL = [
  "export function label(text: string): string {\n  return text.trim();\n}\n",
  "export function title(text: string): string {\n  return text.trim();\n}\n",
];

const SPECS = [
  'import { User } from "../src/models";\nexport const parsed: number = User.parse({}).id;\n',
  'import { describe } from "../src/routes";\nexport const text: string = describe({ id: 1, name: "a", tags: [] });\n',
  'import { show } from "../src/routes";\nexport const out: string = show.handler({ id: "1", postId: "2" });\n',
  'import { label } from "../src/util";\nexport const called: string = label(" x ");\n',
];

function createProject(): string {
  const project = tempDir("signalint-shapes-");
  const compilerOptions = {
    strict: true,
    noEmit: true,
    target: "ES2022",
    lib: ["ES2022"],
    module: "ESNext",
    moduleResolution: "bundler",
    skipLibCheck: true,
    types: [],
  };
  writeFiles(project, {
    "package.json": JSON.stringify({ name: "shapes", private: true, scripts: { typecheck: "tsc -p tsconfig.json && tsc -p tsconfig.spec.json" } }),
    "signalint.config.json": JSON.stringify({ engines: { oxlint: false, biome: false, eslint: false, tsc: true } }),
    "tsconfig.json": JSON.stringify({ compilerOptions, include: ["src"] }),
    "tsconfig.spec.json": JSON.stringify({ compilerOptions, include: ["src", "test"] }),
    "src/schema.ts": SCHEMA[0] as string,
    "src/router.ts": ROUTER,
    "src/models.ts": MODELS[0] as string,
    "src/routes.ts": ROUTES(PATHS[0] as string),
    "src/util.ts": UTIL[0] as string,
    "test/s0.spec.ts": SPECS[0] as string,
  });
  mkdirSync(join(project, "node_modules"));
  symlinkSync(join(REPO, "node_modules", "typescript"), join(project, "node_modules", "typescript"), "dir");
  return project;
}

/** One random edit; returns its description. */
function edit(project: string, next: () => number): string {
  const pick = <T>(items: readonly T[]): [number, T] => {
    const index = Math.floor(next() * items.length);
    return [index, items[index] as T];
  };
  const write = (path: string, text: string) => writeFiles(project, { [path]: text });
  const [, kind] = pick(["schema", "models", "models", "path", "util", "spec", "spec"] as const);
  if (kind === "schema") {
    const [index, text] = pick(SCHEMA);
    write("src/schema.ts", text);
    return `src/schema.ts variant ${index}`;
  }
  if (kind === "models") {
    const [index, text] = pick(MODELS);
    write("src/models.ts", text);
    return `src/models.ts variant ${index}`;
  }
  if (kind === "path") {
    const [, path] = pick(PATHS);
    write("src/routes.ts", ROUTES(path));
    return `src/routes.ts path ${path}`;
  }
  if (kind === "util") {
    const [index, text] = pick(UTIL);
    write("src/util.ts", text);
    return `src/util.ts variant ${index}`;
  }
  const [n] = pick(SPECS);
  const path = join(project, "test", `s${n}.spec.ts`);
  if (existsSync(path) && next() < 0.5) {
    rmSync(path);
    return `delete test/s${n}.spec.ts`;
  }
  write(`test/s${n}.spec.ts`, SPECS[n] as string);
  return `write test/s${n}.spec.ts`;
}

/** The project's own check: `tsc -p` over each of its two configs, each error once however many programs report it. */
function coldKeys(project: string): string[] {
  const keys = new Set<string>();
  for (const config of ["tsconfig.json", "tsconfig.spec.json"]) {
    const run = spawnSync(process.execPath, [join(project, "node_modules", "typescript", "bin", "tsc"), "--noEmit", "--pretty", "false", "-p", config], {
      cwd: project,
      encoding: "utf8",
      env: { PATH: CLEAN_PATH },
    });
    for (const line of run.stdout.split("\n")) {
      const match = /^(.+?)\((\d+),(\d+)\): error (TS\d+)/.exec(line);
      if (match) keys.add(`${match[1]}:${match[2]}:${match[3]} ${match[4]}`);
      else if (line.trim() && !/^\s/.test(line)) throw new Error(`unexpected tsc output: ${line}`);
    }
  }
  return [...keys].sort();
}

describe(`heavy generic types and a file in two programs: warm equals cold over ${STEPS} random edits`, () => {
  for (const seed of SEEDS) {
    it(`TypeScript 5.9 (SIGNALINT_SHAPES_SEED=${seed})`, async (t) => {
      const project = createProject();
      const cache = tempDir("signalint-shapes-cache-");
      const saved = process.env.SIGNALINT_CACHE_DIR;
      process.env.SIGNALINT_CACHE_DIR = cache;
      const next = random(seed);
      const modes = new Map<string, number>();
      let service: SignalintService | undefined;
      // The service's timers do not hold the process open (a server's stdin does): hold it for the run.
      const hold = setInterval(() => {}, 1000);
      try {
        const opened: SignalintService = await SignalintService.create(createNodeRuntime({ selfScript: BUNDLE }), { root: project });
        service = opened;
        let broken = 0;
        let specBroken = 0;
        for (let step = 0; step <= STEPS; step++) {
          const change = step === 0 ? "(initial project)" : edit(project, next);
          const files = ["src", "test"].flatMap((dir) => readdirSync(join(project, dir)).map((name) => `${dir}/${name}`));
          const requested = next() < 0.5 ? ["."] : files.filter(() => next() < 0.4).slice(0, 2);
          if (!requested.length) requested.push("src/routes.ts");
          const response = await opened.check(requested, requested[0] !== ".");
          assert.equal(response.engines.tsc.status, "ok", `step ${step} (${change}): ${JSON.stringify(response.engines.tsc)}`);
          const mode = opened.lastTiming?.cache?.tsc?.mode ?? "cli";
          modes.set(mode, (modes.get(mode) ?? 0) + 1);
          // Issue keys without messages: each error once, as in the cold set (a file in both programs reports once).
          const warm = serviceTscKeys(opened, response)
            .map((key) => key.split(" ").slice(0, 2).join(" "))
            .sort();
          const cold = coldKeys(project).filter((key) => requested[0] === "." || requested.some((file) => key.startsWith(`${file}:`)));
          if (cold.length) broken++;
          if (cold.some((key) => key.startsWith("test/"))) specBroken++;
          assert.deepEqual(
            warm,
            cold,
            `seed ${seed} step ${step}: after "${change}", ${requested[0] === "." ? "check_project" : `check_files ${requested.join(" ")}`} (${mode})`,
          );
          await opened.warmSettled();
        }
        t.diagnostic(
          `seed ${seed}: ${STEPS} edits, 0 mismatches, ${broken} steps with errors (${specBroken} in test/, only tsconfig.spec.json's); answers by mode ${JSON.stringify(Object.fromEntries(modes))}`,
        );
        // The property is about warm answers: most must come from the warm programs, and some edits must break things.
        const warmSteps = [...modes].filter(([mode]) => mode.startsWith("warm")).reduce((sum, [, count]) => sum + count, 0);
        assert.ok(warmSteps >= STEPS / 2, `most answers come from the warm programs: ${JSON.stringify(Object.fromEntries(modes))}`);
        assert.ok(broken > 0 && specBroken > 0, "some edit broke the project, and some a file only the second program holds");
      } finally {
        clearInterval(hold);
        service?.close();
        removeDir(project);
        removeDir(cache);
        if (saved === undefined) delete process.env.SIGNALINT_CACHE_DIR;
        else process.env.SIGNALINT_CACHE_DIR = saved;
      }
    });
  }
});
