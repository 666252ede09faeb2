import { existsSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import process from "node:process";
import { openStdioFront } from "./cli/front.ts";
import { denoShell } from "./runtime/shell-deno.ts";
import { nodeShell } from "./runtime/shell-node.ts";
import { cacheBase } from "./service/project/cache-base.ts";
import { WARM_HOST_MODE } from "./typescript/host-mode.ts";

// Entry. A server start first opens the stdio front (cli/front.ts: a few small modules that answer initialize and
// tools/list from the catalog the build prepared); the rest of Signalint (run.ts: zod, the SDK, the service, the CLI)
// is evaluated when the front asks for it, or at once for any other command line. In one-file bundles run.ts is
// wrapped by esbuild to be evaluated on this import, not at load.
const front = openStdioFront(() => void start());
if (!front) void start();

function start(): Promise<void> {
  keepCompiledCode();
  return import("./run.ts").then(
    ({ run, explainFatal, describe }) => run(front).catch((error: unknown) => fatal(explainFatal(error), describe(error))),
    (error: unknown) => fatal(null, error instanceof Error ? (error.stack ?? error.message) : String(error)),
  );
}

/**
 * Node 22+ keeps the code it compiles for the rest of Signalint (2 MB, most of a CLI check's own time when a daemon
 * answers) in `<cache base>/node-compile-cache/`, the user's (Node keys each file by its content and its own
 * version; it writes at exit); a no-op on Node 20 and Deno. A warm host keeps its own, with the TypeScript it loads,
 * in the project's cache directory (warm-host.ts), and Node takes the first directory it is given.
 */
function keepCompiledCode(): void {
  try {
    const shell = "Deno" in globalThis ? denoShell() : nodeShell();
    if (shell.args[0] === WARM_HOST_MODE) return;
    const base = cacheBase({ env: (name) => shell.env(name), cwd: () => shell.cwd(), platform: process.platform });
    if (base && !inAProject(base, shell.cwd())) shell.enableCompileCache(join(base, "node-compile-cache"));
  } catch {
    // Deno without --allow-env, a cache directory that cannot be made: compiled again, as without a cache.
  }
}

/**
 * Whether `dir` lies in a project around `cwd` (a directory at or above it holding package.json or .git): a cache base
 * there (`XDG_CACHE_HOME=$CI_PROJECT_DIR/.cache`, a relative SIGNALINT_CACHE_DIR) would put files into the tree.
 */
function inAProject(dir: string, cwd: string): boolean {
  for (let at = resolve(cwd); ; at = dirname(at)) {
    const inside = relative(at, resolve(dir));
    if ((existsSync(join(at, "package.json")) || existsSync(join(at, ".git"))) && !inside.startsWith("..") && !isAbsolute(inside)) return true;
    if (dirname(at) === at) return false;
  }
}

/** The last resort: say what went wrong, and what to do when the runtime knows; exit 70. */
function fatal(explained: string | null, described: string): void {
  console.error(explained ? `signalint-mcp: ${explained}` : described);
  // Both runtimes have `process.exit` (Deno's Node compatibility), also before a Runtime could be created.
  process.exit(70);
}
