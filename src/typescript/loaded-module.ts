// Loading a package's code from text as Node would load its file (warm hosts load parts of the project's own
// checkers this way: svelte-parts.ts, vue-parts.ts).
import { Module } from "node:module";
import { dirname } from "node:path";

/** Node's module internals used to load a file from text (not in its public types). */
export interface LoadedModule {
  filename: string;
  paths: string[];
  loaded: boolean;
  exports: Record<string, unknown>;
  require(id: string): unknown;
  _compile(code: string, file: string): void;
}

export const Internals = Module as unknown as {
  new (id: string): LoadedModule;
  prototype: LoadedModule;
  _cache: Record<string, LoadedModule>;
  _nodeModulePaths(dir: string): string[];
};

/** A module of `file` made from `code` (not cached: a later `require` of the file loads it afresh). */
export function compiled(file: string, code: string, prepare?: (module: LoadedModule) => void): LoadedModule {
  const module = new Internals(file);
  module.filename = file;
  module.paths = Internals._nodeModulePaths(dirname(file));
  prepare?.(module);
  module._compile(code, file);
  module.loaded = true;
  return module;
}
