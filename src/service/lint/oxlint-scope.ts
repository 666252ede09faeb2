import { dirname, relative, resolve } from "node:path";
import { ifMissing } from "../../core/errors.ts";
import { parseJsonc } from "../../core/jsonc.ts";
import { relativeToRoot } from "../../core/paths.ts";
import { oxlintAccepts } from "../../engines/oxlint.ts";
import { oxlintInvocations, type OxlintInvocation } from "../../engines/oxlint-scripts.ts";
import { isRecord } from "../../engines/types.ts";
import type { Runtime } from "../../runtime/types.ts";
import { type EngineJob, NO_PROGRAM, type NotCheckedFiles, type RunnerOutcome } from "../job/engine-job.ts";
import { readManifest, selectPackages, workspacePackages } from "../project/workspace.ts";
import { scopedPaths } from "./eslint-scope.ts";
import { runAsScripts, within } from "./script-runs.ts";

/** What one run of oxlint takes from the script it follows. */
export interface OxlintScriptArgs {
  /** The script's flags that change the findings (`-c .config/.oxlintrc.json`, `-A no-console`), as passed from `dir`. */
  args: string[];
  /** Absolute files those flags read (the `-c` config and what it extends, `--ignore-path`, `--tsconfig`): cache inputs. */
  inputs: string[];
  /** The script runs oxlint `--type-aware`. */
  typeAware: boolean;
}

/**
 * Whether a script's flags make oxlint read files besides the one it reports on, so its findings cannot be cached per
 * file: the import plugin (`import/namespace`, `import/default` read the module imported) switched on or one of its
 * rules set, or a `-c` config that is a program (`oxlint.config.ts`: what it imports is no cache input).
 */
export function oxlintReadsOtherFiles(script: OxlintScriptArgs): boolean {
  return script.args.some(
    (arg, index) => arg === "--import-plugin" || /^import\//.test(arg) || (arg === "-c" && /\.[cm]?[jt]s$/.test(script.args[index + 1] ?? "")),
  );
}

/** One place the project's scripts run oxlint: from `dir` (absolute), on `paths` (root-relative; "." is the whole root). */
export interface OxlintRun extends OxlintScriptArgs {
  dir: string;
  paths: string[];
  /** The `-c` config, absolute; null: oxlint looks for its config from each file up. */
  config: string | null;
  /** `script` of `package` (root-relative directory), for messages. */
  script: string;
  /** `--type-check`: the project's own lint type-checks these files with oxlint-tsgolint. */
  typeCheck: boolean;
  /** `--deny-warnings` / `--max-warnings`: a warning fails the project's lint. */
  failsOnWarnings: boolean;
}

/**
 * How the project's scripts run oxlint: `runs` (null: oxlint's defaults from the root, as when no script runs it) and
 * what Signalint did not follow, said in the engine's message.
 */
export interface OxlintScope {
  runs: OxlintRun[] | null;
  notices: string[];
}

/** The reason of the coverage note for files no oxlint script of the project lints. */
export const OUTSIDE_OXLINT_SCRIPTS = "not linted by oxlint: outside every path the project's lint scripts give oxlint (the project does not lint them)";

const GLOB = /[*?{}[\]!]/;
const posix = (path: string) => path.replace(/\\/g, "/");
const where = (root: string, dir: string) => posix(relative(root, dir)) || ".";

/** The script's name in messages: `lint` (root) or `lint of packages/a`. */
const scriptName = (root: string, dir: string, name: string) => (dir === root ? `"${name}"` : `"${name}" of ${where(root, dir)}`);

/** The `-c` config and every JSON config it extends (resolved from each one's directory), absolute. */
async function configChain(runtime: Runtime, config: string): Promise<string[]> {
  const chain: string[] = [];
  for (const pending = [config]; pending.length; ) {
    const path = pending.pop() as string;
    if (chain.includes(path)) continue;
    chain.push(path);
    if (!/\.jsonc?$/.test(path)) continue;
    const text = await runtime.readText(path).catch(ifMissing(null));
    let raw: unknown = null;
    try {
      raw = text === null ? null : parseJsonc(text);
    } catch {
      // oxlint says what is wrong with its config when it runs.
    }
    if (isRecord(raw) && Array.isArray(raw.extends))
      for (const entry of raw.extends) if (typeof entry === "string") pending.push(resolve(dirname(path), entry));
  }
  return chain;
}

/** Two invocations lint the same way (same flags, paths and type-aware switch). */
const sameRun = (a: OxlintInvocation, b: OxlintInvocation) =>
  a.args.join("\0") === b.args.join("\0") && a.paths.join("\0") === b.paths.join("\0") && a.typeAware === b.typeAware && a.typeCheck === b.typeCheck;

/**
 * Where and how the project's scripts (the root's and every workspace package's) run oxlint: each from its own
 * directory, with the flags that change its findings. In one directory, a fixing run (`oxlint --fix`) is not the lint
 * when another script lints there; of scripts linting there with differing flags, the one named `lint` (else the
 * first) is followed and the others named. Null runs — oxlint's defaults from the root, as before — when no script runs
 * oxlint, or when a followed script has a flag Signalint does not know or lints a glob (said in `notices`).
 */
export async function oxlintScope(runtime: Runtime, root: string): Promise<OxlintScope> {
  const manifest = await readManifest(runtime, root);
  const packages = await workspacePackages(runtime, root, manifest);
  const found = new Map<string, { name: string; from: string; invocation: OxlintInvocation }[]>();
  for (const dir of [root, ...packages]) {
    const pkg = dir === root ? manifest : await readManifest(runtime, dir);
    for (const [name, script] of Object.entries(pkg?.scripts ?? {})) {
      for (const invocation of oxlintInvocations(script)) {
        const at = invocation.packages && dir === root ? await selectPackages(runtime, root, packages, invocation.packages.filters) : [dir];
        for (const each of at) found.set(each, [...(found.get(each) ?? []), { name, from: dir, invocation }]);
      }
    }
  }
  if (found.size === 0) return { runs: null, notices: [] };
  const notices: string[] = [];
  const runs: OxlintRun[] = [];
  for (const [dir, all] of [...found].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const linting = all.some((entry) => !entry.invocation.fixes) ? all.filter((entry) => !entry.invocation.fixes) : all;
    const chosen = linting.find((entry) => entry.name === "lint") ?? (linting[0] as (typeof linting)[number]);
    const label = scriptName(root, chosen.from, chosen.name);
    const others = linting.filter((entry) => !sameRun(entry.invocation, chosen.invocation));
    if (others.length)
      notices.push(
        `oxlint follows script ${label} in ${where(root, dir)}; ${others.map((entry) => scriptName(root, entry.from, entry.name)).join(", ")} run it with other flags`,
      );
    const { invocation } = chosen;
    if (invocation.unknown.length)
      return { runs: null, notices: [`oxlint runs with its defaults: script ${label} passes ${invocation.unknown.join(" ")}, which Signalint does not know`] };
    const glob = invocation.paths.find((path) => GLOB.test(path) || /[$`]/.test(path));
    if (glob) return { runs: null, notices: [`oxlint runs with its defaults: script ${label} lints ${glob}, a pattern Signalint does not expand`] };
    const targets: string[] = [];
    for (const path of invocation.paths.length ? invocation.paths : ["."]) {
      const target = relativeToRoot(root, resolve(dir, path));
      // A path outside the root, or one that does not exist, lints nothing Signalint checks.
      if (target !== null && (await runtime.stat(resolve(dir, path))) !== null) targets.push(target);
    }
    // Paths given, none found: what the project's shell lints there is not known (never "nothing to lint").
    if (invocation.paths.length && !targets.length)
      return { runs: null, notices: [`oxlint runs with its defaults: script ${label} lints ${invocation.paths.join(" ")}, which Signalint does not find`] };
    const inputs = [
      ...(invocation.config ? await configChain(runtime, resolve(dir, invocation.config)) : []),
      ...invocation.inputs.map((path) => resolve(dir, path)),
    ];
    runs.push({
      dir,
      paths: targets.includes(".") ? ["."] : targets.sort(),
      args: invocation.args,
      config: invocation.config ? resolve(dir, invocation.config) : null,
      inputs,
      typeAware: invocation.typeAware,
      typeCheck: invocation.typeCheck,
      failsOnWarnings: invocation.failsOnWarnings,
      script: label,
    });
  }
  return { runs, notices };
}

/**
 * The script's oxlint arguments for a root-relative file, as its check runs oxlint on it (withOxlintScope): the
 * first run whose paths hold it; null when oxlint runs with its defaults there. A fix asked there uses the same config.
 */
export function oxlintRunOf(scope: OxlintScope, file: string): OxlintRun | null {
  return scope.runs?.find((run) => run.paths.some((path) => within(file, path))) ?? null;
}

/**
 * Of a script's flags, those a private copy can take as they are (lint/fix/oxlint-fixes.ts): the rule switches
 * (`-A no-var`), plugin switches and the directives report; not the files they name (`-c`, `--ignore-path`,
 * `--tsconfig` are paths of the project: the config is mirrored into the copy).
 */
export function oxlintRuleSwitches(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    if (arg === "-A" || arg === "-W" || arg === "-D" || arg === "--report-unused-disable-directives-severity") out.push(arg, args[++index] as string);
    else if (arg === "-c" || arg === "--ignore-path" || arg === "--tsconfig" || arg === "--ignore-pattern") index++;
    else if (/-plugin$/.test(arg) || arg === "--report-unused-disable-directives") out.push(arg);
  }
  return out;
}

/** typeAwareOff's reason when oxlint-tsgolint, which runs oxlint's type-aware rules, is not installed. */
export const TSGOLINT_MISSING = "oxlint-tsgolint is not installed";
/** The coverage note of the files a script lints with `--type-aware` while oxlint-tsgolint is missing. */
const TYPE_AWARE_UNLINTED =
  "not linted by oxlint's type-aware rules: the lint script passes --type-aware, which fails without oxlint-tsgolint (npm i -D oxlint-tsgolint)";

/**
 * Run oxlint as the project's lint scripts do: from each directory a script runs it in, with the script's flags, on
 * the checked paths within that script's paths; once from the root with oxlint's defaults when no script runs it.
 * Files no script lints are one coverage note — informational: the project does not lint them either.
 */
export async function withOxlintScope<J extends EngineJob>(
  job: J,
  run: (scoped: J, cwd: string, script: OxlintScriptArgs | null) => Promise<RunnerOutcome>,
  /** Why oxlint cannot run type-aware here (oxlint-tsgolint missing, `oxlintTypeAware: false`), or null. */
  typeAwareOff: string | null = null,
): Promise<RunnerOutcome> {
  const scope = await oxlintScope(job.runtime, job.root);
  const notices = scope.notices.length ? `; ${scope.notices.join("; ")}` : "";
  if (scope.runs === null) {
    const outcome = await run(job, job.root, null);
    return notices && "ok" in outcome && outcome.ok ? { ...outcome, message: `oxlint run with its defaults from the root${notices}` } : outcome;
  }
  const followed = scope.runs.map((each) => `${each.script}${each.dir !== job.root ? ` from ${where(job.root, each.dir)}` : ""}`);
  const warnings = scope.runs.some((each) => each.failsOnWarnings) ? " (it fails on warnings: Signalint reports them as warnings)" : "";
  const typed =
    typeAwareOff && scope.runs.some((each) => each.typeAware) ? `; the script passes --type-aware, but ${typeAwareOff}: its type-aware rules did not run` : "";
  // The project's own `oxlint --type-aware` fails without oxlint-tsgolint: its files are never clean here either. The
  // user's `"oxlintTypeAware": false` is a choice, said in the message only.
  const unlinted =
    typeAwareOff === TSGOLINT_MISSING ? { runs: (each: OxlintRun) => each.typeAware, reason: TYPE_AWARE_UNLINTED, linter: "oxlint --type-aware" } : undefined;
  return runAsScripts(
    job,
    scope.runs,
    {
      accepts: oxlintAccepts,
      outside: OUTSIDE_OXLINT_SCRIPTS,
      message: `oxlint run as the lint scripts run it: ${followed.join(", ")}${warnings}${typed}${notices}`,
      scoped: (paths, each) => (each.paths.includes(".") ? paths : scopedPaths(paths, { paths: each.paths, ext: [], from: [] })),
      ...(unlinted ? { unlinted } : {}),
    },
    (scoped, each) => run(scoped, each.dir, each),
  );
}

/** The root-relative paths ("." the whole root) the project's `oxlint --type-check` scripts lint, with each script's name. */
export async function oxlintTypeChecks(runtime: Runtime, root: string): Promise<{ script: string; paths: string[] }[]> {
  const scope = await oxlintScope(runtime, root);
  return (scope.runs ?? []).filter((each) => each.typeCheck).map((each) => ({ script: each.script, paths: each.paths }));
}

/**
 * tsc's coverage notes, with the files no program includes that the project's `oxlint --type-check` script lints said
 * apart: the project does type-check them (oxlint-tsgolint's TypeScript diagnostics), Signalint does not — it runs no
 * `--type-check`, as tsc reports the type errors of the files its programs hold (never twice). They stay unchecked.
 */
export async function withOxlintTypeChecks(runtime: Runtime, root: string, notes: readonly NotCheckedFiles[]): Promise<NotCheckedFiles[]> {
  const note = notes.find((each) => each.reason === NO_PROGRAM);
  if (!note) return [...notes];
  const checks = await oxlintTypeChecks(runtime, root);
  if (!checks.length) return [...notes];
  const byScript = new Map<string, string[]>();
  const rest: string[] = [];
  for (const file of note.files) {
    const path = relativeToRoot(root, file);
    const by = path === null ? undefined : checks.find((check) => check.paths.some((dir) => within(path, dir)));
    if (by) byScript.set(by.script, [...(byScript.get(by.script) ?? []), file]);
    else rest.push(file);
  }
  const split = [...byScript].map(([script, files]) => ({
    reason: `not type-checked by Signalint: only the project's oxlint --type-check (script ${script}) type-checks them, and Signalint runs no --type-check (tsc reports the type errors of the programs it runs)`,
    files,
  }));
  return notes.flatMap((each) => (each === note ? [...(rest.length ? [{ reason: NO_PROGRAM, files: rest }] : []), ...split] : [each]));
}
