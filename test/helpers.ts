import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { CheckIssue, CheckResponse, NormalizedIssue } from "../src/core/contracts.ts";
import type { SignalintService } from "../src/service/signalint.ts";

function findRepo(start: string): string {
  let dir = start;
  while (!existsSync(join(dir, "package.json")) || !readFileSync(join(dir, "package.json"), "utf8").includes('"name": "signalint-mcp"')) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error("repository root not found");
    dir = parent;
  }
  return dir;
}

// Tests run checks in-process unless they ask for the daemon (SIGNALINT_DAEMON=1): a daemon outlives its test.
process.env.SIGNALINT_DAEMON ??= "0";

/** Repository root (tests run from dist/test/…, bundled). */
export const REPO = findRepo(dirname(fileURLToPath(import.meta.url)));
export const BUNDLE = join(REPO, "dist", "signalint-mcp.mjs");
/** The one-file ESM bundle (the release asset `deno run <url>` gets; BUNDLE loads chunks beside it). */
export const SINGLE_BUNDLE = join(REPO, "dist", "single", "signalint-mcp.mjs");
export const BIN = join(REPO, "node_modules", ".bin");

export function fixture(name: string): string {
  return join(REPO, "fixtures", name);
}

// Every temporary directory of a test process lives under one root, removed when the process exits: what a failed
// test (or a server it started) leaves is gone too. Tests still remove their own as they finish.
const TEMP_ROOT = mkdtempSync(join(tmpdir(), "signalint-tests-"));
// Traversable by others (not listable), as a directory in tmpdir is: a test runs the CLI as another user in one.
chmodSync(TEMP_ROOT, 0o711);
process.on("exit", () => rmSync(TEMP_ROOT, { recursive: true, force: true }));
// The per-user state home of every Signalint this test process starts without SIGNALINT_STATE_DIR: under TEMP_ROOT,
// never the real user's.
process.env.XDG_STATE_HOME ??= join(TEMP_ROOT, "state-home");
/** The per-user state home the tests' servers use (see above). */
export const STATE_HOME: string = process.env.XDG_STATE_HOME;

/** The state directory Signalint picks for a project when SIGNALINT_STATE_DIR is not set (service/project/user-state.ts). */
export function defaultStateDir(project: string): string {
  const key = createHash("sha256").update(realpathSync(project)).digest("hex").slice(0, 24);
  return join(STATE_HOME, "signalint", "projects", key);
}
/** Passed to every Signalint a helper starts (their environment is given whole): its integrity key lives there too. */
export const STATE_HOME_ENV: Record<string, string> = { XDG_STATE_HOME: STATE_HOME };

/** A fresh temporary directory (under this process's root, removed at exit at the latest). */
export function tempDir(prefix = "signalint-test-"): string {
  return mkdtempSync(join(TEMP_ROOT, prefix));
}

/** Engine packages a scratch project links into its node_modules, as a project with its own installs has. */
const ENGINE_PACKAGES: Record<string, string> = { oxlint: "oxlint", tsc: "typescript", biome: "@biomejs/biome", eslint: "eslint" };

/**
 * Copy a fixture into a fresh folder outside this repository (so no .gitignore of ours hides its files from the
 * linters), with node_modules/<package> links to the engine packages installed here.
 */
export function scratchCopy(name: string, label = name): string {
  const target = tempDir(`signalint-${label}-`);
  // A state directory left in the fixture by a manual run is not part of it.
  cpSync(fixture(name), target, { recursive: true, filter: (source) => basename(source) !== ".signalint" });
  for (const pkg of Object.values(ENGINE_PACKAGES)) linkPackage(target, pkg, join(REPO, "node_modules", pkg));
  return target;
}

export function removeDir(path: string): void {
  // Retried: a server may still be writing there (a daemon's state directory), and a file it adds meanwhile makes the
  // last rmdir fail with ENOTEMPTY.
  rmSync(path, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
}

/** Link `node_modules/<pkg>` of a project to a package directory (as npm links a workspace, or pnpm every package). */
export function linkPackage(project: string, pkg: string, packageDir: string): void {
  const link = join(project, "node_modules", pkg);
  mkdirSync(dirname(link), { recursive: true });
  rmSync(link, { recursive: true, force: true });
  symlinkSync(packageDir, link);
}

/**
 * Install `target` as a project's engine `name` (oxlint, tsc, biome, eslint): the real package when `target` is the
 * entry of a package of that name (typescript7's bin/tsc), else a stand-in package whose bin is `target`; plus the
 * node_modules/.bin link npm writes (Signalint never reads it; raw-engine comparisons may run it).
 */
export function linkBin(project: string, name: string, target: string): void {
  const pkg = ENGINE_PACKAGES[name] ?? name;
  const owner = join(dirname(target), "..", "package.json");
  if (existsSync(owner) && (JSON.parse(readFileSync(owner, "utf8")) as { name?: string }).name === pkg) {
    linkPackage(project, pkg, dirname(owner));
  } else {
    const standin = join(project, "node_modules", pkg);
    rmSync(standin, { recursive: true, force: true });
    mkdirSync(standin, { recursive: true });
    writeFileSync(join(standin, "package.json"), JSON.stringify({ name: `${pkg}-standin`, bin: { [name]: "entry" } }));
    symlinkSync(target, join(standin, "entry"));
  }
  mkdirSync(join(project, "node_modules", ".bin"), { recursive: true });
  rmSync(join(project, "node_modules", ".bin", name), { force: true });
  symlinkSync(target, join(project, "node_modules", ".bin", name));
}

/** A connected SDK client (with its default Ajv output validation) on the built bundle. */
export interface Connected {
  client: Client;
  stderr: () => string;
  /** Resolves with the server's stderr so far once it matches `pattern` (an event, not a poll). */
  stderrMatching: (pattern: RegExp) => Promise<string>;
  close: () => Promise<void>;
  pid: number | null;
}

/** PATH without node_modules/.bin entries (npm run adds them), so tests see what a user's shell sees. */
export const CLEAN_PATH = (process.env.PATH ?? "")
  .split(":")
  .filter((dir) => !dir.includes("node_modules/.bin"))
  .join(":");

/** The Deno executable installed as a devDependency. */
export const DENO = join(REPO, "dist", "deno", "package", process.platform === "win32" ? "deno.exe" : "deno");
/** Minimal permissions the bundle needs under Deno. */
export const DENO_FLAGS = ["run", "--allow-read", "--allow-write", "--allow-run", "--allow-env"];

export async function connect(cwd: string, env: Record<string, string> = {}, runtime: "node" | "deno" = "node"): Promise<Connected> {
  const stateDir = env.SIGNALINT_STATE_DIR ?? tempDir("signalint-state-");
  const transport = new StdioClientTransport({
    command: runtime === "node" ? process.execPath : DENO,
    args: runtime === "node" ? [BUNDLE] : [...DENO_FLAGS, BUNDLE],
    cwd,
    // No prewarm unless a test asks for one: a server slow to get its first check (a loaded machine) would prewarm.
    env: {
      PATH: CLEAN_PATH,
      HOME: process.env.HOME ?? "",
      XDG_STATE_HOME: STATE_HOME,
      SIGNALINT_DAEMON: "0",
      SIGNALINT_STATE_DIR: stateDir,
      SIGNALINT_PREWARM_DELAY_MS: "off",
      ...env,
    },
    stderr: "pipe",
  });
  let stderr = "";
  const waiters = new Set<() => void>();
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
    for (const waiter of [...waiters]) waiter();
  });
  const stderrMatching = (pattern: RegExp) =>
    new Promise<string>((resolve) => {
      const check = () => {
        if (!pattern.test(stderr)) return;
        waiters.delete(check);
        resolve(stderr);
      };
      waiters.add(check);
      check();
    });
  const client = new Client({ name: "signalint-test", version: "1.0.0" });
  await client.connect(transport);
  await client.listTools(); // caches output validators, as real clients do
  return {
    client,
    stderr: () => stderr,
    stderrMatching,
    pid: transport.pid,
    close: async () => {
      await client.close();
      if (!env.SIGNALINT_STATE_DIR) removeDir(stateDir);
    },
  };
}

/** Call a tool and return its result (output validated by the SDK client against the advertised schema). */
export async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/**
 * Progress notifications the SDK client reported through onerror as arriving for a retired token. The client (1.x)
 * runs a progress handler a microtask late but retires the token as it reads the response, so a last notification
 * read in the same chunk as the response lands there (modelcontextprotocol/typescript-sdk#2580; the server sent it
 * first, and no server can avoid the race).
 */
export function lateProgress(errors: readonly string[]): { progress: number; message?: string }[] {
  const prefix = "Received a progress notification for an unknown token: ";
  return errors.flatMap((error) => (error.startsWith(prefix) ? [JSON.parse(error.slice(prefix.length)).params] : []));
}

/** The structuredContent of a successful result (asserting success). */
export function structured<T = Record<string, unknown>>(result: CallToolResult): T {
  if (result.isError) throw new Error(`tool failed: ${JSON.stringify(result.content)}`);
  return result.structuredContent as T;
}

/** A check's engines with their versions: check responses leave versions out, the check's snapshot keeps them. */
export async function enginesOf(session: Connected, checkId: string): Promise<CheckResponse["engines"]> {
  return structured<{ engines: CheckResponse["engines"] }>(await call(session.client, "get_diagnostic_snapshot", { checkId })).engines;
}

/** A check response's issue with the fields it leaves out at their defaults (fixable false, clusterId null). */
export function fullIssue(issue: CheckIssue): NormalizedIssue {
  return { ...issue, fixable: issue.fixable ?? false, clusterId: issue.clusterId ?? null };
}

/** Every issue of a check: its remaining issues and each cluster's, expanded with get_issue_detail. */
export async function everyIssue(session: Connected, response: CheckResponse): Promise<NormalizedIssue[]> {
  const issues = (response.remainingIssues ?? []).map(fullIssue);
  for (const cluster of response.clusters) {
    issues.push(...structured<{ issues: NormalizedIssue[] }>(await call(session.client, "get_issue_detail", { clusterId: cluster.clusterId })).issues);
  }
  return issues;
}

/** Each engine's report: an issue merged from several engines counts once per engine (alsoReportedBy). */
export function eachReport(issues: readonly NormalizedIssue[]): NormalizedIssue[] {
  return issues.flatMap((issue) => [issue, ...(issue.alsoReportedBy ?? []).map((other) => ({ ...issue, ...other }))]);
}

/** The error envelope of a failed result. */
export function errorOf(result: CallToolResult): { code: string; message: string } {
  if (!result.isError) throw new Error(`expected an error, got ${JSON.stringify(result).slice(0, 300)}`);
  const first = result.content[0];
  const envelope = JSON.parse(first?.type === "text" ? first.text : "{}") as { status: string; code: string; message: string };
  if (envelope.status !== "error" || result._meta?.code !== envelope.code || result.structuredContent !== undefined) {
    throw new Error(`malformed error result: ${JSON.stringify(result)}`);
  }
  return envelope;
}

/**
 * A fixture file's path as CI formats name it: relative to the repository root (this checkout, when it is a git
 * checkout; else the fixture is its own root).
 */
export function ciPath(fixtureName: string, file: string): string {
  return existsSync(join(REPO, ".git")) ? `fixtures/${fixtureName}/${file}` : file;
}

/** Run the bundle's CLI synchronously, with a state directory of its own (removed after) unless `env` names one. */
export function runCli(args: string[], options: { cwd: string; env?: Record<string, string> }): { status: number | null; stdout: string; stderr: string } {
  const stateDir = options.env?.SIGNALINT_STATE_DIR === undefined ? tempDir("signalint-state-") : undefined;
  try {
    const result = spawnSync(process.execPath, [BUNDLE, ...args], {
      cwd: options.cwd,
      env: {
        PATH: CLEAN_PATH,
        HOME: process.env.HOME ?? "",
        XDG_STATE_HOME: STATE_HOME,
        SIGNALINT_DAEMON: "0",
        // A daemon it starts prewarms only when a test asks (see connect).
        SIGNALINT_PREWARM_DELAY_MS: "off",
        ...(stateDir ? { SIGNALINT_STATE_DIR: stateDir } : {}),
        ...options.env,
      },
      encoding: "utf8",
      input: "",
    });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  } finally {
    if (stateDir) removeDir(stateDir);
  }
}

/** True once the process no longer exists (or is a zombie waiting for its new parent to reap it). */
export async function gone(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    let state = "";
    try {
      state = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0] ?? "";
    } catch {
      return true;
    }
    if (state === "Z") return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Whitespace collapsed, as messages are compared with an engine's raw text. */
export function flatMessage(message: string): string {
  return message.replace(/\s+/g, " ").trim();
}

/** Every issue of a check made in this process: its remaining issues and each cluster's (issueDetail). */
export function serviceIssues(service: SignalintService, response: CheckResponse): NormalizedIssue[] {
  const issues: NormalizedIssue[] = (response.remainingIssues ?? []).map(fullIssue);
  for (const cluster of response.clusters) {
    const detail = service.issueDetail({ clusterId: cluster.clusterId, checkId: response.checkId });
    if ("issues" in detail) issues.push(...detail.issues.map(fullIssue));
  }
  return issues;
}

/**
 * Every tsc issue of a check made in this process, as `file:line:col rule message` with the whole message
 * (get_issue_detail's fullMessage where the check's message was cut), whitespace collapsed; unsorted, repeats kept.
 */
export function serviceTscKeys(service: SignalintService, response: CheckResponse): string[] {
  const issues = serviceIssues(service, response);
  const whole = (issue: NormalizedIssue) => {
    const detail = service.issueDetail({ issueId: issue.issueId, checkId: response.checkId });
    const found = "issues" in detail ? detail.issues.find((one) => one.issueId === issue.issueId) : undefined;
    return flatMessage(found?.fullMessage ?? issue.message);
  };
  return issues.filter((issue) => issue.engine === "tsc").map((issue) => `${issue.file}:${issue.line}:${issue.col} ${issue.rule} ${whole(issue)}`);
}

/**
 * What the project's own `tsc --noEmit -p <config>` reports, as "file:line:col rule", for each config (the project's
 * TypeScript unless `tsc` names another); deduplicated and sorted.
 */
export function rawTscKeys(dir: string, configs: string[], tsc = join(REPO, "node_modules", "typescript", "bin", "tsc")): string[] {
  const found = new Set<string>();
  for (const config of configs) {
    const run = spawnSync(process.execPath, [tsc, "--noEmit", "--pretty", "false", "-p", config], { cwd: dir, encoding: "utf8", env: { PATH: CLEAN_PATH } });
    for (const line of run.stdout.split("\n")) {
      const match = /^(.+?)\((\d+),(\d+)\): error (TS\d+)/.exec(line);
      if (match) found.add(`${relative(dir, join(dir, match[1] as string))}:${match[2]}:${match[3]} ${match[4]}`);
    }
  }
  return [...found].sort();
}

/** What the project's own `eslint <args>` (ESLint 10 from this repository) reports, as "file:line rule", sorted. */
export function rawEslintKeys(dir: string, args: string[] = ["."]): string[] {
  const run = spawnSync(process.execPath, [join(REPO, "node_modules", "eslint", "bin", "eslint.js"), "--format", "json", ...args], {
    cwd: dir,
    encoding: "utf8",
    env: { PATH: CLEAN_PATH },
  });
  return (JSON.parse(run.stdout) as { filePath: string; messages: { line: number; ruleId: string }[] }[])
    .flatMap((file) => file.messages.map((message) => `${relative(dir, file.filePath)}:${message.line} ${message.ruleId}`))
    .sort();
}
