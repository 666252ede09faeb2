// What an edit's check says of the files importing the edited one, where ESLint's typed rules lint them (issue 36 item
// 1): a named file no tsc program holds has importers nobody knows (never "none"); an importer outside the root is no
// issue filtered out; a file first linted as a named one is known when a later edit's check lints it as an importer;
// the engines of the errors elsewhere are said from all of them, not from the first few listed; and a pending baseline
// compares ESLint's errors in the importers it linted.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { CheckIssue, CheckResponse, Delta, NotChecked } from "../../src/core/contracts.ts";
import { summarizeCheck } from "../../src/mcp/results.ts";
import { call, connect, linkBin, linkPackage, rawEslintKeys, removeDir, REPO, structured } from "../helpers.ts";
import { projectFrom } from "../helpers/project.ts";

type Elsewhere = { introduced: number; unattributed?: number; engines?: string[]; issues: CheckIssue[]; nextStep: string };
type Check = {
  checkId: string;
  status: string;
  elsewhere?: Elsewhere;
  notChecked?: NotChecked[];
  nextStep?: string;
  filteredOutIssueCount?: number;
  pending?: { programs: number; files: number };
  delta?: Delta | { status: string } | null;
};

/** typescript-eslint's project service; files outside every tsconfig (scripts/) linted with a default project. */
const TYPED = `import tseslint from "typescript-eslint";
export default tseslint.config({
  files: ["**/*.ts"],
  extends: [tseslint.configs.base],
  languageOptions: { parserOptions: { projectService: { allowDefaultProject: ["scripts/*.ts"] }, tsconfigRootDir: import.meta.dirname } },
  rules: { "@typescript-eslint/no-floating-promises": "error" },
});
`;
const VOID = "export function ping(): void {}\n";
const ASYNC = "export async function ping(): Promise<void> {}\n";
const USE = 'import { ping } from "./dep";\nexport function run(): void {\n  ping();\n}\n';

/** A typed-ESLint project (`files` added to its package.json, config, tsconfig of src/), in `under` of a temp dir. */
function project(files: Record<string, string>, config: Record<string, unknown> = {}, under = ""): { dir: string; root: string } {
  const at = (path: string) => (under ? `${under}/${path}` : path);
  const all: Record<string, string> = {
    [at("package.json")]: '{ "name": "typed-importers", "private": true, "type": "module", "scripts": { "lint": "eslint ." } }\n',
    [at("eslint.config.mjs")]: TYPED,
    [at("tsconfig.json")]: JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, target: "es2022", module: "esnext", moduleResolution: "bundler" },
      include: ["src"],
    }),
    [at("signalint.config.json")]: JSON.stringify({ engines: { oxlint: false }, ...config }),
  };
  for (const [path, text] of Object.entries(files)) all[path.startsWith("../") ? path.slice(3) : at(path)] = text;
  const dir = projectFrom(all, "signalint-typed-importers-");
  const root = join(dir, under);
  for (const pkg of ["eslint", "typescript-eslint"]) linkPackage(root, pkg, join(REPO, "node_modules", pkg));
  linkBin(root, "tsc", join(REPO, "node_modules", "typescript", "bin", "tsc"));
  return { dir, root };
}

const keys = (issues: readonly CheckIssue[]) => issues.map((issue) => `${issue.file}:${issue.line} ${issue.rule}`).sort();
const unknownImporters = (check: Check) => check.notChecked?.find((entry) => /which files import them is not known/.test(entry.reason));

describe("the files importing an edit's files, as ESLint's typed rules see them", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  it("a named file no tsc program holds: its importers are not known, said (never an empty set that makes the check clean)", async () => {
    // scripts/ is in no tsconfig: ESLint lints it with a default project, tsc's program of tsconfig.json holds none of it.
    const { dir, root } = project({ "src/main.ts": "export const main = 1;\n", "scripts/dep.ts": VOID, "scripts/use.ts": USE });
    dirs.push(dir);
    const session = await connect(root);
    try {
      structured<Check>(await call(session.client, "check_project"));
      writeFileSync(join(root, "scripts", "dep.ts"), ASYNC);
      // What a cold ESLint says: the importer's call is now a floating promise.
      assert.deepEqual(rawEslintKeys(root, ["scripts"]), ["scripts/use.ts:3 @typescript-eslint/no-floating-promises"]);
      // With a file the program holds: its importers are known (none), scripts/dep.ts's are not.
      const files = structured<Check>(await call(session.client, "check_files", { files: ["scripts/dep.ts", "src/main.ts"] }));
      assert.notEqual(files.status, "clean", JSON.stringify(files));
      const note = unknownImporters(files);
      assert.ok(note, JSON.stringify(files));
      assert.match(note.reason, /no tsc program this check ran holds scripts\/dep\.ts,/);
      assert.equal(note.count, 1);
      assert.deepEqual(note.sample, ["scripts/dep.ts"]);
    } finally {
      await session.close();
    }
  });

  it("an importer outside the project root is not linted and is no issue filtered out", async () => {
    // The program reads ../shared, whose file imports the edited one: an importer the root does not hold.
    const { dir, root } = project(
      { "src/dep.ts": VOID, "src/use.ts": USE, "../shared/far.ts": 'import { ping } from "../app/src/dep";\nexport const far = ping;\n' },
      {},
      "app",
    );
    writeFileSync(
      join(root, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, target: "es2022", module: "esnext", moduleResolution: "bundler" },
        include: ["src", "../shared"],
      }),
    );
    dirs.push(dir);
    const session = await connect(root);
    try {
      assert.equal(structured<Check>(await call(session.client, "check_project")).status, "clean");
      const files = structured<Check>(await call(session.client, "check_files", { files: ["src/dep.ts"] }));
      assert.equal(files.status, "clean", JSON.stringify(files));
      assert.equal(files.filteredOutIssueCount ?? 0, 0, "no engine reported an issue anywhere");
      assert.equal(unknownImporters(files), undefined, JSON.stringify(files.notChecked));
    } finally {
      await session.close();
    }
  });

  it("a file first linted as a named one is known: a later edit's error in it, linted as an importer, is introduced", async () => {
    const { dir, root } = project({ "src/dep.ts": VOID, "src/use.ts": USE });
    dirs.push(dir);
    const session = await connect(root);
    try {
      // No check of the whole project: use.ts is first linted as this check's named file.
      assert.equal(structured<Check>(await call(session.client, "check_files", { files: ["src/use.ts"] })).status, "clean");
      writeFileSync(join(root, "src", "dep.ts"), ASYNC);
      const files = structured<Check>(await call(session.client, "check_files", { files: ["src/dep.ts"] }));
      assert.equal(files.status, "issues_found", JSON.stringify(files));
      assert.equal(files.elsewhere?.introduced, 1, JSON.stringify(files.elsewhere));
      assert.equal(files.elsewhere?.unattributed, undefined);
      assert.deepEqual(keys(files.elsewhere?.issues ?? []), ["src/use.ts:3 @typescript-eslint/no-floating-promises"]);
    } finally {
      await session.close();
    }
  });

  it("the engines of the errors elsewhere come from all of them: ESLint's beyond the first five listed tsc errors are named", async () => {
    const files: Record<string, string> = { "src/dep.ts": `${VOID}export const N: number = 1;\n`, "src/use.ts": USE };
    for (let index = 0; index < 6; index++) files[`src/n${index}.ts`] = `import { N } from "./dep";\nexport const n${index}: number = N;\n`;
    const { dir, root } = project(files);
    dirs.push(dir);
    const session = await connect(root);
    try {
      assert.equal(structured<Check>(await call(session.client, "check_project")).status, "clean");
      writeFileSync(join(root, "src", "dep.ts"), `${ASYNC}export const N: string = "1";\n`);
      const check = structured<Check>(await call(session.client, "check_files", { files: ["src/dep.ts"] }));
      assert.equal(check.elsewhere?.introduced, 7, JSON.stringify(check.elsewhere));
      assert.deepEqual(check.elsewhere?.engines, ["tsc", "eslint"]);
      assert.ok(
        check.elsewhere?.issues.every((issue) => issue.engine === "tsc"),
        "the five listed are tsc's: the engines are not read from them",
      );
      // The summary a user reads (structured mode) says it too.
      const text = summarizeCheck(check as unknown as CheckResponse);
      assert.match(text, /^No issues in the checked files, but other files of their programs have tsc and eslint errors/, text);
      assert.match(text, /^Elsewhere: 7 tsc and eslint errors in other files, introduced by this change:$/m, text);
    } finally {
      await session.close();
    }
  });

  it("against a named pending baseline, ESLint's errors in the importers it linted are compared: a new one is introduced", async () => {
    const { dir, root } = project(
      {
        "src/dep.ts": `${VOID}export function pong(): void {}\n`,
        "src/use.ts": 'import { ping, pong } from "./dep";\nexport function run(): void {\n  ping();\n  pong();\n}\n',
      },
      { pendingAfterMs: 0 },
    );
    dirs.push(dir);
    const session = await connect(root);
    try {
      assert.equal(structured<Check>(await call(session.client, "check_project")).status, "clean");
      writeFileSync(join(root, "src", "dep.ts"), `${ASYNC}export function pong(): void {}\n`);
      const pending = structured<Check>(await call(session.client, "after_edit_check", { files: ["src/dep.ts"] }));
      assert.ok(pending.pending, JSON.stringify(pending));
      // A pending check has ESLint's errors in the importers it linted: they were checked.
      assert.deepEqual(keys(pending.elsewhere?.issues ?? []), ["src/use.ts:3 @typescript-eslint/no-floating-promises"], JSON.stringify(pending));
      writeFileSync(join(root, "src", "dep.ts"), `${ASYNC}export async function pong(): Promise<void> {}\n`);
      const ask = async () => structured<Check>(await call(session.client, "after_edit_check", { files: ["src/dep.ts"], baselineCheckId: pending.checkId }));
      const first = await ask();
      const complete = first.pending ? await ask() : first;
      assert.equal(complete.pending, undefined, JSON.stringify(complete));
      const delta = complete.delta as Delta;
      // ping's floating promise was the baseline's; pong's is this edit's.
      assert.deepEqual(keys(delta.introduced as CheckIssue[]), ["src/use.ts:4 @typescript-eslint/no-floating-promises"], JSON.stringify(delta));
      const outside = delta.notCompared?.find((note) => note.reason === "outside_baseline");
      assert.ok(outside, JSON.stringify(delta.notCompared));
      assert.doesNotMatch(outside.message, /now, in/, "no tsc error elsewhere is left uncompared");
    } finally {
      await session.close();
    }
  });
});
