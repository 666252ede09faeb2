// A cold `tsc -b` of a project, as the differential tests compare warm answers with.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { cpSync } from "node:fs";
import { join } from "node:path";
import { REPO, removeDir, tempDir } from "../helpers.ts";

/**
 * What a cold `tsc -b --pretty false` prints on a fresh copy of the project, its paths mapped back to the project.
 * Links are copied as they are: a relative link (node_modules/@scope/pkg) must point into the copy, not the original.
 */
export async function coldBuild(project: string, typescript: string, config?: string): Promise<string> {
  const copy = tempDir("signalint-cold-build-");
  try {
    cpSync(project, copy, { recursive: true, verbatimSymlinks: true });
    const child = spawn(process.execPath, [join(REPO, "node_modules", typescript, "bin", "tsc"), "-b", ...(config ? [config] : []), "--pretty", "false"], {
      cwd: copy,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    await once(child, "close");
    return stdout.split(copy).join(project);
  } finally {
    removeDir(copy);
  }
}
