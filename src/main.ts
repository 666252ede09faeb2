import { openStdioFront } from "./cli/front.ts";

// Entry. A server start first opens the stdio front (cli/front.ts: a few small modules that answer initialize and
// tools/list from the catalog the build prepared); the rest of Signalint (run.ts: zod, the SDK, the service, the CLI)
// is evaluated when the front asks for it, or at once for any other command line. In one-file bundles run.ts is
// wrapped by esbuild to be evaluated on this import, not at load.
const front = openStdioFront(() => void start());
if (!front) void start();

function start(): Promise<void> {
  return import("./run.ts").then(
    ({ run, explainFatal, describe }) => run(front).catch((error: unknown) => fatal(explainFatal(error), describe(error))),
    (error: unknown) => fatal(null, error instanceof Error ? (error.stack ?? error.message) : String(error)),
  );
}

/** The last resort: say what went wrong, and what to do when the runtime knows; exit 70. */
function fatal(explained: string | null, described: string): void {
  console.error(explained ? `signalint-mcp: ${explained}` : described);
  // Both runtimes have `process.exit` (Deno's Node compatibility), also before a Runtime could be created.
  process.exit(70);
}
