// Fetch the Deno executable the tests and benchmarks run the bundle on, into dist/deno/, from the npm registry.
// Not a devDependency on purpose: a `deno` package in package.json makes `deno task` in this repo resolve `deno`
// to that package's bin instead of the running Deno (see docs/distribution.md).
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";

const VERSION = "2.9.6";
const PACKAGES = {
  "linux-x64": "@deno/linux-x64-glibc",
  "linux-arm64": "@deno/linux-arm64-glibc",
  "darwin-x64": "@deno/darwin-x64",
  "darwin-arm64": "@deno/darwin-arm64",
  "win32-x64": "@deno/win32-x64",
};
const ROOT = resolve(import.meta.dirname, "..");
const DIR = join(ROOT, "dist", "deno");
const name = PACKAGES[`${process.platform}-${process.arch}`];
if (!name) throw new Error(`no Deno package for ${process.platform}-${process.arch}`);
const executable = join(DIR, "package", process.platform === "win32" ? "deno.exe" : "deno");

if (!existsSync(executable)) {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  execFileSync("npm", ["pack", `${name}@${VERSION}`, "--pack-destination", DIR, "--silent"], { stdio: ["ignore", "ignore", "inherit"] });
  const tarball = join(
    DIR,
    readdirSync(DIR).find((file) => file.endsWith(".tgz")),
  );
  const expected = execFileSync("npm", ["view", `${name}@${VERSION}`, "dist.integrity"], { encoding: "utf8" }).trim();
  const actual = `sha512-${createHash("sha512").update(readFileSync(tarball)).digest("base64")}`;
  if (actual !== expected) throw new Error(`${name}@${VERSION}: integrity ${actual} does not match the registry's ${expected}`);
  execFileSync("tar", ["-xzf", tarball, "-C", DIR]);
  rmSync(tarball);
}
console.log(executable);
