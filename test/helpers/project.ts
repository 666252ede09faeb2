// Projects made from a map of files: the one builder the tests use for generated projects.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { REPO, tempDir } from "../helpers.ts";

/** Write one file under `root`, making its parent directories. */
export function writeProjectFile(root: string, path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

/** Write every file of the map (project-relative path → text) under `root`. */
export function writeFiles(root: string, files: Readonly<Record<string, string>>): void {
  for (const [path, text] of Object.entries(files)) writeProjectFile(root, path, text);
}

/** A fresh temporary directory holding these files (the caller removes it). */
export function projectFrom(files: Readonly<Record<string, string>>, prefix = "signalint-project-"): string {
  const root = tempDir(prefix);
  writeFiles(root, files);
  return root;
}

/**
 * A real engine behind a logging bin: the project's package `name` whose bin `bin` appends each run's arguments (a JSON
 * line) to `log`, outside the project, then runs the real package's bin (`realBin`, relative to it) with them, stdin
 * and all — so a test counts and reads the engine's runs.
 */
export function plantLoggingEngine(project: string, log: string, engine: { name: string; bin: string; realBin: string }): void {
  const real = join(REPO, "node_modules", engine.name);
  const { version } = JSON.parse(readFileSync(join(real, "package.json"), "utf8")) as { version: string };
  const dir = join(project, "node_modules", engine.name);
  writeProjectFile(dir, "package.json", JSON.stringify({ name: engine.name, version, bin: { [engine.bin]: `bin/${engine.bin}.cjs` } }));
  writeProjectFile(
    dir,
    `bin/${engine.bin}.cjs`,
    [
      "#!/usr/bin/env node",
      `require("node:fs").appendFileSync(${JSON.stringify(log)}, JSON.stringify(process.argv.slice(2)) + "\\n");`,
      `const run = require("node:child_process").spawnSync(process.execPath, [${JSON.stringify(join(real, engine.realBin))}, ...process.argv.slice(2)], { stdio: "inherit" });`,
      "process.exit(run.status ?? 1);",
    ].join("\n"),
  );
}

/** A real oxlint behind a logging bin (plantLoggingEngine). */
export function plantOxlint(project: string, log: string): void {
  plantLoggingEngine(project, log, { name: "oxlint", bin: "oxlint", realBin: join("bin", "oxlint") });
}
