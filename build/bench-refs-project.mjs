// A generated project-references monorepo for bench:latency (BENCH_PROJECT=refs) and the warm-solution tests: a
// solution tsconfig at the root, composite packages referencing each other through a chain and a diamond, modules
// importing a hub in the first package across package boundaries, and a few type errors.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The packages and what each references (core ← util, model ← data ← api, ui ← server ← app: a chain and diamonds). */
export const REFS_PACKAGES = [
  ["core", []],
  ["util", ["core"]],
  ["model", ["core"]],
  ["data", ["util", "model"]],
  ["api", ["data"]],
  ["ui", ["data"]],
  ["server", ["api"]],
  ["app", ["api", "ui", "server"]],
];

const HUB =
  "export interface Record {\n  id: number;\n  name: string;\n}\n\nexport function describe(record: Record): string {\n  return `${record.id}:${record.name}`;\n}\n";

function packageTsconfig(references) {
  const compilerOptions = {
    composite: true,
    strict: true,
    target: "ES2022",
    module: "ESNext",
    moduleResolution: "bundler",
    skipLibCheck: true,
    types: [],
    rootDir: "src",
    outDir: "dist",
  };
  return `${JSON.stringify({ compilerOptions, include: ["src"], references: references.map((name) => ({ path: `../${name}` })) }, null, 2)}\n`;
}

/** One module of a package: the hub's types (every other module), its predecessor, 20 helpers, an error now and then. */
export function refsModule(pkg, i, options = {}) {
  const lines = [];
  if (i % 2 === 0) lines.push(`import { describe, type Record } from "${pkg === "core" ? "." : "../../core/src"}/hub";`);
  if (i > 0) lines.push(`import { value${i - 1} } from "./m${i - 1}";`);
  // The first module of a package reads the totals of the packages it references.
  const references = i === 0 ? (REFS_PACKAGES.find(([name]) => name === pkg)?.[1] ?? []) : [];
  for (const ref of references) lines.push(`import { total as ${ref}Total } from "../../${ref}/src/index";`);
  const start = references.length ? references.map((ref) => `${ref}Total`).join(" + ") : "0";
  lines.push("", `export const value${i}: number = ${i > 0 ? `value${i - 1} + 1` : start};`);
  if (i % 2 === 0) lines.push(`export const record${i}: Record = { id: value${i}, name: "m${i}" };`, `export const text${i}: string = describe(record${i});`);
  for (let k = 0; k < (options.helpers ?? 20); k++)
    lines.push(`export function helper${i}_${k}(x: number): number {`, `  return x * ${k + 1} + value${i};`, "}");
  if (options.errors !== false && i % 97 === 7) lines.push(`export const broken${i}: string = value${i};`);
  return `${lines.join("\n")}\n`;
}

/**
 * Write the monorepo into `dir` (node_modules and package.json are the caller's): `files` modules in all, spread
 * over the packages. Returns the paths the bench edits: a leaf module of the last package and the hub.
 */
export function generateRefsProject(dir, options = {}) {
  const perPackage = Math.max(2, Math.floor((options.files ?? 2000) / REFS_PACKAGES.length));
  writeFileSync(
    join(dir, "tsconfig.json"),
    `${JSON.stringify({ files: [], references: REFS_PACKAGES.map(([name]) => ({ path: `./packages/${name}` })) }, null, 2)}\n`,
  );
  for (const [name, references] of REFS_PACKAGES) {
    const src = join(dir, "packages", name, "src");
    mkdirSync(src, { recursive: true });
    writeFileSync(join(dir, "packages", name, "tsconfig.json"), packageTsconfig(references));
    if (name === "core") writeFileSync(join(src, "hub.ts"), HUB);
    for (let i = 0; i < perPackage; i++) writeFileSync(join(src, `m${i}.ts`), refsModule(name, i, options));
    writeFileSync(join(src, "index.ts"), `export { value${perPackage - 1} as total } from "./m${perPackage - 1}";\n`);
  }
  const last = REFS_PACKAGES.at(-1)[0];
  return { leaf: `packages/${last}/src/m${perPackage - 1}.ts`, hub: "packages/core/src/hub.ts", perPackage };
}
