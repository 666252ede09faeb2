import { join } from "node:path";
import type { Runtime } from "../runtime/types.ts";
import { writeIfChanged } from "./tsconfig.ts";

/**
 * The source of a CommonJS launcher that runs vue-tsc (its bin entry, the first argument) with its global-types file
 * kept out of the project: vue-tsc 2.x writes `node_modules/.vue-global-types/<name>.d.ts` beside the project's `vue`
 * package (through `ts.sys.writeFile`, in a try/catch). The launcher refuses that one write (EROFS); vue-tsc then
 * generates the same global types inline in its virtual code (@vue/language-core's fallback when none were set up),
 * so its diagnostics are the same and nothing lands in the tree. vue-tsc 3.x writes no such file.
 */
export const VUE_TSC_GUARD_LAUNCHER = `"use strict";
// Written by Signalint: vue-tsc without its node_modules/.vue-global-types write (see vue-tsc-guard.ts).
const fs = require("fs");
const proc = require("node:process");
const entry = proc.argv[2];
proc.argv.splice(2, 1);
const guarded = (file) => typeof file === "string" && /[\\\\/]node_modules[\\\\/]\\.vue-global-types([\\\\/]|$)/.test(file);
const refuse = (file) => Object.assign(new Error("EROFS: Signalint keeps vue-tsc's global types out of the project: " + file), { code: "EROFS" });
const writes = (flags) => typeof flags === "string" ? /[wa+]/.test(flags) : typeof flags === "number" && (flags & (fs.constants.O_WRONLY | fs.constants.O_RDWR | fs.constants.O_CREAT)) !== 0;
for (const name of ["writeFileSync", "appendFileSync", "mkdirSync"]) {
  const original = fs[name];
  fs[name] = function (file, ...rest) {
    if (guarded(file)) throw refuse(file);
    return original.call(this, file, ...rest);
  };
}
const openSync = fs.openSync;
fs.openSync = function (file, flags, ...rest) {
  if (guarded(file) && writes(flags)) throw refuse(file);
  return openSync.call(this, file, flags, ...rest);
};
require(entry);
`;

/** The guard launcher in the cache directory (named by its content); run as `node <launcher> <vue-tsc entry> …args`. */
export async function vueTscGuard(runtime: Runtime, cacheDir: string): Promise<string> {
  const path = join(cacheDir, "tsc", `vue-tsc-guard-${runtime.sha256(VUE_TSC_GUARD_LAUNCHER).slice(0, 12)}.cjs`);
  await writeIfChanged(runtime, path, VUE_TSC_GUARD_LAUNCHER);
  return path;
}
