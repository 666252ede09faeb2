// The cause corpus: generated projects, each clean before one edit, with the clusters the edit's errors must form
// and the declaration each names. test/service/cause-corpus.test.ts asserts them on TypeScript 5.9 and 7 through the
// real service; build/cause-table.mjs prints the texts into docs/benchmarks.md.

/** One scenario: the clean project, the edit (files rewritten), the expected clusters (a text each one names). */
export interface CauseScenario {
  name: string;
  files: Record<string, string>;
  edit: Record<string, string>;
  /** One entry per expected cluster: a text its summary contains (the named declaration, with its line). */
  expect: string[];
  /** Errors the edit gives (clustered or not). */
  errors: number;
  /** Files that go to the referenced project in the references variant (the rest are the app's). */
  library?: string[];
}

const CONFIG = (port: string) => `export interface AppConfig {\n  name: string;\n  port: ${port};\n}\n`;

/** `count` files built by `site(i)`, named src/<stem><i>.ts. */
function sites(stem: string, count: number, site: (index: number) => string): Record<string, string> {
  return Object.fromEntries(Array.from({ length: count }, (_, index) => [`src/${stem}${index}.ts`, site(index)]));
}

const portSite = (index: number) =>
  `import type { AppConfig } from "./config";\n\nexport function port${index}(config: AppConfig): number {\n  const port: number = config.port;\n  return port;\n}\n`;

const USER = (id: string) =>
  `export interface User {\n  id: ${id};\n  name: string;\n}\n\nexport function makeUser(id: ${id}, name: string): User {\n  return { id, name };\n}\n`;

/** The hub edit: `User.id` and `makeUser(id)` from number to string in a clean six-file project. */
const HUB_FILES: Record<string, string> = {
  "src/user.ts": USER("number"),
  "src/store.ts": `import { makeUser, type User } from "./user";\n\nconst users = new Map<number, User>();\n\nexport function add(name: string): User {\n  const user = makeUser(users.size + 1, name);\n  users.set(user.id, user);\n  return user;\n}\n`,
  "src/lookup.ts": `import type { User } from "./user";\n\nexport function find(users: User[], id: number): User | undefined {\n  return users.find((user) => user.id === id);\n}\n\nexport function nextId(user: User): number {\n  return user.id + 1;\n}\n`,
  "src/render.ts": `import type { User } from "./user";\n\nexport function label(user: User): string {\n  const id: number = user.id;\n  return \`\${id}: \${user.name}\`;\n}\n`,
  "src/seed.ts": `import { makeUser } from "./user";\n\nexport const admin = makeUser(0, "admin");\n`,
  "src/index.ts": `export { add } from "./store";\nexport { find } from "./lookup";\nexport { label } from "./render";\n`,
};

const timeoutSite = (index: number) =>
  `import type { AppConfig } from "./config";\n\nexport function wait${index}(config: AppConfig): number {\n  return config.timeout;\n}\n`;

const COUNT = (type: string) => `export function alpha(count: ${type}): number {\n  return Number(count);\n}\n`;

/** Every scenario, in the order docs/benchmarks.md lists them. */
export const CAUSE_SCENARIOS: CauseScenario[] = [
  {
    name: "changed member type",
    files: { "src/config.ts": CONFIG("number"), ...sites("use", 3, portSite) },
    edit: { "src/config.ts": CONFIG("string") },
    expect: ["`AppConfig.port` (src/config.ts:3)"],
    errors: 3,
    library: ["src/config.ts"],
  },
  {
    name: "changed parameter",
    files: {
      "src/net.ts": `export function connect(host: string, port: number): string {\n  return host + port;\n}\n`,
      ...sites("client", 3, (i) => `import { connect } from "./net";\n\nexport const url${i} = connect("localhost", ${8000 + i});\n`),
    },
    edit: { "src/net.ts": `export function connect(host: string, port: string): string {\n  return host + port;\n}\n` },
    expect: ["`connect(port)` (src/net.ts:1)"],
    errors: 3,
    library: ["src/net.ts"],
  },
  {
    name: "renamed export",
    files: {
      "src/math.ts": `export function sum(a: number, b: number): number {\n  return a + b;\n}\n`,
      ...sites("calc", 3, (i) => `import { sum } from "./math";\n\nexport const total${i} = sum(${i}, 1);\n`),
    },
    edit: { "src/math.ts": `export function total(a: number, b: number): number {\n  return a + b;\n}\n` },
    expect: ["src/math.ts has no export `sum`"],
    errors: 3,
  },
  {
    name: "removed member",
    files: {
      "src/user.ts": `export interface User {\n  id: number;\n  email: string;\n}\n`,
      ...sites("mail", 3, (i) => `import type { User } from "./user";\n\nexport function to${i}(user: User): string {\n  return user.email;\n}\n`),
    },
    edit: { "src/user.ts": `export interface User {\n  id: number;\n}\n` },
    expect: ["`User` (src/user.ts:1) has no member 'email'"],
    errors: 3,
    library: ["src/user.ts"],
  },
  {
    name: "optional → required",
    files: {
      "src/options.ts": `export interface Options {\n  name: string;\n  verbose?: boolean;\n}\n`,
      ...sites("run", 3, (i) => `import type { Options } from "./options";\n\nexport const options${i}: Options = { name: "run${i}" };\n`),
    },
    edit: { "src/options.ts": `export interface Options {\n  name: string;\n  verbose: boolean;\n}\n` },
    expect: ["`Options.verbose` (src/options.ts:3)"],
    errors: 3,
    library: ["src/options.ts"],
  },
  {
    name: "union widened",
    files: {
      "src/status.ts": `export type Status = "ok" | "fail";\n`,
      ...sites("flag", 3, (i) => `import type { Status } from "./status";\n\nexport function flag${i}(status: Status): "ok" | "fail" {\n  return status;\n}\n`),
    },
    edit: { "src/status.ts": `export type Status = "ok" | "fail" | "pending";\n` },
    expect: ["`Status` (src/status.ts:1)"],
    errors: 3,
    library: ["src/status.ts"],
  },
  {
    name: "generic constraint",
    files: {
      "src/find.ts": `export function byId<T extends { id: number }>(items: T[], id: number): T | undefined {\n  return items.find((item) => item.id === id);\n}\n`,
      ...sites("pick", 3, (i) => `import { byId } from "./find";\n\nconst rows = [{ id: ${i}, name: "row" }];\n\nexport const row${i} = byId(rows, ${i});\n`),
    },
    edit: {
      "src/find.ts": `export function byId<T extends { id: string }>(items: T[], id: string): T | undefined {\n  return items.find((item) => item.id === id);\n}\n`,
    },
    expect: ["`byId(items)` (src/find.ts:1)"],
    errors: 3,
  },
  {
    name: "overload",
    files: {
      "src/parse.ts": `export function parse(text: string): number;\nexport function parse(text: string, radix: number): number;\nexport function parse(value: boolean): number;\nexport function parse(input: string | boolean, radix = 10): number {\n  return typeof input === "boolean" ? Number(input) : Number.parseInt(input, radix);\n}\n`,
      ...sites("num", 3, (i) => `import { parse } from "./parse";\n\nexport const value${i} = parse("${i}", 16);\n`),
    },
    edit: {
      "src/parse.ts": `export function parse(text: string): number;\nexport function parse(value: boolean): number;\nexport function parse(input: string | boolean, radix = 10): number {\n  return typeof input === "boolean" ? Number(input) : Number.parseInt(input, radix);\n}\n`,
    },
    expect: ["`parse` (src/parse.ts:"],
    errors: 3,
  },
  {
    name: "enum member",
    files: {
      "src/color.ts": `export enum Color {\n  Red,\n  Green,\n  Blue,\n}\n`,
      ...sites("paint", 3, (i) => `import { Color } from "./color";\n\nexport const color${i}: Color = Color.Blue;\n`),
    },
    edit: { "src/color.ts": `export enum Color {\n  Red,\n  Green,\n  Navy,\n}\n` },
    expect: ["`Color` (src/color.ts:1) has no member 'Blue'"],
    errors: 3,
    library: ["src/color.ts"],
  },
  {
    name: "re-export chain",
    files: {
      "src/model/user.ts": USER("number"),
      "src/model/index.ts": `export * from "./user";\n`,
      ...sites(
        "show",
        3,
        (i) => `import type { User } from "./model";\n\nexport function id${i}(user: User): number {\n  const id: number = user.id;\n  return id;\n}\n`,
      ),
    },
    edit: { "src/model/user.ts": USER("string").replace("makeUser(id: string", "makeUser(id: number").replace("{ id, name }", "{ id: String(id), name }") },
    expect: ["`User.id` (src/model/user.ts:2)"],
    errors: 3,
  },
  {
    name: "two independent causes under one code",
    files: {
      "src/alpha.ts": COUNT("number"),
      "src/beta.ts": COUNT("number").replace("alpha", "beta"),
      ...sites("pair", 2, (i) => `import { alpha } from "./alpha";\nimport { beta } from "./beta";\n\nexport const both${i} = [alpha(${i}), beta(${i})];\n`),
    },
    edit: { "src/alpha.ts": COUNT("string"), "src/beta.ts": COUNT("string").replace("alpha", "beta") },
    expect: ["`alpha(count)` (src/alpha.ts:1)", "`beta(count)` (src/beta.ts:1)"],
    errors: 4,
  },
  {
    name: "mixed causes under one interface",
    files: { "src/config.ts": CONFIG("number"), ...sites("use", 3, portSite) },
    edit: { "src/config.ts": CONFIG("string"), ...sites("wait", 2, timeoutSite) },
    expect: ["`AppConfig.port` (src/config.ts:3)", "`AppConfig` (src/config.ts:1) has no member 'timeout'"],
    errors: 5,
    library: ["src/config.ts"],
  },
  {
    name: "why: 11 sites need `port` a number, one reads a missing `timeout`",
    files: { "src/config.ts": CONFIG("number"), ...sites("use", 11, portSite) },
    edit: { "src/config.ts": CONFIG("string"), ...sites("wait", 1, timeoutSite) },
    expect: ["11 errors: `AppConfig.port` (src/config.ts:3)"],
    errors: 12,
  },
  {
    name: "why: hub edit of `User.id` and `makeUser(id)`",
    files: HUB_FILES,
    edit: { "src/user.ts": USER("string") },
    expect: ["`User.id` (src/user.ts:2)"],
    errors: 6,
    library: ["src/user.ts"],
  },
];
