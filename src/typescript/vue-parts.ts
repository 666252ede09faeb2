// The project's own vue-tsc as a warm host uses it (warm-host.ts, kind "vue"): TypeScript's compiler as vue-tsc makes
// it — its command line's own language plugins, through its own transform of TypeScript's code — loaded as a library
// instead of run as a command line. A warm program of that compiler is vue-tsc's program, kept like tsc's.
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type * as TS from "typescript";
import { compiled, Internals, type LoadedModule } from "./loaded-module.ts";

type Ts = typeof TS;

/** Why a vue-tsc is not kept warm: its code is not laid out as this host knows (the command line serves). */
export class VueLayoutError extends Error {}

/** vue-tsc's compiler, and how to make it forget what its language plugins keep between programs. */
export interface VueCompiler {
  ts: Ts;
  /**
   * Drop Volar's state kept between programs (the language plugins made from the config's `vueCompilerOptions`, its
   * module resolution cache): the next program makes them again.
   */
  forgetPlugins(): void;
}

/** The module vue-tsc's command line runs TypeScript through (@volar/typescript's quickstart). */
const RUN_TSC = "@volar/typescript/lib/quickstart/runTsc";

/** Volar's `runTsc` as vue-tsc calls it: TypeScript's compiler file, the extensions, the language plugins' factory. */
type RunTsc = (tscPath: string, options: unknown, getLanguagePlugins: LanguagePluginsFactory, typescriptObject?: unknown) => void;
type LanguagePluginsFactory = (ts: Ts, options: { options: TS.CompilerOptions; rootNames?: readonly string[]; host?: unknown }) => unknown;

const refuseWrite = (file: string) => {
  throw Object.assign(new Error(`EROFS: Signalint's warm vue-tsc writes nothing: ${file}`), { code: "EROFS" });
};

/**
 * vue-tsc's compiler for `configPath`: vue-tsc's entry is run with Volar's `runTsc` standing in — it is handed what
 * vue-tsc gives it (TypeScript's `tsc`, the extensions, vue-tsc's own language plugins' factory), asks that factory
 * once for the config as TypeScript will (so vue-tsc's own retry with the config's extra extensions, `.md` and the
 * like, happens here), then lets Volar's real `runTsc` transform and load TypeScript's library (`lib/typescript.js`
 * beside that `tsc`) instead of the command line. Nothing is written: `sys.writeFile` refuses (vue-tsc 2.x's
 * `.vue-global-types` write falls back to inline types, as on Signalint's command line). Any other layout throws
 * VueLayoutError.
 */
export function loadVueCompiler(vueTscDir: string, configPath: string): VueCompiler {
  const manifest = JSON.parse(readFileSync(join(vueTscDir, "package.json"), "utf8")) as { main?: string };
  const named = join(vueTscDir, manifest.main ?? "index.js");
  if (!existsSync(named)) throw new VueLayoutError(`its entry ${named} is missing`);
  // Where Node loads it from when its command line runs (a linked package resolves its own imports from its real path).
  const entry = realpathSync(named);
  const require = createRequire(entry);
  let runTscPath: string;
  try {
    runTscPath = require.resolve(RUN_TSC);
  } catch {
    // Not there: a vue-tsc that does not run TypeScript through Volar's quickstart (the command line serves it).
    throw new VueLayoutError(`it does not run TypeScript through ${RUN_TSC}`);
  }
  const real = require(RUN_TSC) as { runTsc?: RunTsc; getLanguagePlugins?: unknown };
  if (typeof real.runTsc !== "function") throw new VueLayoutError(`${RUN_TSC} has no runTsc`);
  const realRun = real.runTsc.bind(real);
  const proxyApi = createRequire(runTscPath)("../node/proxyCreateProgram") as {
    releaseRemovedProjects?: (createProgram: unknown, active: (config: string) => boolean) => void;
  };
  const release = proxyApi.releaseRemovedProjects;
  // Without it (Volar before 2.4.2x) every edit of a component would need a new host: the command line serves.
  if (typeof release !== "function") throw new VueLayoutError("its Volar cannot drop the state it keeps between programs");
  let loaded: Ts | null = null;
  const standIn: RunTsc = (tscPath, options, getLanguagePlugins, typescriptObject) => {
    const library = join(dirname(tscPath), "typescript.js");
    if (!existsSync(library)) throw new VueLayoutError(`its TypeScript has no ${library}`);
    // vue-tsc's factory asked as TypeScript will ask it: a config with other extensions throws vue-tsc's retry, which
    // its own loop catches to call this again with them.
    const plain = require(library) as Ts;
    const probe = Object.create(plain, { sys: { value: { ...plain.sys, writeFile: refuseWrite } } }) as Ts;
    getLanguagePlugins(probe, {
      options: { configFilePath: configPath },
      rootNames: [],
      host: { writeFile: () => {}, getCurrentDirectory: () => dirname(configPath) },
    });
    loaded = transformedLibrary(library, () => realRun(library, options, getLanguagePlugins, typescriptObject));
  };
  const stub = new Proxy(real, { get: (target, key) => (key === "runTsc" ? standIn : Reflect.get(target, key)) });
  const run = compiled(entry, readFileSync(entry, "utf8"), (module) => {
    const own = module.require.bind(module);
    // By file, however vue-tsc names it: the real one would run tsc's command line in this host.
    module.require = (id: string) => (id === RUN_TSC || resolvedFrom(require, id) === runTscPath ? stub : own(id));
  }).exports.run;
  if (typeof run !== "function") throw new VueLayoutError("its entry exports no run()");
  (run as () => void)();
  const ts = loaded as Ts | null;
  if (!ts || typeof ts.createSemanticDiagnosticsBuilderProgram !== "function") throw new VueLayoutError("its run() loaded no TypeScript compiler");
  // Nothing this compiler prints or writes goes anywhere: the host's stdout is its channel, the tree is the user's.
  ts.sys.write = () => {};
  ts.sys.writeFile = refuseWrite;
  return { ts, forgetPlugins: () => release(ts.createProgram, () => false) };
}

/**
 * TypeScript's library as Volar's `runTsc` transforms it, loaded: `run` is that runTsc given the library's file, whose
 * module is caught as Node compiles it (runTsc loads it as a module of that file: 2.4+ by `_compile`, earlier by
 * `require` with `fs.readFileSync` patched). It is left out of Node's cache before and after, so no one else loads it.
 */
function transformedLibrary(library: string, run: () => void): Ts {
  delete Internals._cache[library];
  const compile = Internals.prototype._compile;
  let caught: LoadedModule | null = null;
  Internals.prototype._compile = function (this: LoadedModule, code: string, file: string) {
    if (file === library) caught = this;
    return compile.call(this, code, file);
  };
  try {
    run();
  } finally {
    Internals.prototype._compile = compile;
    delete Internals._cache[library];
  }
  const module = caught as LoadedModule | null;
  if (!module) throw new VueLayoutError("Volar's runTsc loaded no TypeScript library");
  return module.exports as unknown as Ts;
}

/** Where `id` resolves from the entry (null: nowhere; the entry's own require then says why). */
function resolvedFrom(require: NodeJS.Require, id: string): string | null {
  try {
    return require.resolve(id);
  } catch {
    // Not resolvable here: not Volar's runTsc, whatever it is (the entry's own require reports it).
    return null;
  }
}
