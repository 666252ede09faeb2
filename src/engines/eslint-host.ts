// A warm ESLint: the project's own ESLint command line, kept loaded in a long-lived process that runs its `lib/cli.js`
// `execute` once per request with the argv the command line would get (as eslint_d does). The process is started with
// the node and the environment the command line runs with (lint/eslint-hosts.ts decides when it may answer); each
// request prints what `eslint` itself prints, captured, and its exit code.

import { ESLINT_FIX_FUNCTION } from "./eslint-fix.ts";
import { isRecord } from "./types.ts";

/**
 * What a host is asked: a lint, with the argv after `eslint` (the command line's, paths included), or ESLint's fixes
 * of files given as text (engines/eslint-fix.ts's request, answered as its launcher answers: the JSON on stdout).
 */
export type EslintHostAsk = { args: string[] } | { fix: unknown };

/**
 * A host's answer: what the command line would have printed and its exit code, or `fatal`: an error thrown by the run
 * (a rule's: the command line fails the same way), an uncaught error or an unhandled rejection during it, or (`load`)
 * no `lib/cli.js` it could load. The host is not used again after a fatal answer.
 */
export type EslintHostReply =
  | {
      id: number;
      exitCode: number;
      stdout: string;
      stderr: string;
      rssBytes: number;
      /** It has loaded a plugin that keeps what it read of other files between runs (see lint/eslint-hosts.ts). */
      memo: boolean;
      /** The CommonJS modules it has loaded from outside any node_modules (absolute, real paths). */
      modules: string[];
    }
  | { id: number; fatal: string; load: boolean };

/**
 * The host, written to Signalint's cache directory and run as `node <host> <eslint package dir> <eslint bin entry>`.
 * Frames as core/framing.ts makes them (4-byte big-endian length, UTF-8 JSON) on stdin and stdout; everything else
 * the run prints is captured as the command line's output, never written between frames.
 */
export const ESLINT_HOST_LAUNCHER = `"use strict";
// Signalint: a warm ESLint command line (see engines/eslint-host.ts); writes nothing of its own.
const proc = require("node:process");
const { join } = require("node:path");
const { format } = require("node:util");
const [packageDir, binEntry] = proc.argv.slice(2);
const node = proc.argv[0];
const channel = proc.stdout.write.bind(proc.stdout);
let run = null;
const capture = (stream) => (chunk, encoding, callback) => {
  if (run) run[stream] += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
  if (typeof encoding === "function") encoding();
  else if (typeof callback === "function") callback();
  return true;
};
proc.stdout.write = capture("stdout");
proc.stderr.write = capture("stderr");
console.log = console.info = console.debug = (...args) => void proc.stdout.write(format(...args) + "\\n");
console.error = console.warn = console.trace = (...args) => void proc.stderr.write(format(...args) + "\\n");
const send = (message, then) => {
  const body = Buffer.from(JSON.stringify(message), "utf8");
  const head = Buffer.alloc(4);
  head.writeUInt32BE(body.length);
  channel(Buffer.concat([head, body]), then);
};
// An error thrown by a run, or an uncaught one while it runs (a timer of a config's, which ends the command line at
// once with exit 2): the run's answer is that, at once, and the host ends (nothing it holds is trusted after it).
const fatal = (error) => {
  const text = String((error && error.stack) || error);
  if (!run) return proc.exit(3);
  if (run.fatal) return;
  run.fatal = text;
  send({ id: run.id, fatal: text }, () => proc.exit(3));
};
proc.on("uncaughtException", fatal);
proc.on("unhandledRejection", fatal);
let cli = null;
let loadError = null;
try {
  cli = require(join(packageDir, "lib", "cli.js"));
} catch (error) {
  loadError = String((error && error.stack) || error);
}
${ESLINT_FIX_FUNCTION}
// Plugins that keep what they read of other files for the life of the process (see lint/eslint-hosts.ts).
const MEMO = /[\\\\/]node_modules[\\\\/](eslint-plugin-import(-x)?|eslint-module-utils|eslint-import-resolver-[^\\\\/]+)[\\\\/]/;
const memo = () => Object.keys(require.cache).some((path) => MEMO.test(path));
// The CommonJS modules it holds from outside any node_modules (a local plugin's rule files, a workspace config package
// by its real path): the pool stamps them, and a host holding one that changed since is replaced.
const NODE_MODULES = /[\\\\/]node_modules[\\\\/]/;
const modules = () => Object.keys(require.cache).filter((path) => path !== __filename && !NODE_MODULES.test(path)).slice(0, 5000);
const queue = [];
let working = false;
async function next() {
  if (working) return;
  working = true;
  while (queue.length) {
    const request = queue.shift();
    if (!cli) {
      send({ id: request.id, fatal: loadError, load: true });
      continue;
    }
    run = { id: request.id, stdout: "", stderr: "", fatal: null };
    let exitCode = 2;
    let answers = null;
    if (request.fix) {
      try {
        const fixes = await eslintFixes(require(packageDir), { ...request.fix, untypedOnly: true }, proc.cwd());
        // A typed file's fixes: the command line's launcher answers (exit 3 is no answer).
        answers = JSON.stringify(fixes);
        exitCode = fixes ? 0 : 3;
      } catch (error) {
        fatal(error);
      }
    } else {
      const argv = [node, binEntry, ...request.args];
      proc.argv = argv;
      proc.exitCode = undefined;
      try {
        exitCode = await cli.execute(argv, undefined, true);
      } catch (error) {
        fatal(error);
      }
    }
    // What a run left for later (a rejection settled after its end) belongs to it.
    await new Promise((resolve) => setImmediate(resolve));
    const done = run;
    run = null;
    proc.exitCode = undefined;
    if (done.fatal) return;
    send({ id: request.id, exitCode, stdout: answers ?? done.stdout, stderr: done.stderr, rssBytes: proc.memoryUsage.rss(), memo: memo(), modules: modules() });
  }
  working = false;
}
let buffered = Buffer.alloc(0);
proc.stdin.on("data", (chunk) => {
  buffered = Buffer.concat([buffered, chunk]);
  while (buffered.length >= 4) {
    const length = buffered.readUInt32BE(0);
    if (buffered.length < 4 + length) break;
    const message = JSON.parse(buffered.subarray(4, 4 + length).toString("utf8"));
    buffered = buffered.subarray(4 + length);
    queue.push(message);
  }
  void next();
});
proc.stdin.on("end", () => proc.exit(0));
`;

/** A host's frame as a reply, or null when it is not one (the host broke the protocol). */
export function readEslintHostReply(message: unknown): EslintHostReply | null {
  if (!isRecord(message) || typeof message.id !== "number") return null;
  if (typeof message.fatal === "string")
    return {
      id: message.id,
      fatal: message.fatal,
      load: message.load === true,
    };
  const { exitCode, stdout, stderr, rssBytes } = message;
  if (typeof exitCode !== "number" || typeof stdout !== "string" || typeof stderr !== "string" || typeof rssBytes !== "number") return null;
  const modules = Array.isArray(message.modules) ? message.modules.filter((path): path is string => typeof path === "string") : [];
  return { id: message.id, exitCode, stdout, stderr, rssBytes, memo: message.memo === true, modules };
}
