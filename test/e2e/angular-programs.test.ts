// An Angular workspace checks what angular.json gives its builders (Ismaestro/angular-example-app's shape): `ng build`
// type-checks tsconfig.app.json (files: main.ts, which imports the components), `ng test` tsconfig.spec.json; the root
// tsconfig.json they extend covers everything and is no program of ng's. A component checked on its own is checked by
// the programs that import it, with their options.
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { CheckResponse } from "../../src/core/contracts.ts";
import { createNodeRuntime } from "../../src/runtime/node.ts";
import { ROOT_LEFT_TO_BUILDERS } from "../../src/service/tsc/tsc-programs.ts";
import { SignalintService } from "../../src/service/signalint.ts";
import { BUNDLE, linkBin, rawTscKeys, removeDir, REPO, runCli, serviceIssues, tempDir } from "../helpers.ts";

const TSC = join(REPO, "node_modules", "typescript", "bin", "tsc");
const dirs: string[] = [];
after(() => dirs.forEach(removeDir));

function project(files: Record<string, string>): { dir: string; cache: string } {
  const dir = tempDir("signalint-angular-");
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  linkBin(dir, "tsc", TSC);
  const cache = tempDir("signalint-cache-");
  dirs.push(dir, cache);
  return { dir, cache };
}

function check(dir: string, cache: string, paths: string[] = []): CheckResponse {
  return JSON.parse(runCli(["check", "--format", "response", ...paths], { cwd: dir, env: { SIGNALINT_CACHE_DIR: cache } }).stdout) as CheckResponse;
}

function keys(dir: string, cache: string, paths: string[] = []): string[] {
  const report = JSON.parse(runCli(["check", "--format", "json", ...paths], { cwd: dir, env: { SIGNALINT_CACHE_DIR: cache } }).stdout) as {
    issues: { file: string; line: number; col: number; rule: string; engine: string }[];
  };
  return report.issues
    .filter((issue) => issue.engine === "tsc")
    .map((issue) => `${issue.file}:${issue.line}:${issue.col} ${issue.rule}`)
    .sort();
}

const ANGULAR_JSON = JSON.stringify({
  version: 1,
  projects: {
    app: {
      projectType: "application",
      root: "",
      sourceRoot: "src",
      architect: {
        build: { builder: "@angular/build:application", options: { tsConfig: "tsconfig.app.json" }, configurations: { production: {} } },
        test: { builder: "@angular/build:unit-test", options: { tsConfig: "tsconfig.spec.json" } },
        lint: { builder: "@angular-eslint/builder:lint", options: { lintFilePatterns: ["src/**/*.ts"] } },
      },
    },
  },
});

/**
 * The root config has no include (everything) and a `$localize` use in e2e/ it cannot type; the app config adds
 * noUnusedLocals, so an unused local in a component is an error of `ng build` only.
 */
function angularShape(card: string): Record<string, string> {
  const base = { compilerOptions: { strict: true, noEmit: true, target: "es2022", module: "esnext", moduleResolution: "bundler", types: [] } };
  return {
    "package.json": JSON.stringify({ name: "ng-app", private: true, scripts: { build: "ng build", test: "ng test", lint: "ng lint" } }),
    "angular.json": ANGULAR_JSON,
    "tsconfig.json": JSON.stringify(base),
    "tsconfig.app.json": JSON.stringify({
      extends: "./tsconfig.json",
      compilerOptions: { noUnusedLocals: true },
      files: ["src/main.ts"],
      include: ["src/**/*.d.ts"],
    }),
    "tsconfig.spec.json": JSON.stringify({ extends: "./tsconfig.json", include: ["src/**/*.spec.ts", "src/**/*.d.ts"] }),
    "src/main.ts": 'import { card } from "./app/card";\nexport const shown: string = card("x");\n',
    "src/app/card.ts": card,
    "src/app/card.spec.ts": 'import { card } from "./card";\nexport const tested: string = card("y");\n',
    "src/index.html": "<app-root></app-root>\n",
    "src/app/card.html": "<p>{{ title }}</p>\n",
    "e2e/home.po.ts": "export const title: string = $localize`Home`;\n",
  };
}

const CARD = "export function card(title: string): string {\n  return title;\n}\n";
const CARD_UNUSED = "export function card(title: string): string {\n  const unused = 1;\n  return title;\n}\n";

describe("an Angular workspace (angular.json)", () => {
  it("checks the configs angular.json gives ng build and ng test, not the root config they extend", () => {
    const { dir, cache } = project(angularShape(CARD));
    assert.deepEqual(rawTscKeys(dir, ["tsconfig.json"]), ["e2e/home.po.ts:1:30 TS2304"], "the root config's error is the fixture's point");
    const own = rawTscKeys(dir, ["tsconfig.app.json", "tsconfig.spec.json"]);
    assert.deepEqual(own, []);
    const response = check(dir, cache);
    assert.equal(response.status, "clean", JSON.stringify(response));
    assert.match(response.engines.tsc.message ?? "", /tsconfig\.app\.json \(angular\.json app:build\)/);
    assert.match(response.engines.tsc.message ?? "", /tsconfig\.spec\.json \(angular\.json app:test\)/);
    const doctor = runCli(["doctor"], { cwd: dir, env: { SIGNALINT_CACHE_DIR: cache } }).stdout;
    assert.ok(doctor.includes(`tsconfig.json not checked (${ROOT_LEFT_TO_BUILDERS})`), doctor);
    // What ng checks neither: said, never hidden (e2e/ outside both programs; templates need the Angular compiler).
    const notes = Object.fromEntries((response.notChecked ?? []).map((note) => [note.reason, note.sample]));
    assert.deepEqual(notes["not type-checked: no tsconfig the project checks includes them"], ["e2e/home.po.ts"]);
    assert.deepEqual(Object.entries(notes).find(([reason]) => reason.includes(".html"))?.[1], ["src/app/card.html", "src/index.html"]);
  });

  it("a component's error under tsconfig.app.json's options, whole and checked on its own", () => {
    const { dir, cache } = project(angularShape(CARD_UNUSED));
    const own = rawTscKeys(dir, ["tsconfig.app.json", "tsconfig.spec.json"]);
    assert.deepEqual(own, ["src/app/card.ts:2:9 TS6133"]);
    assert.deepEqual(keys(dir, cache), own);
    assert.deepEqual(keys(dir, cache, ["src/app/card.ts"]), own, "the configs above the component that import it");
    // The spec config listing every file of src (the card among them) does not stand for the app's: both run.
    writeFileSync(join(dir, "tsconfig.spec.json"), JSON.stringify({ extends: "./tsconfig.json", include: ["src/**/*.ts"] }));
    assert.deepEqual(rawTscKeys(dir, ["tsconfig.spec.json"]), []);
    assert.deepEqual(keys(dir, cache, ["src/app/card.ts"]), own);
    assert.deepEqual(keys(dir, cache, ["src/app"]), own);
    // A template checked on its own is never clean: ng's template type-check is not run.
    assert.equal(check(dir, cache, ["src/app/card.html"]).status, "error");
  });
});

it("a file a listing names is also checked by the program that imports it (its last warm run said so)", async () => {
  // The root config is kept (typescript.projects names the app config too): the root lists card.ts and is clean
  // there; tsconfig.app.json lists only main.ts, and its noUnusedLocals makes card.ts an error.
  const files = angularShape(CARD_UNUSED);
  delete files["angular.json"];
  files["signalint.config.json"] = JSON.stringify({ typescript: { projects: ["tsconfig.json", "tsconfig.app.json"] }, engines: { oxlint: false } });
  const { dir, cache } = project(files);
  assert.deepEqual(rawTscKeys(dir, ["tsconfig.json"]), ["e2e/home.po.ts:1:30 TS2304"]);
  assert.deepEqual(rawTscKeys(dir, ["tsconfig.app.json"]), ["src/app/card.ts:2:9 TS6133"]);
  process.env.SIGNALINT_CACHE_DIR = cache;
  const service = await SignalintService.create(createNodeRuntime({ selfScript: BUNDLE }), { root: dir }).finally(() => delete process.env.SIGNALINT_CACHE_DIR);
  const tscKeys = (response: CheckResponse) =>
    serviceIssues(service, response)
      .filter((issue) => issue.engine === "tsc")
      .map((issue) => `${issue.file}:${issue.line}:${issue.col} ${issue.rule}`)
      .sort();
  try {
    const whole = await service.check(["."], false);
    assert.deepEqual(tscKeys(whole), ["e2e/home.po.ts:1:30 TS2304", "src/app/card.ts:2:9 TS6133"]);
    const one = await service.check(["src/app/card.ts"], true);
    assert.deepEqual(tscKeys(one), ["src/app/card.ts:2:9 TS6133"]);
  } finally {
    await service.close();
  }
});
