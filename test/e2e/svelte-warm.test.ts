// Issue 33, item 2: svelte-check kept warm in a host between a long-lived server's checks, its answer after every kind
// of edit equal to a cold `svelte-check` of the edited tree (the project's own, on the command line).
import assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { linkBin, linkPackage, removeDir, REPO, runCli, serviceIssues, tempDir } from "../helpers.ts";
import { projectFrom, writeFiles } from "../helpers/project.ts";
import { coldSvelteCheck } from "../helpers/svelte-check.ts";
import { longLivedService, warmSteps } from "../helpers/warm-service.ts";

/** Both layouts of svelte-check's bundle: the checker in dist/src/ts6.js (4.7.9 on), or all in its entry (4.4 to 4.7.8). */
const LAYOUTS = [
  ["svelte-check 4.7.9 (ts6.js)", join(REPO, "node_modules", "svelte-check")],
  ["svelte-check 4.4.3 (one file)", join(REPO, "node_modules", "svelte-check44")],
] as const;
const dirs: string[] = [];
after(() => dirs.forEach(removeDir));

const WIDGET = '<script lang="ts">\n  import { label } from "./lib";\n  let n: number = "x";\n</script>\n\n<p>{n} {label.toFixed()}</p>\n<img src="a.png">\n';
const LIB = 'export const label: string = "a";\nexport const bad: number = "b";\n';
const COUNTER = '<script lang="ts">\n  let { count }: { count: number } = $props();\n</script>\n\n<p>{count}</p>\n';

function svelteApp(svelteCheck: string): string {
  const dir = projectFrom(
    {
      "package.json": JSON.stringify({ name: "svelte-app", private: true, type: "module", scripts: { check: "svelte-check --tsconfig ./tsconfig.json" } }),
      "signalint.config.json": JSON.stringify({ engines: { oxlint: false, biome: false, eslint: false } }),
      "tsconfig.json": JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, target: "es2022", module: "esnext", moduleResolution: "bundler", verbatimModuleSyntax: true },
        include: ["src/**/*.ts", "src/**/*.svelte"],
      }),
      "src/Widget.svelte": WIDGET,
      "src/lib.ts": LIB,
      "src/main.ts": "export const ok: number = 1;\n",
      "src/Counter.svelte": COUNTER,
      "src/props.ts":
        'import type { ComponentProps } from "svelte";\nimport Counter from "./Counter.svelte";\nexport const props: ComponentProps<typeof Counter> = { count: 1 };\n',
    },
    "signalint-svelte-warm-",
  );
  dirs.push(dir);
  linkBin(dir, "tsc", join(REPO, "node_modules", "typescript", "bin", "tsc"));
  linkPackage(dir, "svelte", join(REPO, "node_modules", "svelte"));
  linkPackage(dir, "svelte-check", svelteCheck);
  return dir;
}

/** A cold `svelte-check` of the tree as it is now, as "file:line:col rule". */
const cold = coldSvelteCheck;

for (const [layout, svelteCheck] of LAYOUTS)
  describe(`svelte-check kept warm: ${layout}`, () => {
    it("answers every kind of edit as a cold svelte-check of the edited tree, and writes nothing in it", async () => {
      const dir = svelteApp(svelteCheck);
      const service = await longLivedService(dir, "signalint-svelte-warm-", dirs);
      const write = (path: string, text: string) => writeFileSync(join(dir, path), text);
      // Each step: an edit, then the warm answer against the cold run, and how the warm host answered it.
      const steps: [string, () => void, RegExp][] = [
        ["first check", () => {}, /svelte-check-warm-full/],
        ["nothing changed", () => {}, /svelte-check-warm-reused/],
        [
          "a component's prop renamed, breaking the .ts file using it",
          () => write("src/Counter.svelte", COUNTER.replaceAll("count", "total")),
          /svelte-check-warm-incremental/,
        ],
        [
          "a .svelte script fixed",
          () => write("src/Widget.svelte", WIDGET.replace('let n: number = "x";', "let n: number = 1;")),
          /svelte-check-warm-incremental/,
        ],
        ["a template error", () => write("src/Widget.svelte", WIDGET.replace("{n} {label", "{n.nope} {label")), /svelte-check-warm-incremental/],
        ["a .ts edit breaking the component", () => write("src/lib.ts", LIB.replace("label: string", "label2: string")), /svelte-check-warm-incremental/],
        [
          "a component created",
          () => write("src/Extra.svelte", '<script lang="ts">\n  const x: string = 1;\n</script>\n<p>{x}</p>\n'),
          /svelte-check-warm-full/,
        ],
        ["a component deleted", () => rmSync(join(dir, "src/Extra.svelte")), /svelte-check-warm-full/],
        // svelte.config.js is loaded by import: this host cannot take a changed one, the command line answers.
        ["svelte.config.js created", () => write("svelte.config.js", "export default { compilerOptions: {} };\n"), /^svelte-check$/],
        ["then warm again", () => {}, /svelte-check-warm-full/],
        [
          "everything put back",
          () => {
            write("src/Widget.svelte", WIDGET);
            write("src/lib.ts", LIB);
            write("src/Counter.svelte", COUNTER);
          },
          /svelte-check-warm-incremental/,
        ],
      ];
      try {
        await warmSteps(service, dir, steps, () => cold(dir, svelteCheck), "a cold svelte-check");
      } finally {
        service.close();
      }
    });
  });

// A source outside the root that the program includes (`../shared`): svelte-check reports its error there, so does the
// project's own check; Signalint reports it on the config, its place leading the message (engines/tsc.ts
// outsideRootIssue), warm and on the command line alike — never dropped into a clean answer.
describe("svelte-check's errors outside the root", () => {
  it("are reported on the config, warm and on the command line, as svelte-check reports them", async () => {
    const outer = tempDir("signalint-svelte-outside-");
    dirs.push(outer);
    const dir = join(outer, "app");
    writeFiles(outer, { "shared/x.ts": 'export const y: number = "s";\n' });
    writeFiles(dir, {
      "package.json": JSON.stringify({ name: "svelte-app", private: true, type: "module", scripts: { check: "svelte-check --tsconfig ./tsconfig.json" } }),
      "signalint.config.json": JSON.stringify({ engines: { oxlint: false, biome: false, eslint: false } }),
      "tsconfig.json": JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, target: "es2022", module: "esnext", moduleResolution: "bundler" },
        include: ["src/**/*.ts", "src/**/*.svelte", "../shared/**/*.ts"],
      }),
      "src/Widget.svelte": '<script lang="ts">\n  let n: number = 1;\n</script>\n\n<p>{n}</p>\n',
    });
    const svelteCheck = LAYOUTS[0][1];
    linkBin(dir, "tsc", join(REPO, "node_modules", "typescript", "bin", "tsc"));
    linkPackage(dir, "svelte", join(REPO, "node_modules", "svelte"));
    linkPackage(dir, "svelte-check", svelteCheck);
    assert.deepEqual(cold(dir, svelteCheck), ["../shared/x.ts:1:14 TS2322"], "svelte-check reports the error outside the root");
    const expected = { file: "tsconfig.json", rule: "TS2322", place: "../shared/x.ts(1,14): " };
    const service = await longLivedService(dir, "signalint-svelte-warm-", dirs);
    try {
      const response = await service.check(["."], false);
      const found = serviceIssues(service, response).filter((issue) => issue.engine === "tsc");
      assert.equal(response.status, "issues_found", JSON.stringify({ engines: response.engines, notChecked: response.notChecked }));
      assert.match(String(service.lastTiming?.cache?.tsc?.mode), /svelte-check-warm-full/);
      assert.deepEqual(
        found.map((issue) => ({ file: issue.file, rule: issue.rule, place: issue.message.slice(0, expected.place.length) })),
        [expected],
      );
    } finally {
      service.close();
    }
    const cli = runCli(["check", "--format", "json"], { cwd: dir, env: { SIGNALINT_CACHE_DIR: tempDir("signalint-svelte-outside-cache-") } });
    assert.equal(cli.status, 1, cli.stderr);
    const report = JSON.parse(cli.stdout) as { issues: { file: string; rule: string; message: string }[] };
    assert.deepEqual(
      report.issues.map((issue) => ({ file: issue.file, rule: issue.rule, place: issue.message.slice(0, expected.place.length) })),
      [expected],
    );
  });
});
