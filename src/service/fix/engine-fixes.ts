// A fix transaction built from the engines' own edits (issue 35): the asked issues (by id, by cluster, or every
// issue of some files), each file's text given to ESLint, Biome, TypeScript and oxlint in turn (each engine sees the
// previous one's output, as running their --fix one after the other would), and which asked issues each edit addresses.
import type { EslintHosts } from "../lint/eslint-hosts.ts";
import { configInputEntries } from "../freshness/config-inputs.ts";
import { dirname, join } from "node:path";
import type { EngineName, FixKind, Stale } from "../../core/contracts.ts";
import { ifMissing, InvalidArgumentsError, SignalintError } from "../../core/errors.ts";
import type { Issue } from "../../core/issues.ts";
import { eslintPlace, type EslintFixFile } from "../../engines/eslint-fix.ts";
import { eslintConfigLookupFlag } from "../../engines/eslint.ts";
import { oxlintAccepts } from "../../engines/oxlint.ts";
import { resolutionStart, resolveEngine } from "../../engines/resolve.ts";
import { ENGINES } from "../../engines/registry.ts";
import type { ResolvedEngine } from "../../engines/types.ts";
import { eslintLegacy, enabledEngines } from "../check/fan-out.ts";
import type { StoredCheck } from "../history/check-store.ts";
import { biomeDirOf, biomeRuns } from "../lint/biome-scope.ts";
import { eslintLookupFromFile } from "../lint/eslint-scope.ts";
import { validatePaths } from "../project/project.ts";
import { biomeEditsInOverlay } from "./biome-overlay.ts";
import { biomeEdits, eslintEdits, EngineEditError, type EditContext } from "./engine-edits.ts";
import { addFix, type EngineAsk, type EngineFixRequest, type FileFix, type FixService, type NotFixed, type PlanWork } from "./fix-plan.ts";
import { planOxlintFixes } from "./oxlint-fixes.ts";
import { planTscFixes } from "./tsc-fixes.ts";

export type { EngineFixRequest, FileFix, FixService, NotFixed } from "./fix-plan.ts";

/** The engines' edits as whole-file patches, with what each addresses and what was left. */
export interface EnginePlan {
  patches: { file: string; originalContent: string; patchedContent: string; fixes: FileFix[] }[];
  notFixed: NotFixed[];
  /** The check the issues were selected from (the verify baseline); null when no check covered them. */
  checkId: string | null;
  /** Every issue id the patches address (verify expects each gone). */
  addressed: string[];
}

/** Biome processes run at once for a preview. */
const BIOME_AT_ONCE = 4;

/** Engines whose edits follow their issues' fix marks, in the order their fixes are applied (before TypeScript's and oxlint's). */
const FIXERS = ["eslint", "biome"] as const;
type Fixer = (typeof FIXERS)[number];

/**
 * Engines asked for every issue of theirs, marked or not: their report does not say which have a fix (oxlint), or a
 * mark says only that one is always given (tsc): the engine's answer decides.
 */
const ASKS_ENGINE = new Set<EngineName>(["tsc", "oxlint"]);

/** Why an engine that Signalint asks for no edits offers none (the compiler asks for a reason per new engine). */
const NOT_OFFERED: Record<Exclude<EngineName, Fixer | "tsc" | "oxlint">, string> = {
  deno: "deno lint fixes files only in place (no dry run): Signalint does not run its fixes",
};

/**
 * Biome's runs for a preview, on an overlay of the project (biome-overlay.ts): one per directory it runs from and rule
 * set (`only`, sorted: the same rules asked in another order are the same run; null: every rule).
 */
export function biomeRunGroups(
  files: readonly string[],
  runOf: (file: string) => { cwd: string; only: readonly string[] | null },
): { cwd: string; only: string[] | null; files: string[] }[] {
  const groups = new Map<string, { cwd: string; only: string[] | null; files: string[] }>();
  for (const file of files) {
    const { cwd, only } = runOf(file);
    const sorted = only ? [...only].sort() : null;
    const key = JSON.stringify([cwd, sorted]);
    groups.set(key, { cwd, only: sorted, files: [...(groups.get(key)?.files ?? []), file] });
  }
  return [...groups.values()];
}

function staleError(stale: Stale): SignalintError {
  return new SignalintError(stale.code, stale.message);
}

/** The asked issues from a stored check (ids, a cluster, or files and rules), and the files they are in. */
function selectIssues(check: StoredCheck, request: EngineFixRequest, files: readonly string[] | null): Issue[] {
  if (request.clusterId !== undefined) {
    const group = check.groups.find((entry) => entry.cluster.clusterId === request.clusterId);
    if (!group)
      throw new SignalintError("cluster_not_found", `Cluster ${request.clusterId} does not exist in check ${check.checkId}; run check_project again.`);
    return group.issues;
  }
  if (request.issueIds) {
    return request.issueIds.map((id) => {
      const matches = check.issues.filter((issue) => issue.fullId.startsWith(id.toLowerCase()));
      if (matches.length > 1)
        throw new InvalidArgumentsError(`issueId ${JSON.stringify(id)} matches ${matches.length} issues; give more characters`, "ambiguous_id");
      if (!matches[0]) throw new SignalintError("issue_not_found", `Issue ${id} does not exist in check ${check.checkId}; it may have been fixed.`);
      return matches[0];
    });
  }
  const inFiles = new Set(files);
  return check.issues.filter((issue) => inFiles.has(issue.file) && (!request.rules || request.rules.includes(issue.rule)));
}

/** Whether an issue's engine edit is of an asked kind (tsc's and oxlint's: their engine says, when asked). */
function askedKind(issue: Issue, kinds: readonly FixKind[]): boolean {
  return ASKS_ENGINE.has(issue.engine) || (issue.fixable && kinds.includes(issue.fixKind ?? "safe"));
}

/** Why an asked issue gets no edit. */
function whyNot(issue: Issue, kinds: readonly FixKind[]): string {
  if (issue.engine in NOT_OFFERED) return NOT_OFFERED[issue.engine as keyof typeof NOT_OFFERED];
  if (issue.engine !== "eslint" && issue.engine !== "biome") return `${issue.engine} offers no edit`;
  if (!issue.fixable) return `${issue.engine} offers no edit for it`;
  return `its edit is a ${issue.fixKind ?? "safe"} one, not among kinds ${kinds.join(", ")}`;
}

/** Build the patches: each file through the engines in turn, nothing written (only Signalint's launcher and request). */
export async function planEngineFixes(service: FixService, request: EngineFixRequest, session?: string): Promise<EnginePlan> {
  const { runtime, project } = service;
  const kinds = request.kinds?.length ? [...new Set(request.kinds)] : (["safe"] as FixKind[]);
  const byFiles = request.files !== undefined;
  const files = byFiles ? await validatePaths(runtime, project, [...(request.files ?? [])], "file") : null;
  const found = service.store.resolve(request.checkId, session);
  if ("status" in found && !byFiles) throw staleError(found);
  const check = "status" in found ? null : found;
  const issues = check ? selectIssues(check, request, files) : [];
  // Of a whole file's issues, only those an engine has an edit for are said left (its type errors are not news).
  const notFixed: NotFixed[] = issues
    .filter((issue) => !askedKind(issue, kinds) && (!byFiles || issue.fixable))
    .map((issue) => ({ issue: issue.issueId, reason: whyNot(issue, kinds) }));
  const wanted = issues.filter((issue) => askedKind(issue, kinds));
  const targets = files ?? [...new Set(wanted.map((issue) => issue.file))].sort();
  const enabled = await enabledEngines(runtime, project.root, project.settings.engines);
  // Rules named for a files request go to the engine that names its rules that way (Biome's are `lint/group/rule`).
  const rulesFor = (engine: Fixer) => (request.rules ? request.rules.filter((rule) => (engine === "biome") === rule.startsWith("lint/")) : null);
  const engines = FIXERS.filter(
    (engine) => enabled[engine] === true && (byFiles ? rulesFor(engine)?.length !== 0 : wanted.some((issue) => issue.engine === engine)),
  );
  const start = resolutionStart(project.root, targets.length ? targets : ["."]);
  const resolved = new Map<Fixer, ResolvedEngine | null>();
  for (const engine of engines) resolved.set(engine, await resolveEngine(runtime, engine, { start, node: service.node }));
  const originals = await Promise.all(targets.map((file) => runtime.readText(join(project.root, file)).catch(ifMissing(null))));
  const work: PlanWork = {
    originals: new Map(targets.map((file, index) => [file, originals[index] ?? null])),
    texts: new Map(targets.map((file, index) => [file, originals[index] ?? null])),
    fixes: new Map(),
    notFixed,
    check,
    kinds,
    byFiles,
  };
  const { texts } = work;
  const context = (engine: Fixer, env: Record<string, string> = {}): EditContext => ({
    runtime,
    root: project.root,
    cacheDir: project.cacheDir,
    timeoutMs: project.settings.timeoutsMs[engine],
    env,
  });
  const refuse = (engine: Fixer, reason: string) => {
    for (const issue of wanted.filter((each) => each.engine === engine)) notFixed.push({ issue: issue.issueId, reason });
  };
  for (const engine of engines) {
    const found = resolved.get(engine);
    if (!found) {
      refuse(engine, `${engine} is not installed where the project resolves it`);
      continue;
    }
    const mine = (file: string) => wanted.filter((issue) => issue.file === file && issue.engine === engine);
    // Every edit of the engine's in the file asked for: run it unrestricted, as its own --fix (whose later passes fix
    // what earlier ones made: `var` → `let` → `const`), not limited to the places the check saw.
    const whole = (file: string) =>
      byFiles || check?.issues.every((issue) => issue.file !== file || issue.engine !== engine || !askedKind(issue, kinds) || wanted.includes(issue));
    const restricted = (file: string) => (whole(file) ? null : [...new Set(mine(file).map((issue) => issue.rule))]);
    const files = targets.filter((file) => texts.get(file) !== null && (byFiles || mine(file).length > 0));
    try {
      if (engine === "eslint") await runEslint(files);
      else await runBiome(files, found);
    } catch (error) {
      if (!(error instanceof EngineEditError)) throw error;
      refuse(engine, error.message);
    }
    /** The warm ESLint for these files, with the config inputs a lint of them rests on (see lint/eslint-hosts.ts). */
    async function warmEslintFor(files: string[]): Promise<{ hosts: EslintHosts; inputs: string[] } | null> {
      const warm = service.eslintWarm?.() ?? null;
      if (!warm) return null;
      const dirs = [project.root, ...files.map((file) => dirname(join(project.root, file)))];
      const inputs = await configInputEntries(runtime, warm.hasher, { configFiles: ENGINES.eslint.linter?.configFiles ?? [], root: project.root, dirs });
      return { hosts: warm.hosts, inputs };
    }
    async function runEslint(files: string[]): Promise<void> {
      const legacy = await eslintLegacy(runtime, project.root);
      const lookup = await eslintLookupFromFile({ runtime, root: project.root, paths: files, stateDir: project.stateDir, eslintLegacy: legacy });
      const flag = lookup ? eslintConfigLookupFlag(found?.version) : null;
      const asked: EslintFixFile[] = files.map((file) => ({
        path: join(project.root, file),
        text: texts.get(file) as string,
        rules: byFiles ? rulesFor("eslint") : restricted(file),
        places: whole(file) ? null : mine(file).map((issue) => eslintPlace(issue.rule, issue.line, issue.col)),
      }));
      const answers = await eslintEdits(
        context("eslint", legacy ? { ESLINT_USE_FLAT_CONFIG: "false" } : {}),
        found as ResolvedEngine,
        asked,
        { flat: !legacy, flags: flag ? [flag] : [], kinds },
        await warmEslintFor(files),
      );
      for (const [index, file] of files.entries()) {
        const answer = answers[index];
        if (!answer || answer.output === texts.get(file)) continue;
        texts.set(file, answer.output);
        const fileIssues = check?.issues.filter((issue) => issue.file === file && issue.engine === "eslint") ?? [];
        for (const kind of kinds) {
          const places = new Set(answer.fixed.filter((fix) => fix.kind === kind).map((fix) => fix.place));
          const ids = fileIssues.filter((issue) => places.has(eslintPlace(issue.rule, issue.line, issue.col))).map((issue) => issue.issueId);
          if (places.size) addFix(work, file, { engine: "eslint", kind, issueIds: ids });
        }
      }
    }
    async function runBiome(files: string[], biome: ResolvedEngine): Promise<void> {
      if (!kinds.includes("safe"))
        throw new EngineEditError("Biome applies its unsafe fixes only with its safe ones (--write --unsafe): ask kinds safe and suggestion");
      const runs = await biomeRuns(runtime, project.root);
      const unsafe = kinds.includes("suggestion");
      // From the directory the check ran Biome in (a package's lint script): the same config as the check's.
      const groups = biomeRunGroups(files, (file) => ({ cwd: biomeDirOf(runs, project.root, file), only: byFiles ? rulesFor("biome") : restricted(file) }));
      for (const group of groups) {
        const given = new Map(group.files.map((file) => [file, texts.get(file) as string]));
        const fixed = await biomeEditsInOverlay(context("biome"), biome, { root: project.root, cwd: group.cwd }, given, { unsafe, only: group.only });
        if (fixed) for (const file of group.files) take(file, group.only, fixed.get(file) as string);
        // No links here: one process per file (Biome reads one text on stdin), a few at once.
        else
          for (let at = 0; at < group.files.length; at += BIOME_AT_ONCE)
            await Promise.all(group.files.slice(at, at + BIOME_AT_ONCE).map((file) => fixOne(file, group)));
      }
      async function fixOne(file: string, group: { cwd: string; only: string[] | null }): Promise<void> {
        const edit = await biomeEdits({ ...context("biome"), root: group.cwd }, biome, join(project.root, file), texts.get(file) as string, {
          unsafe,
          only: group.only,
        });
        take(file, group.only, edit.output);
      }
      function take(file: string, only: string[] | null, output: string): void {
        if (output === texts.get(file)) return;
        texts.set(file, output);
        // Biome says only the text: the issues it addresses are the asked ones of its fixable kinds in this file.
        const fileIssues = (check?.issues ?? []).filter(
          (issue) => issue.file === file && issue.engine === "biome" && askedKind(issue, kinds) && (!only || only.includes(issue.rule)),
        );
        for (const kind of kinds) {
          const ids = fileIssues.filter((issue) => (issue.fixKind ?? "safe") === kind).map((issue) => issue.issueId);
          if (ids.length || kind === "safe") addFix(work, file, { engine: "biome", kind, issueIds: ids });
        }
      }
    }
  }
  // TypeScript's and oxlint's fixes after the linters' (their issues are looked for where the diff of the earlier edits
  // puts their lines: core/unified-diff.ts lineMap).
  const engineAsked = (engine: EngineName): EngineAsk => ({
    issues: wanted.filter((issue) => issue.engine === engine),
    files: targets.filter((file) => engine !== "oxlint" || oxlintAccepts(file)),
    whole: byFiles && !request.rules,
  });
  const byFilesWith = (engine: EngineName) => byFiles && (!request.rules || request.rules.some((rule) => (engine === "tsc") === /^TS\d+$/.test(rule)));
  if (enabled.tsc === true && (byFilesWith("tsc") || wanted.some((issue) => issue.engine === "tsc"))) await planTscFixes(service, work, engineAsked("tsc"));
  if (enabled.oxlint === true && (byFilesWith("oxlint") || wanted.some((issue) => issue.engine === "oxlint")))
    await planOxlintFixes(service, work, engineAsked("oxlint"));
  const patches = [...work.texts].flatMap(([file, patched]) => {
    const original = work.originals.get(file);
    return original === null || original === undefined || patched === original || patched == null
      ? []
      : [{ file, originalContent: original, patchedContent: patched, fixes: work.fixes.get(file) ?? [] }];
  });
  patches.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const addressed = [...new Set(patches.flatMap((patch) => patch.fixes.flatMap((fix) => fix.issueIds)))];
  // Of a files request, TypeScript's and oxlint's issues were asked only to learn which have a fix (their marks do not
  // say): one with none is not news (a type error), as the whole file's unmarked issues are not.
  const news = (issue: Issue) => !(byFiles && ASKS_ENGINE.has(issue.engine) && !issue.fixable);
  for (const issue of wanted.filter(news))
    if (!addressed.includes(issue.issueId) && !notFixed.some((entry) => entry.issue === issue.issueId))
      notFixed.push({ issue: issue.issueId, reason: `${issue.engine} made no edit for it here` });
  // An issue one pass could not fix and a later one did (oxlint's suggestions after its safe fixes) is not left.
  const left = notFixed.filter((entry) => !addressed.includes(entry.issue));
  return { patches, notFixed: left, checkId: check?.checkId ?? null, addressed };
}
