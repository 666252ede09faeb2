// npm run bench:latency: a generated 1,000-file TypeScript project, checked by a real MCP client; every figure is a
// ratio to a cold `tsc --noEmit` of the project's own TypeScript. Every step is an edit that adds an error (or a step
// with nothing changed, marked so), and the cold run right after it on the same tree is its reference: the server's
// issues must equal it (file, line, col, code), with no isError and no failed engine, else the bench exits 1
// (bench-harness.mjs). Private state and cache homes; nothing is written into the generated project.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { generateFlat, generateRefs as generateRefsLayout, processTreeMemory, ROOT } from "./bench-projects.mjs";
import {
  cliCheck,
  coldTsc as coldRun,
  env as benchEnv,
  freshEnv,
  mcpCheck,
  median,
  openSession,
  Project,
  printSteps,
  runBench,
  step,
  tempDir,
  tscKeys,
} from "./bench-harness.mjs";
import { coldWorkspace, generateWorkspaceProject } from "./bench-workspace-project.mjs";

// BENCH_PROJECT=refs: the project-references monorepo of bench-refs-project.mjs; ratios are to a cold `tsc -b`.
const REFS = process.env.BENCH_PROJECT === "refs";
// BENCH_PROJECT=workspace9: a workspace of 9 packages, one tsconfig each (bench-workspace-project.mjs); ratios are to
// cold `tsc --noEmit -p` runs of the nine configs, one after another.
const WORKSPACE = process.env.BENCH_PROJECT === "workspace9";
const FILES = Number(process.env.BENCH_FILES ?? (REFS ? 2000 : 1000));
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const QUIET_ROUNDS = 3;
const VERSIONS = (process.env.BENCH_TS ?? "5,7")
  .split(",")
  .map((v) => (v === "5" ? 0 : 1))
  .map(
    (i) =>
      [
        ["TypeScript 5.9", join(ROOT, "node_modules", "typescript", "bin", "tsc")],
        ["TypeScript 7", join(ROOT, "node_modules", "typescript7", "bin", "tsc")],
      ][i],
  );

// BENCH_TSC_ONLY=1 measures tsc alone (no linter in the project).
const TSC_ONLY = Boolean(process.env.BENCH_TSC_ONLY);
const generate = (dir, tsc) => generateFlat(dir, { tsc, files: FILES, tscOnly: TSC_ONLY });
const generateRefs = (dir, tsc) => generateRefsLayout(dir, { tsc, files: FILES, tscOnly: TSC_ONLY });

/** The 9-package workspace beside the same engine links; returns the files the steps check and edit. */
function generateWorkspace(dir, tsc) {
  mkdirSync(join(dir, "node_modules"), { recursive: true });
  symlinkSync(resolve(tsc, "..", ".."), join(dir, "node_modules", "typescript"));
  symlinkSync(join(ROOT, "node_modules", "oxlint"), join(dir, "node_modules", "oxlint"));
  const layout = generateWorkspaceProject(dir, { files: FILES });
  if (process.env.BENCH_TSC_ONLY) writeFileSync(join(dir, "signalint.config.json"), '{ "engines": { "oxlint": false } }\n');
  return layout;
}

/** A cold run of the project's own tsc (`-b` on a fresh copy for references), or of each of the workspace's nine tsconfigs. */
function coldTsc(dir, tsc) {
  if (!WORKSPACE) return coldRun(dir, { tsc, build: REFS });
  const result = coldWorkspace(dir, tsc);
  return { ms: result.ms, keys: tscKeys(result.stdout, dir), failed: null };
}

/** A server of its own (no daemon: one server per session), started from nothing unless `environment` says otherwise. */
const serverEnv = (environment = freshEnv()) => ({ ...environment, SIGNALINT_DAEMON: "0" });

/** The edits: each adds a type error, so an answer repeated from before the edit differs from the cold run. */
const breakLeaf = (project, file) => () => project.replace(file, "x * 3 +", 'x * "3" +');
/** The hub's exported interface changes (every importer is re-checked) and the hub itself gets an error. */
const changeHub = (project, file) => () => {
  project.replace(file, "  name: string;\n}", "  name: string;\n  tag?: number;\n}");
  project.replace(file, "${record.name}`", "${record.name}:${record.tag.toFixed()}`");
};

/** The slowest `ping` answer while a fresh server's first check_project builds the warm program (one ping at a time). */
async function pingWhileBuilding(dir) {
  const { client } = await openSession(dir, serverEnv(), "bench-ping");
  let done = false;
  const checking = client.callTool({ name: "check_project", arguments: {} }).finally(() => (done = true));
  await new Promise((resolve) => setTimeout(resolve, 300));
  let slowest = 0;
  while (!done) {
    const started = performance.now();
    await client.callTool({ name: "ping", arguments: {} });
    slowest = Math.max(slowest, performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await checking;
  await client.close();
  return slowest;
}

/** A generated project (the 1,000-file one, the references monorepo or the workspace) and the files its steps edit. */
function generateLayout(dir, tsc) {
  return REFS ? generateRefs(dir, tsc) : WORKSPACE ? generateWorkspace(dir, tsc) : generate(dir, tsc);
}

/** Bytes under a directory (the persisted state's size on disk). */
function bytesUnder(dir) {
  const result = spawnSync("du", ["-sb", dir], { encoding: "utf8" });
  return Number(result.stdout.split("\t")[0] ?? 0);
}

/**
 * One fresh MCP server (no daemon: stopping it stops everything, as a reboot or an exited server would) that runs one
 * check and stops; a step of the harness (its time from the client, compared with the cold run right after it).
 */
async function checkInFreshServer(project, group, environment, label, tool, args, { thinkMs = 0, edit = null, unchanged = false } = {}) {
  let session = null;
  const row = await step(project, {
    group,
    label,
    edit,
    unchanged,
    files: args.files ?? null,
    measure: async () => {
      session = await openSession(project.dir, serverEnv(environment), "bench-restart");
      await session.client.listTools();
      // An agent reads before its first check: the server prewarms meanwhile (SIGNALINT_PREWARM_DELAY_MS, default 1 s).
      if (thinkMs) await new Promise((resolve) => setTimeout(resolve, thinkMs));
      return mcpCheck(session.client, tool, args);
    },
  });
  await session?.client.close();
  return row;
}

/** The release binary for this machine, as the GitHub Action runs it, when `npm run build:binaries` made one. */
const BINARY = join(ROOT, "dist", "bin", `signalint-mcp-${process.platform === "win32" ? "win" : process.platform}-${process.arch}`);

/** `signalint-mcp check --cache-dir` as CI runs it (CI=true, a new process, the bench's private state home). */
function ciCheck(dir, cacheDir, binary = null) {
  const environment = benchEnv({ CI: "true" });
  if (!binary) return cliCheck(dir, environment, ["--cache-dir", cacheDir]);
  const started = performance.now();
  const run = spawnSync(binary, ["check", "--format", "json", "--cache-dir", cacheDir], { cwd: dir, env: environment, encoding: "utf8", maxBuffer: 1024 ** 3 });
  const ms = performance.now() - started;
  try {
    const report = JSON.parse(run.stdout);
    return { ms, isError: false, issues: report.issues, engines: report.engines };
  } catch {
    return { ms, isError: true, issues: [], text: `the binary printed no report (exit ${run.status}): ${run.stderr.slice(0, 300)}` };
  }
}

/** How long the restart phase's agent reads before its first check (BENCH_THINK_MS, default 10 s). */
const THINK_MS = Number(process.env.BENCH_THINK_MS ?? 10_000);

/**
 * Warm from disk (issue 17): the first check of a fresh server on an unchanged, already-checked project; the same after
 * a leaf was edited (an error added) while nothing ran; CI's `check --cache-dir` with the cache of an earlier run.
 */
async function measureRestart(label, tsc) {
  const dir = tempDir("restart-");
  // One state home and cache home for every server of this phase: what one persists, the next restores.
  const environment = freshEnv();
  const layout = generateLayout(dir, tsc);
  const project = new Project(dir, { reference: () => coldTsc(dir, tsc) });
  const cold = [];
  for (let i = 0; i < RUNS; i++) cold.push((await project.baseline()).ms);
  const extra = [];
  // The session before the restart: builds the warm program, which persists its state.
  await checkInFreshServer(project, label, environment, "first check_project (before the restart)", "check_project", {}, { unchanged: true });
  await checkInFreshServer(project, label, environment, "check_project after a restart, unchanged", "check_project", {}, { unchanged: true });
  // TypeScript's own floor for the next row: `tsc --incremental` with its build info (outside the tree) primed before
  // the same edit (not for references: a cold `tsc -b` of a fresh copy is the reference there).
  const buildInfo = join(tempDir("reference-"), "reference.tsbuildinfo");
  const incremental = () => {
    const started = performance.now();
    spawnSync(process.execPath, [tsc, "--noEmit", "-p", "tsconfig.json", "--incremental", "--tsBuildInfoFile", buildInfo], { cwd: dir });
    return performance.now() - started;
  };
  if (!REFS && !WORKSPACE) incremental();
  await checkInFreshServer(
    project,
    label,
    environment,
    "check_project after a restart, one leaf edited while stopped (an error added)",
    "check_project",
    {},
    {
      edit: breakLeaf(project, layout.leaf),
    },
  );
  if (!REFS && !WORKSPACE) extra.push(`(reference) \`tsc --incremental\` after the same edit, its build info primed: ${incremental().toFixed(0)} ms`);
  await checkInFreshServer(
    project,
    label,
    environment,
    `the same with another leaf, asked ${THINK_MS / 1000} s after the server started`,
    "check_project",
    {},
    { thinkMs: THINK_MS, edit: breakLeaf(project, layout.another) },
  );
  const stateBytes = bytesUnder(environment.XDG_CACHE_HOME);
  const ciCache = tempDir("ci-cache-");
  ciCheck(dir, ciCache);
  await step(project, { group: label, label: "CI `check --cache-dir`, restored cache, unchanged", unchanged: true, measure: () => ciCheck(dir, ciCache) });
  if (existsSync(BINARY)) {
    // The GitHub Action runs the release binary (its own Node), not this Node and the bundle.
    const binaryCache = tempDir("ci-cache-");
    ciCheck(dir, binaryCache, BINARY);
    await step(project, {
      group: label,
      label: "the same with the release binary (as the GitHub Action runs it)",
      unchanged: true,
      measure: () => ciCheck(dir, binaryCache, BINARY),
    });
  }
  return { label, coldMs: median(cold), extra, stateBytes, ciBytes: bytesUnder(ciCache) };
}

/**
 * Issue 17 item 4: the same request again with nothing changed since it last ran answers from its kept results (tsc
 * mode "unchanged"; no engine runs). Marked unchanged: the harness checks the cold run did not change either.
 */
async function quietRows(timed, layout) {
  // Three rounds: one sample of a few milliseconds is at the mercy of a GC pause or another process's time slice.
  for (let round = 1; round <= QUIET_ROUNDS; round++) {
    await timed(`check_project, nothing changed since the same check (round ${round})`, "check_project", {});
    await timed(`check_files, nothing changed since the same check (round ${round})`, "check_files", { files: [layout.some] });
  }
}

async function measure(label, tsc) {
  const dir = tempDir("latency-");
  const layout = generateLayout(dir, tsc);
  const project = new Project(dir, { reference: () => coldTsc(dir, tsc) });
  const cold = [];
  for (let i = 0; i < RUNS; i++) cold.push((await project.baseline()).ms);
  const pingMs = await pingWhileBuilding(dir);
  const { client, transport } = await openSession(dir, serverEnv(), "bench-latency");
  await client.listTools();
  const serverMs = [];
  const timed = async (name, tool, args, edit = null) => {
    const row = await step(project, {
      group: label,
      label: name,
      edit,
      unchanged: !edit,
      files: args.files ?? null,
      measure: async () => {
        const answer = await mcpCheck(client, tool, args);
        // check_files' response carries its cache figures; the snapshot's server time is wanted for the no-change steps.
        if (name.includes("nothing changed") && answer.serverMs === undefined && answer.response?.checkId)
          answer.serverMs = (
            await client.callTool({ name: "get_diagnostic_snapshot", arguments: { checkId: answer.response.checkId } })
          ).structuredContent?.durationMs;
        return answer;
      },
    });
    return row;
  };
  const noChange = async (name, tool, args) => {
    const answer = { serverMs: undefined };
    await step(project, {
      group: label,
      label: name,
      unchanged: true,
      files: args.files ?? null,
      measure: async () => {
        const result = await mcpCheck(client, tool, args);
        answer.serverMs =
          result.serverMs ??
          (await client.callTool({ name: "get_diagnostic_snapshot", arguments: { checkId: result.response?.checkId } })).structuredContent?.durationMs;
        return result;
      },
    });
    serverMs.push({ name, ms: answer.serverMs });
  };
  await timed("check_project, cold server", "check_project", {});
  // The agent flow: the first check_project builds the warm program, the agent edits a leaf at once and checks it.
  await timed("check_files, leaf edit right after the first check_project", "check_files", { files: [layout.another] }, breakLeaf(project, layout.another));
  const memory = processTreeMemory(transport.pid);
  await noChange("check_project, nothing changed", "check_project", {});
  await noChange("check_files, nothing changed", "check_files", { files: [layout.some] });
  await quietRows(noChange, layout);
  await timed("check_files after a leaf edit", "check_files", { files: [layout.leaf] }, breakLeaf(project, layout.leaf));
  await timed("check_files after a hub edit (interface changed, an error in the hub)", "check_files", { files: [layout.hub] }, changeHub(project, layout.hub));
  await timed("check_files after a hub edit that breaks every importer (`id` retyped)", "check_files", { files: [layout.hub, layout.first] }, () =>
    project.replace(layout.hub, "  id: number;", "  id: string;"),
  );
  await client.close();
  return { label, coldMs: median(cold), pingMs, memory, serverMs };
}

await runBench(async () => {
  // BENCH_RESTART=1: the warm-from-disk phase (issue 17) instead of the in-session steps.
  if (process.env.BENCH_RESTART) {
    const restarts = [];
    for (const [label, tsc] of VERSIONS) restarts.push(await measureRestart(label, tsc));
    const project = REFS ? `${FILES}-file project-references monorepo (ratios to a cold \`tsc -b\`)` : `${FILES}-file project`;
    printSteps(`warm from disk on a generated ${project}; each check measured once, each ratio to the cold run right after it`);
    console.log("");
    for (const { label, coldMs, extra, stateBytes, ciBytes } of restarts) {
      console.log(`- ${label}: cold tsc before the steps, median of ${RUNS}: ${coldMs.toFixed(0)} ms`);
      for (const line of extra) console.log(`- ${label}: ${line}`);
      console.log(`- ${label}: persisted state on disk ${(stateBytes / 1024).toFixed(0)} KiB (server); CI cache directory ${(ciBytes / 1024).toFixed(0)} KiB`);
    }
    return;
  }
  const results = [];
  for (const [label, tsc] of VERSIONS) results.push(await measure(label, tsc));
  printSteps(
    `latency on a generated ${FILES}-file ${REFS ? "project-references monorepo (ratios to a cold `tsc -b`)" : WORKSPACE ? "workspace of 9 tsconfigs (ratios to 9 cold `tsc -p` runs)" : "project"}; each check measured once from the MCP client (round trip and oxlint included), each ratio to the cold run right after it`,
  );
  console.log(
    "\n| TypeScript | cold tsc before the steps, median (ms) | `ping` while a warm program builds, slowest (ms) | server RSS (MB) | warm hosts' RSS (MB) |",
  );
  console.log("|---|---:|---:|---:|---:|");
  for (const { label, coldMs, pingMs, memory } of results)
    console.log(`| ${label} | ${coldMs.toFixed(0)} | ${pingMs.toFixed(0)} | ${memory?.server.toFixed(0) ?? "?"} | ${memory?.hosts.toFixed(0) ?? "?"} |`);
  console.log("\nServer time of the no-change steps (the check's own duration, from get_diagnostic_snapshot):\n");
  for (const { label, serverMs } of results) {
    for (const row of serverMs.filter((row) => !row.name.includes("round"))) console.log(`- ${label}, ${row.name}: ${row.ms} ms`);
    for (const tool of ["check_project", "check_files"]) {
      const quiet = serverMs.filter((row) => row.name.startsWith(`${tool}, nothing changed since the same check`)).map((row) => row.ms);
      if (quiet.length) console.log(`- ${label}, ${tool} with nothing changed, median of ${quiet.length} rounds: ${median(quiet)} ms`);
    }
  }
});
