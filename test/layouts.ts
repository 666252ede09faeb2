// Real install layouts of the engine packages (pnpm, Windows, Yarn), built in temp dirs from this repo's node_modules.
import { chmodSync, cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { linkPackage, REPO } from "./helpers.ts";

/** The engines these layouts install, with the native platform packages each one's JS entry picks at run time. */
export const ENGINES = [
  { engine: "tsc", pkg: "typescript", natives: [] as string[] },
  { engine: "oxlint", pkg: "oxlint", natives: readdirSync(join(REPO, "node_modules", "@oxlint")).map((name) => `@oxlint/${name}`) },
  {
    engine: "biome",
    pkg: "@biomejs/biome",
    natives: readdirSync(join(REPO, "node_modules", "@biomejs"))
      .filter((name) => name.startsWith("cli-"))
      .map((name) => `@biomejs/${name}`),
  },
] as const;

export const versionOf = (pkg: string) => (JSON.parse(readFileSync(join(REPO, "node_modules", pkg, "package.json"), "utf8")) as { version: string }).version;

function link(target: string, path: string): void {
  mkdirSync(dirname(path), { recursive: true });
  symlinkSync(relative(dirname(path), target), path);
}

/**
 * pnpm: every package is a real directory in node_modules/.pnpm/<name>@<version>/node_modules/<name>, its
 * dependencies are symlinks beside it, node_modules/<name> is a symlink into the store, and .bin entries are shell
 * scripts.
 */
export function pnpmLayout(project: string): void {
  for (const { engine, pkg, natives } of ENGINES) {
    const slot = join(project, "node_modules", ".pnpm", `${pkg.replace("/", "+")}@${versionOf(pkg)}`, "node_modules");
    cpSync(join(REPO, "node_modules", pkg), join(slot, pkg), { recursive: true });
    for (const native of natives) link(join(REPO, "node_modules", native), join(slot, native));
    link(join(slot, pkg), join(project, "node_modules", pkg));
    const shim = join(project, "node_modules", ".bin", engine);
    mkdirSync(dirname(shim), { recursive: true });
    const entry = (JSON.parse(readFileSync(join(slot, pkg, "package.json"), "utf8")) as { bin: Record<string, string> }).bin[engine] as string;
    writeFileSync(shim, `#!/bin/sh\nbasedir=$(dirname "$(echo "$0" | sed -e 's,\\\\,/,g')")\nexec node "$basedir/../${pkg}/${entry}" "$@"\n`);
    chmodSync(shim, 0o755);
  }
}

/** Windows: the packages, and .bin holds only `.cmd` shims (which no POSIX shell, nor node, can run). */
export function windowsLayout(project: string): void {
  for (const { engine, pkg } of ENGINES) {
    linkPackage(project, pkg, join(REPO, "node_modules", pkg));
    mkdirSync(join(project, "node_modules", ".bin"), { recursive: true });
    writeFileSync(join(project, "node_modules", ".bin", `${engine}.cmd`), `@ECHO off\r\n"%~dp0\\..\\${pkg}\\bin\\${engine}" %*\r\n`);
  }
}

/** Yarn (node-modules linker, no bin links): plain packages in node_modules and no .bin at all. */
export function yarnLayout(project: string): void {
  for (const { pkg } of ENGINES) linkPackage(project, pkg, join(REPO, "node_modules", pkg));
}
