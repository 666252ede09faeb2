// npm run bench:real -- --root DIR --spec FILE [--steps 0,1,4]: a real repository, by hand (issue 36 item 5). On a
// copy of DIR (`cp -a` of everything but node_modules, which is linked; never the repository itself), one MCP session runs the spec's steps: each an edit given as
// search/replace on files (or a file deleted / restored), then the timed Signalint call, then the project's own
// incremental command(s) for the same step (timed; their build info outside the tree), then the project's own cold
// command(s) over the whole project, whose issues the answer must equal (bench-harness.mjs: file, line, col, code;
// isError; every engine's status; every edit must change the cold answer). Exit 1 on any mismatch. The copy is
// restored (every edited file put back) and checked against its snapshot at the end, then removed.
//
// The spec (JSON; build/bench-specs/ky.json is one):
// {
//   "name": "ky",
//   "tool": "check_project",                     // the default call: check_project | check_files | after_edit_check
//   "engines": ["tsc"],                          // the engines compared (the cold commands' parsers)
//   "cold": [{ "command": ["node_modules/.bin/tsc", "--noEmit", "--pretty", "false", "-p", "tsconfig.json"], "parse": "tsc" }],
//   "incremental": [["node_modules/.bin/tsc", "--noEmit", "-p", "tsconfig.json", "--incremental", "--tsBuildInfoFile", "{tmp}/a.tsbuildinfo"]],
//   "steps": [
//     { "label": "first check" },                // no edit: compared, not required to change the answer
//     { "label": "leaf: an error added", "kind": "leaf", "files": ["source/utils/delay.ts"],
//       "edits": [{ "file": "source/utils/delay.ts", "search": "…", "replace": "…" }] },  // or { "file", "create": "<text>" }
//     { "label": "file deleted", "delete": "source/utils/delay.ts" },
//     { "label": "file restored", "restore": "source/utils/delay.ts" }
//   ]
// }
// `{tmp}` in a command is a private temporary directory (outside the tree); commands run in the copy's root. A step's
// `tool` overrides the default; `files` are the named files (check_files / after_edit_check compare those files only).
// `cold[].parse`: "tsc" (`--pretty false` text), "svelte-check" (`--output machine-verbose`), "eslint" or "oxlint"
// (`--format json`).
// A project whose own commands write into its tree (`tsc -b` of a composite solution writes dist/ and build info
// beside its configs) runs them elsewhere, so the copy Signalint checks stays the repository's tree:
// `cold[].in: "fresh-copy"` runs that command in a fresh copy of the tree made for it (the copy's node_modules linked),
// and `"incrementalIn": "mirror"` runs the incremental commands in one mirror copy made at the start, to which every
// step's edits are applied too (its outputs and build info persist there between steps, as in a developer's tree).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { env, fail, keyOf, mcpCheck, openSession, Project, printSteps, runBench, step, stopDaemon, tempDir, tscKeys } from "./bench-harness.mjs";

const { values } = parseArgs({
  options: {
    root: { type: "string" },
    spec: { type: "string" },
    steps: { type: "string" },
  },
});
if (!values.root || !values.spec) {
  console.error("usage: npm run bench:real -- --root DIR --spec FILE");
  process.exit(2);
}
const spec = JSON.parse(readFileSync(values.spec, "utf8"));
const tmp = tempDir("real-tmp-");
const fill = (args) => args.map((arg) => arg.replaceAll("{tmp}", tmp));

/** A copy of `source` at `target` (everything but node_modules, which is linked): cp -a keeps links, modes and times. */
function copyTree(source, target) {
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  for (const name of readdirSync(source).filter((name) => name !== "node_modules")) {
    const copy = spawnSync("cp", ["-a", join(source, name), join(target, name)], { encoding: "utf8" });
    if (copy.status !== 0) throw new Error(`cp -a ${join(source, name)} failed: ${copy.stderr}`);
  }
  const modules = join(source, "node_modules");
  if (existsSync(modules)) linkModules(realpathSync(modules), join(target, "node_modules"));
}

/**
 * The copy's node_modules: a directory of links to the repository's packages, except that a link the repository itself
 * holds is made again with the same target text — a workspace package linked as `../../libs/x` then resolves to the
 * copy's own `libs/x`, so an edit there reaches its importers (a link to the whole node_modules would resolve it to the
 * repository's unedited tree). Scope directories get the same, entry by entry.
 */
function linkModules(source, target) {
  mkdirSync(target, { recursive: true });
  for (const entry of readdirSync(source, { withFileTypes: true })) {
    const from = join(source, entry.name);
    const to = join(target, entry.name);
    if (entry.isSymbolicLink()) symlinkSync(readlinkSync(from), to);
    else if (entry.isDirectory() && entry.name.startsWith("@")) linkModules(from, to);
    else symlinkSync(from, to);
  }
}

/** One command of the spec in the copy, timed; its stdout. */
function runCommand(dir, args) {
  const [command, ...rest] = fill(args);
  const started = performance.now();
  const run = spawnSync(command.includes("/") ? resolve(dir, command) : command, rest, { cwd: dir, encoding: "utf8", maxBuffer: 1024 ** 3 });
  return {
    ms: performance.now() - started,
    status: run.status,
    stdout: run.stdout ?? "",
    stderr: run.stderr ?? "",
    error: run.error,
  };
}

const PARSERS = {
  // Located errors, and a global one (`error TS6053: File … not found.`) on the config given with -p, as Signalint
  // reports a program-wide diagnostic (at 1:1 of that config).
  tsc: (stdout, dir, command) => {
    const project =
      command.indexOf("-p") >= 0 ? command[command.indexOf("-p") + 1] : command.includes("--project") ? command[command.indexOf("--project") + 1] : null;
    const global = stdout
      .split("\n")
      .map((line) => /^error (TS\d+): /.exec(line))
      .filter(Boolean)
      .map((m) => keyOf("tsc", project ?? "tsconfig.json", 1, 1, m[1]));
    return [...tscKeys(stdout, dir), ...global];
  },
  // `svelte-check --output machine-verbose`: one JSON diagnostic a line (0-based positions, paths relative to the
  // workspace, its cwd here); a TypeScript code as TS<code>, a Svelte or CSS code as it is, engine tsc as Signalint has it.
  "svelte-check": (stdout) =>
    stdout
      .split("\n")
      .map((line) => /^\d+ (\{.*\})$/.exec(line)?.[1])
      .filter(Boolean)
      .map((json) => JSON.parse(json))
      .map((d) =>
        keyOf("tsc", d.filename.replace(/\\/g, "/"), d.start.line + 1, d.start.character + 1, typeof d.code === "number" ? `TS${d.code}` : d.code || d.source),
      ),
  // `oxlint --format json`: its diagnostics, positions from the first label (1-based), paths relative to its cwd.
  oxlint: (stdout, dir) =>
    (JSON.parse(stdout || "{}").diagnostics ?? [])
      .filter((d) => typeof d.filename === "string")
      .map((d) =>
        keyOf("oxlint", relative(dir, resolve(dir, d.filename)), d.labels?.[0]?.span?.line ?? 1, d.labels?.[0]?.span?.column ?? 1, d.code || "oxlint"),
      ),
  // ESLint's JSON is its last line: a plugin may print before it (@nx/enforce-module-boundaries' "No cached ProjectGraph").
  eslint: (stdout, dir) =>
    JSON.parse(stdout.trim().split("\n").at(-1) || "[]").flatMap((file) =>
      file.messages.filter((m) => m.ruleId).map((m) => keyOf("eslint", relative(dir, file.filePath), m.line, m.column, m.ruleId)),
    ),
};

/** The project's own cold command(s) over the whole project: the reference of every step. */
function cold(dir) {
  let ms = 0;
  const keys = [];
  const failed = [];
  for (const { command, parse, in: where } of spec.cold) {
    // A fresh copy per command: the copying is not timed, the command's outputs never reach the tree.
    const cwd = where === "fresh-copy" ? join(tmp, "cold") : dir;
    if (where === "fresh-copy") copyTree(dir, cwd);
    const run = runCommand(cwd, command);
    ms += run.ms;
    // tsc exits 2 with errors in a build; ESLint and oxlint exit 2 only when they could not run (a pattern matching
    // nothing, a config that does not load): no answer then, never an empty one.
    const worst = parse === "tsc" ? 2 : 1;
    if (run.error || run.status === null || run.status > worst) failed.push(`${command.join(" ")} exited ${run.status}: ${run.stderr.slice(0, 300)}`);
    // svelte-check exits 1 both with errors and when it could not run: only a COMPLETED line is an answer.
    else if (parse === "svelte-check" && !/^\d+ COMPLETED /m.test(run.stdout))
      failed.push(`${command.join(" ")} did not complete: ${(run.stdout + run.stderr).slice(0, 300)}`);
    keys.push(...PARSERS[parse](run.stdout, cwd, command));
  }
  return {
    ms,
    keys: [...new Set(keys)].sort(),
    failed: failed.join("; ") || null,
  };
}

/** The project's own incremental command(s) for the step just made (their build info kept in {tmp}). */
function incremental(dir) {
  let ms = 0;
  for (const args of spec.incremental ?? []) ms += runCommand(spec.incrementalIn === "mirror" ? mirror : dir, args).ms;
  return ms;
}
const mirror = join(tmp, "mirror");

await runBench(async () => {
  const source = resolve(values.root);
  const dir = join(tempDir("real-"), spec.name ?? "project");
  // A copy (cp -a keeps links, modes and times): the repository itself is never edited. Its node_modules is linked,
  // not copied (read only, and left out of the tree snapshots with .git).
  copyTree(source, dir);
  if (spec.incrementalIn === "mirror") copyTree(dir, mirror);
  const project = new Project(dir, {
    reference: () => cold(dir),
    exclude: [join(dir, "node_modules"), join(dir, ".git")],
  });
  const original = project.before;
  const saved = new Map();
  const keep = (file) => {
    if (!saved.has(file)) saved.set(file, existsSync(join(dir, file)) ? readFileSync(join(dir, file)) : null);
  };
  await project.baseline();
  incremental(dir); // primes the incremental command's build info on the unedited tree
  const environment = env();
  const { client } = await openSession(dir, environment, "bench-real");
  try {
    // --steps: the indices of the spec's steps to run (a slow repository's subset; the first check always runs).
    const only = values.steps ? new Set([0, ...values.steps.split(",").map(Number)]) : null;
    for (const [index, s] of spec.steps.entries()) {
      if (only && !only.has(index)) continue;
      const tool = s.tool ?? spec.tool ?? "check_project";
      const files = tool === "check_project" ? null : (s.files ?? s.edits?.map((edit) => edit.file) ?? []);
      const edit = s.edits || s.delete || s.restore ? () => applyStep(s) : null;
      let incrementalMs = null;
      let response = null;
      const before = project.expected;
      const row = await step(project, {
        group: spec.name ?? "",
        label: `${s.label}${tool === "check_project" ? "" : ` (${tool})`}`,
        edit,
        unchanged: !edit,
        engines: spec.engines ?? ["tsc"],
        files,
        measure: async () => {
          const answer = await mcpCheck(client, tool, tool === "check_project" ? {} : { files });
          response = answer.response;
          incrementalMs = index === 0 ? null : incremental(dir);
          return answer;
        },
        extra: {
          get incrementalMs() {
            return incrementalMs;
          },
        },
      });
      // Named-files steps: what the edit broke outside the named files (the cold run's new errors there) and what the
      // answer said of it (its `elsewhere`), issue 36 item 1.
      if (files) {
        const outside = (key) => !files.some((file) => key.split(" ")[1].startsWith(`${file}:`));
        const broke = project.expected.filter((key) => outside(key) && !(before ?? []).includes(key)).length;
        row.elsewhere = `${broke} new outside; the answer's elsewhere: ${response?.elsewhere ? `${response.elsewhere.introduced} introduced` : "none"}`;
      }
    }
  } finally {
    await client.close();
    stopDaemon(dir, environment);
    // Restore every file the steps touched, and prove the copy is the repository's tree again.
    for (const [file, content] of saved) {
      if (content === null) rmSync(join(dir, file), { force: true });
      else writeFileSync(join(dir, file), content);
    }
    project.before = original;
    const changes = project.changes();
    if (changes.length) fail(`the copy was not restored: ${changes.slice(0, 10).join(", ")}`);
  }

  function applyStep(s) {
    for (const { file, search, replace, create } of s.edits ?? []) {
      keep(file);
      if (create === undefined) project.replace(file, search, replace);
      else {
        mkdirSync(dirname(join(dir, file)), { recursive: true });
        writeFileSync(join(dir, file), create);
      }
    }
    if (s.delete) {
      keep(s.delete);
      rmSync(join(dir, s.delete));
    }
    if (s.restore) writeFileSync(join(dir, s.restore), saved.get(s.restore));
    // The mirror the incremental commands run in takes the same edits.
    if (spec.incrementalIn !== "mirror") return;
    for (const file of [...(s.edits ?? []).map((edit) => edit.file), s.delete, s.restore].filter(Boolean)) {
      if (existsSync(join(dir, file))) writeFileSync(join(mirror, file), readFileSync(join(dir, file)));
      else rmSync(join(mirror, file), { force: true });
    }
  }

  printSteps(
    `bench:real on a copy of ${source} (${spec.name ?? ""}); each step's time, then the project's own incremental command's, then a cold run over the whole project`,
  );
  console.log(
    "\n| step | Signalint (ms) | project's incremental command (ms) | ratio to it | cold, whole project (ms) | equal to the cold run | named-files steps: errors the edit made elsewhere |",
  );
  console.log("|---|---:|---:|---:|---:|---|---|");
  const { stepRows } = await import("./bench-harness.mjs");
  for (const row of stepRows()) {
    const inc = row.incrementalMs;
    console.log(
      `| ${row.label} | ${row.ms.toFixed(0)} | ${inc === null ? "" : inc.toFixed(0)} | ${inc ? (row.ms / inc).toFixed(2) : ""} | ${row.coldMs.toFixed(0)} | ${row.problems.length ? "**NO**" : "yes"} | ${row.elsewhere ?? ""} |`,
    );
  }
});
