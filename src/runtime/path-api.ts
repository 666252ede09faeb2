import { posix, win32 } from "node:path";

/** The path syntax of a runtime's platform: node:path's win32 on Windows, posix elsewhere (chosen once, here). */
export function pathApi(runtime: { platform: string }): typeof posix {
  return runtime.platform === "win32" ? win32 : posix;
}
