import process from "node:process";
import { PassThrough, type Readable } from "node:stream";
import type { ServerSettings } from "../core/server-settings.ts";
import { embeddedCatalog, initializeJson, type ToolCatalog, toolListJson } from "../mcp/tool-answers.ts";
import { type ClientPipes, watchClientPipes } from "./client-pipes.ts";
import { classifyLine, type FrontRequest } from "./front-requests.ts";
import { frontSettings, serverStart } from "./front-settings.ts";

// The stdio front: the first thing a server start loads (src/main.ts). It answers `initialize` and `tools/list` from
// the catalog the build prepared while the rest of Signalint (zod, the SDK, the service: most of the bundle's
// evaluation) loads, then hands the connection to the SDK server: every request it did not answer is queued and passed
// on in arrival order, and the two it answered are replayed to the SDK server under private ids (so the server's
// session state — the client's capabilities and version — is as if it had answered), their replies compared and dropped.

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
  /** Replies to drop, by private id: the SDK server's answers to the replayed requests. */
  replays: Map<string, FrontReplay>;
  /** Every line from the client from now on, the queued ones first; the front answers nothing more. */
  handOff: () => Readable;
}

/** How long the front waits for tools/list after the client's first bytes before loading the server anyway. */
const LOAD_ANYWAY_MS = 500;

/**
 * Start the front when this process is a server start and the build embedded a catalog; null otherwise. `load` is
 * called once, when the server is wanted: tools/list answered, a request the front does not answer, the client gone,
 * settings it cannot be sure of, or LOAD_ANYWAY_MS after the client's first bytes. A notification asks for nothing:
 * it waits in the queue, in its place.
 */
export function openStdioFront(load: () => void): StdioFront | null {
  const start = serverStart();
  const catalog = start && embeddedCatalog();
  if (!start || !catalog) return null;
  // SIGNALINT_FRONT=debug: what the front answered and why it loaded the server, with ms since the process started
  // and the process's CPU time so far (a measure a loaded machine inflates less).
  const trace = start.debug ? (event: string) => void process.stderr.write(`signalint front: ${elapsed()}: ${event}\n`) : () => {};
  const pipes = watchClientPipes();
  const replays = new Map<string, FrontReplay>();
  // Random per process: a client's own id can never be taken for a replay's (its reply would be dropped). Math.random
  // (seeded from the OS per process, never seen by the client) where node:crypto would add its modules to every start.
  const replayPrefix = `signalint-front-${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}-`;
  let replayed = 0;
  const queue: string[] = [];
  let settings: ServerSettings | null | undefined;
  const lines = lineSplitter();
  let sink: PassThrough | null = null;
  let loaded = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const loadOnce = (reason: string) => {
    if (loaded) return;
    loaded = true;
    clearTimeout(timer);
    trace(`loading the server: ${reason}`);
    load();
  };
  const answer = (request: FrontRequest, known: ServerSettings, line: string) => {
    const id = `${replayPrefix}${replayed + 1}`;
    let replay: string;
    try {
      replay = JSON.stringify({ ...request, id });
    } catch {
      // A request JSON.parse read and JSON.stringify cannot write (a `_meta` nested thousands deep overflows the
      // stack): the SDK's server answers it, as it answers any line the front leaves.
      queue.push(line);
      return loadOnce("a request it cannot replay");
    }
    const json = request.method === "initialize" ? initializeJson(catalog, known.readOnly, request.params?.protocolVersion) : listJson(catalog, known);
    pipes.stdout.write(`{"result":${json},"jsonrpc":"2.0","id":${JSON.stringify(request.id)}}\n`);
    trace(`answered ${request.method} (id ${JSON.stringify(request.id)})`);
    replayed++;
    replays.set(id, { method: request.method, result: json });
    queue.push(replay);
    if (request.method === "tools/list") loadOnce("tools/list answered");
  };
  const take = (line: string, known: ServerSettings) => {
    const classified = classifyLine(line);
    if (classified.kind === "answer") return answer(classified.request, known, line);
    queue.push(line);
    if (classified.kind === "other") loadOnce("a line it does not answer");
  };
  const onData = (chunk: Buffer | string) => {
    if (sink) return void sink.write(chunk);
    // Counted from the client's first bytes, not the start: a slow start (a loaded machine) never outwaits them.
    timer ??= setTimeout(() => loadOnce(`no tools/list ${LOAD_ANYWAY_MS} ms after the client's first bytes`), LOAD_ANYWAY_MS);
    const complete = lines.push(chunk);
    // Lines wait (in order) until the settings are known; then each is answered or queued as it comes.
    if (!settings) queue.push(...complete);
    else for (const line of complete) take(line, settings);
  };
  process.stdin.on("data", onData);
  pipes.gone.then(() => loadOnce("the client is gone"));
  frontSettings(start)
    .catch(() => null) // an unreadable or malformed config: the server reads it again and says what is wrong
    .then((known) => {
      if (sink) return; // handed off already: the server answered everything
      settings = known;
      if (known === null) loadOnce("settings it cannot be sure of");
      else for (const line of queue.splice(0)) take(line, known);
    });
  return {
    pipes,
    replays,
    handOff: () => {
      trace(`handing over to the server: ${queue.length} queued lines`);
      sink = new PassThrough();
      for (const line of queue.splice(0)) sink.write(`${line}\n`);
      const rest = lines.rest();
      if (rest.length) sink.write(rest);
      pipes.gone.then(() => sink?.end());
      return sink;
    },
  };
}

/** ms since the process started, and its CPU time (user + system) where the runtime tells it. */
function elapsed(): string {
  const cpu = typeof process.cpuUsage === "function" ? process.cpuUsage() : null;
  return `${performance.now().toFixed(1)} ms${cpu ? ` (cpu ${((cpu.user + cpu.system) / 1000).toFixed(1)} ms)` : ""}`;
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

/** tools/list's answer, joined once per process. */
let listed: string | undefined;
function listJson(catalog: ToolCatalog, settings: ServerSettings): string {
  listed ??= toolListJson(catalog.tools, settings);
  return listed;
}
