// Issue 36, item 3: vue-tsc kept warm in a host between a long-lived server's checks (the compiler the project's own
// vue-tsc makes, typescript/vue-parts.ts), its answer after every kind of edit equal to a cold `vue-tsc --noEmit` of the
// edited tree (the project's own, on the command line).
import assert from "node:assert/strict";
import { cpSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { linkBin, linkPackage, rawTscKeys, removeDir, REPO, tempDir } from "../helpers.ts";
import { projectFrom } from "../helpers/project.ts";
import { longLivedService, tscAnswer, warmSteps } from "../helpers/warm-service.ts";

const VUE_TSC = join(REPO, "node_modules", "vue-tsc", "bin", "vue-tsc.js");
const dirs: string[] = [];
after(() => dirs.forEach(removeDir));

// Its first statement an unused import (noUnusedLocals): an error at the head of the component's generated code.
const HELLO =
  '<script setup lang="ts">\nimport { ref } from "vue";\ndefineProps<{ msg: string }>();\nconst n: number = 1;\n</script>\n\n<template>\n  <h1>{{ msg }} {{ n }}</h1>\n</template>\n';
// It imports a file outside rootDir: TS6059, a program diagnostic at the import (mapped into the component as in a cold run).
const APP =
  '<script setup lang="ts">\nimport Hello from "./components/Hello.vue";\nimport { count } from "./store";\nimport { shared } from "../shared";\nconst total: number = count + shared;\n</script>\n\n<template>\n  <Hello msg="hi" :extra="total" />\n  <Hello :msg="total" />\n</template>\n';
const STORE = "export const count: number = 1;\n";
const MAIN = 'import App from "./App.vue";\nexport const app: string = App;\n';
const CONFIG = {
  compilerOptions: {
    strict: true,
    noUnusedLocals: true,
    rootDir: "src",
    noEmit: true,
    target: "es2022",
    lib: ["es2022", "dom"],
    jsx: "preserve",
    module: "esnext",
    moduleResolution: "bundler",
  },
  include: ["src/**/*.ts", "src/**/*.vue"],
};

function vueApp(): string {
  const dir = projectFrom(
    {
      "package.json": JSON.stringify({ name: "vue-app", private: true, type: "module", scripts: { "type-check": "vue-tsc --noEmit" } }),
      "signalint.config.json": JSON.stringify({ engines: { oxlint: false, biome: false, eslint: false } }),
      "tsconfig.json": JSON.stringify(CONFIG),
      "src/components/Hello.vue": HELLO,
      "src/App.vue": APP,
      "src/store.ts": STORE,
      "src/main.ts": MAIN,
      "shared.ts": "export const shared = 1;\n",
    },
    "signalint-vue-warm-",
  );
  dirs.push(dir);
  linkBin(dir, "tsc", join(REPO, "node_modules", "typescript", "bin", "tsc"));
  linkPackage(dir, "vue", join(REPO, "node_modules", "vue"));
  linkPackage(dir, "vue-tsc", join(REPO, "node_modules", "vue-tsc"));
  return dir;
}

describe("vue-tsc kept warm", () => {
  it("answers every kind of edit as a cold vue-tsc of the edited tree, and writes nothing in it", async () => {
    const dir = vueApp();
    const service = await longLivedService(dir, "signalint-vue-warm-", dirs);
    const write = (path: string, text: string) => writeFileSync(join(dir, path), text);
    const cold = () => rawTscKeys(dir, ["tsconfig.json"], VUE_TSC);
    // The premise: the installed vue types components, so a prop's type reaches the template using it.
    assert.ok(cold().includes("src/App.vue:10:11 TS2322"), cold().join("\n"));
    assert.ok(cold().includes("src/App.vue:4:24 TS6059"), cold().join("\n"));
    // Each step: an edit, then the warm answer against the cold run, and how the warm host answered it.
    const steps: [string, () => void, RegExp][] = [
      ["first check", () => {}, /^warm-full$/],
      [
        "a component's prop renamed, breaking the component using it",
        () => write("src/components/Hello.vue", HELLO.replaceAll("msg", "message")),
        /warm-incremental/,
      ],
      ["the prop put back", () => write("src/components/Hello.vue", HELLO), /warm-incremental/],
      ["a template error", () => write("src/App.vue", APP.replace('msg="hi"', 'msg="hi" :class="nope"')), /warm-incremental/],
      ["a .ts edit breaking a component", () => write("src/store.ts", 'export const count: string = "1";\n'), /warm-incremental/],
      [
        "a component created",
        () => write("src/components/Extra.vue", '<script setup lang="ts">\nconst x: string = 1;\n</script>\n<template><p>{{ x }}</p></template>\n'),
        /warm-incremental/,
      ],
      // No file imports it: only its own text tells the program it changed.
      [
        "the new component edited",
        () =>
          write(
            "src/components/Extra.vue",
            '<script setup lang="ts">\nconst x: number = 1;\nconst y: string = x;\n</script>\n<template><p>{{ y }}</p></template>\n',
          ),
        /warm-incremental/,
      ],
      ["a component deleted", () => rmSync(join(dir, "src/components/Extra.vue")), /warm-incremental/],
      ["an imported component deleted", () => rmSync(join(dir, "src/components/Hello.vue")), /warm-incremental/],
      ["and restored", () => write("src/components/Hello.vue", HELLO), /warm-incremental/],
      // vueCompilerOptions shape every component's generated code: a new host makes vue-tsc's plugins again, and the
      // command line answers meanwhile.
      ["vueCompilerOptions changed", () => write("tsconfig.json", JSON.stringify({ ...CONFIG, vueCompilerOptions: { strictTemplates: true } })), /^vue-tsc$/],
      ["then warm again", () => {}, /^warm-full$/],
      [
        "everything put back",
        () => {
          write("src/App.vue", APP);
          write("src/store.ts", STORE);
        },
        /warm-incremental/,
      ],
      // Volar resolves imports of a component by its script tags, from a snapshot it keeps: a new host.
      ["a component's script made tsx", () => write("src/components/Hello.vue", HELLO.replace('lang="ts"', 'lang="tsx"')), /^vue-tsc$/],
      ["then warm again", () => write("src/components/Hello.vue", HELLO), /^warm-full$/],
    ];
    try {
      await warmSteps(service, dir, steps, cold, "a cold vue-tsc");
      // A check of one file names it first (check_files); a .vue file's answer is its own, in its own lines.
      write("src/components/Hello.vue", HELLO.replace("const n: number = 1;", 'const n: number = "one";'));
      const named = await tscAnswer(service, ["src/components/Hello.vue"]);
      assert.deepEqual(named.keys, ["src/components/Hello.vue:2:1 TS6133", "src/components/Hello.vue:4:7 TS2322"]);
      assert.deepEqual(
        named.keys,
        cold().filter((key) => key.startsWith("src/components/Hello.vue:")),
      );
    } finally {
      service.close();
    }
  });
});

// create-vue's layout: `vue-tsc --build` over a root config with no files of its own that references the app's. Each
// config is checked as `vue-tsc -p` (engines/tsconfig.ts): the root's warm program holds no file, yet reads its
// references' configs as the command line does (a changed one builds it again).
describe("vue-tsc kept warm on a solution's root", () => {
  it("answers the root and the app it references as cold vue-tsc -p runs of both", async () => {
    const app = { ...CONFIG, compilerOptions: { ...CONFIG.compilerOptions, composite: true, tsBuildInfoFile: "./node_modules/.tmp/app.tsbuildinfo" } };
    const dir = vueApp();
    const write = (path: string, text: string) => writeFileSync(join(dir, path), text);
    write("package.json", JSON.stringify({ name: "vue-app", private: true, type: "module", scripts: { "type-check": "vue-tsc --build" } }));
    write("tsconfig.json", JSON.stringify({ files: [], references: [{ path: "./tsconfig.app.json" }] }));
    write("tsconfig.app.json", JSON.stringify(app));
    const service = await longLivedService(dir, "signalint-vue-warm-", dirs);
    // On a copy: a composite config's cold run writes its build info (node_modules/.tmp), which the server would see.
    const cold = () => {
      const copy = tempDir("signalint-vue-warm-cold-");
      dirs.push(copy);
      cpSync(dir, copy, { recursive: true, verbatimSymlinks: true });
      return rawTscKeys(copy, ["tsconfig.json", "tsconfig.app.json"], VUE_TSC);
    };
    // How each program answered (the root's and the app's, sorted).
    const steps: [string, () => void, RegExp][] = [
      ["first check", () => {}, /^warm-full$/],
      ["a component's prop renamed", () => write("src/components/Hello.vue", HELLO.replaceAll("msg", "message")), /^warm-incremental\+warm-reused$/],
      // The root's program reads the app's config (a reference's config is checked like a source): it builds again; the
      // app's own program, its config changed, is answered by the command line while its host is replaced.
      ["the app's config no longer composite", () => write("tsconfig.app.json", JSON.stringify(CONFIG)), /^vue-tsc\+warm-incremental$/],
      ["put back", () => write("tsconfig.app.json", JSON.stringify(app)), /^warm-full\+warm-incremental$/],
      ["then warm again", () => write("src/components/Hello.vue", HELLO), /^warm-incremental\+warm-reused$/],
    ];
    try {
      await warmSteps(service, dir, steps, cold, "cold vue-tsc -p runs");
    } finally {
      service.close();
    }
  });
});
