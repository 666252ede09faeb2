import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { PassThrough, type Readable } from "node:stream";
import { parseJsonc } from "../core/jsonc.ts";
import { resolveServerSettings, type ServerConfigKeys, serverConfigKeys, type ServerSettings } from "../core/server-settings.ts";
import { embeddedCatalog, initializeResult, toolListResult, type ToolCatalog } from "../mcp/tool-answers.ts";
import { CONFIG_FILE, findRoot } from "../service/project/project-root.ts";
import { type ClientPipes, watchClientPipes } from "./client-pipes.ts";
import { classifyLine } from "./front-requests.ts";

// The stdio front: the first thing a server start loads (src/main.ts). It answers `initialize` and `tools/list` from
// the catalog the build prepared while the rest of Signalint (zod, the SDK, the service: most of the bundle's
// evaluation) loads, then hands the connection to the SDK server: every request it did not answer is queued and passed
// on in arrival order, and the two it answered are replayed to the SDK server under private ids (so the server's
// session state — the client's capabilities and version — is as if it had answered), their replies compared and dropped.

declare const Deno: any;

/** A request the front answered: replayed to the SDK server under a private id, its reply compared with this one. */
export interface FrontReplay {
  method: string;
  /** JSON of the result the front sent. */
  result: string;
}

/** The front of a server start, as serve.ts takes the connection over from it. */
export interface StdioFront {
  /** The client's pipes, watched from the start: a client gone before the server is up still stops it. */
  pipes: ClientPipes;
  /** The settings the front answered with; null when it answered nothing. */
  answeredWith: () => ServerSettings | null;
  /** Replies to drop, by private id: the SDK server's answers to the replayed requests. */
  replays: Map<string, FrontReplay>;
  /** Every line from the client from now on, the queued ones first; the front answers nothing more. */
  handOff: () => Readable;
}

/** How long the front waits for tools/list after the client's first bytes before loading the server anyway. */
const LOAD_ANYWAY_MS = 500;

/** The `--read-only` flag of a bare server start (no verb, stdin not a terminal; or `serve`), or null for any other command line. */
function serverStart(): { readOnly: boolean } | null {
  try {
    return startOf();
  } catch {
    // Deno without --allow-env (NotCapable): no front; run.ts meets the same refusal and says which permission.
    return null;
  }
}

function startOf(): { readOnly: boolean } | null {
  // SIGNALINT_FRONT=0: the SDK server answers everything, once loaded (measurements and tests compare the two).
  if (/^(0|false|no|off)$/i.test(process.env.SIGNALINT_FRONT?.trim() ?? "")) return null;
  const onDeno = "Deno" in globalThis;
  const args: string[] = onDeno ? [...Deno.args] : process.argv.slice(2);
  const terminal = onDeno ? Deno.stdin.isTerminal() : Boolean(process.stdin.isTTY);
  if (args.length === 0) return terminal ? null : { readOnly: false };
  if (args[0] !== "serve" || args.length > 2 || (args.length === 2 && args[1] !== "--read-only")) return null;
  return { readOnly: args.length === 2 };
}

/** The settings tools/list depends on, read as openProject reads them; null where anything is unusual (the server decides then). */
async function frontSettings(readOnly: boolean): Promise<ServerSettings | null> {
  const stat = async (path: string) => {
    const info = statSync(path, { throwIfNoEntry: false });
    return info ? { isFile: info.isFile(), isDirectory: info.isDirectory(), isSymlink: false, size: info.size, mtimeMs: info.mtimeMs } : null;
  };
  const env = (name: string) => process.env[name];
  const root = await findRoot({ cwd: () => process.cwd(), env, stat }, undefined);
  if (!(await stat(root))?.isDirectory) return null;
  let text: string | null;
  try {
    text = readFileSync(join(root, CONFIG_FILE), "utf8");
  } catch (error) {
    if ((error as { code?: string }).code !== "ENOENT") return null;
    text = null;
  }
  const keys: ServerConfigKeys | null = text === null ? {} : serverConfigKeys(parseJsonc(text));
  return keys === null ? null : resolveServerSettings(keys, env, { readOnly });
}

/**
 * Start the front when this process is a server start and the build embedded a catalog; null otherwise. `load` is
 * called once, when the server is wanted: tools/list answered, a request the front does not answer, the client gone,
 * settings it cannot be sure of, or LOAD_ANYWAY_MS after the client's first bytes.
 */
export function openStdioFront(load: () => void): StdioFront | null {
  const start = serverStart();
  const catalog = embeddedCatalog();
  if (!start || !catalog) return null;
  const pipes = watchClientPipes();
  const replays = new Map<string, FrontReplay>();
  const queue: string[] = [];
  let settings: ServerSettings | null | undefined;
  const lines = lineSplitter();
  let sink: PassThrough | null = null;
  let loaded = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const loadOnce = () => {
    if (loaded) return;
    loaded = true;
    clearTimeout(timer);
    load();
  };
  const take = (line: string) => {
    const classified = settings ? classifyLine(line) : null;
    const message = classified?.kind === "answer" ? classified.request : null;
    if (!message || !settings) {
      queue.push(line);
      return loadOnce();
    }
    const result =
      message.method === "initialize" ? initializeResult(catalog, settings.readOnly, message.params?.protocolVersion) : listResult(catalog, settings);
    pipes.stdout.write(`${JSON.stringify({ result, jsonrpc: "2.0", id: message.id })}\n`);
    const id = `signalint-front-${replays.size + 1}`;
    replays.set(id, { method: message.method, result: JSON.stringify(result) });
    queue.push(JSON.stringify({ ...message, id }));
    if (message.method === "tools/list") loadOnce();
  };
  const onData = (chunk: Buffer | string) => {
    if (sink) return void sink.write(chunk);
    // Counted from the client's first bytes, not the start: a slow start (a loaded machine) never outwaits them.
    timer ??= setTimeout(loadOnce, LOAD_ANYWAY_MS);
    const complete = lines.push(chunk);
    // Lines wait (in order) until the settings are known; then each is answered or queued as it comes.
    if (settings === undefined) queue.push(...complete);
    else for (const line of complete) take(line);
  };
  process.stdin.on("data", onData);
  pipes.gone.then(loadOnce);
  frontSettings(start.readOnly)
    .catch(() => null) // an unreadable or malformed config: the server reads it again and says what is wrong
    .then((known) => {
      if (sink) return; // handed off already: the server answered everything
      settings = known;
      if (known === null) loadOnce();
      else for (const line of queue.splice(0)) take(line);
    });
  return {
    pipes,
    replays,
    answeredWith: () => (replays.size ? (settings ?? null) : null),
    handOff: () => {
      sink = new PassThrough();
      for (const line of queue.splice(0)) sink.write(`${line}\n`);
      const rest = lines.rest();
      if (rest.length) sink.write(rest);
      pipes.gone.then(() => sink?.end());
      return sink;
    },
  };
}

/** Newline-delimited lines, split as bytes: a character across two chunks stays whole; `rest` is what follows the last newline. */
function lineSplitter(): { push: (chunk: Buffer | string) => string[]; rest: () => Buffer } {
  let partial = Buffer.alloc(0);
  return {
    push: (chunk) => {
      partial = Buffer.concat([partial, typeof chunk === "string" ? Buffer.from(chunk) : chunk]);
      const lines: string[] = [];
      for (let end = partial.indexOf(10); end >= 0; end = partial.indexOf(10)) {
        lines.push(partial.toString("utf8", 0, end));
        partial = partial.subarray(end + 1);
      }
      return lines;
    },
    rest: () => partial,
  };
}

/** tools/list's result, computed once per process. */
let listed: { tools: unknown[] } | undefined;
function listResult(catalog: ToolCatalog, settings: ServerSettings): { tools: unknown[] } {
  listed ??= toolListResult(catalog.tools, settings);
  return listed;
}
