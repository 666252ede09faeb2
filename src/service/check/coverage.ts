import type { EngineName, NotChecked } from "../../core/contracts.ts";
import type { UncheckedFiles } from "../../core/delta.ts";
import { incompleteFiles } from "../../core/completeness.ts";
import type { EngineJob, EngineReport, NotCheckedFiles } from "../job/engine-job.ts";
import { checkedFiles, isTypeScriptFile } from "../tsc/tsc-coverage.ts";
import { coverageNotes } from "../tsc/tsc-selection.ts";
import { withOxlintTypeChecks } from "../lint/oxlint-scope.ts";
import { packageEslintConfigs, unsupportedLinters } from "../lint/linter-choice.ts";
import { eslintAccepts } from "../../engines/eslint.ts";
import { gitignoredFiles } from "../project/gitignore.ts";
import { join, sep } from "node:path";
import { ENGINES } from "../../engines/registry.ts";
import { ifMissing } from "../../core/errors.ts";
import { editedLinterConfigs } from "./config-edits.ts";

/** What a check's coverage says: `incomplete` makes a check `error` whatever it found; `unlinted` one that found nothing. */
export interface CoverageFacts {
  notChecked: NotChecked[];
  /** The files (root-relative) left unchecked that make the check incomplete (core/completeness.ts incompleteFiles). */
  incomplete: string[];
  /** The project's own linter (xo, standard, …) could not run on the checked sources. */
  unlinted: string[];
  /** The files (root-relative) tsc, ESLint, Biome and oxlint left unchecked: a delta compares none of their issues there. */
  unchecked: UncheckedFiles[];
  /** ESLint's typed rules did not lint (all) the files importing an edit's named files: why (dependents-notes.ts). */
  importersUnlinted?: string;
}

/** How many files a note names in its sample. */
const SAMPLE = 5;

/** What a check's coverage walk needs: where to look and what to skip, and the engines off by default (no config switch). */
export type CoverageInputs = Pick<EngineJob, "runtime" | "root" | "stateDir" | "paths" | "ignored" | "toRelative"> & { offByDefault: readonly EngineName[] };

/**
 * The coverage notes of a check: what tsc could not type-check (its own notes; when it did not run, the framework
 * files under the paths) and, for a project linted by a tool Signalint cannot run (xo, standard, …), that nothing
 * linted the sources with it. `incomplete`: the files whose gap makes the check never clean (the rule is core's).
 */
export async function checkCoverage(job: CoverageInputs, reports: readonly [EngineName, EngineReport][]): Promise<CoverageFacts> {
  const { sources, framework, named } = await checkedFiles(job);
  const tsc = reports.find(([engine]) => engine === "tsc")?.[1];
  // Files only the project's `oxlint --type-check` type-checks are said apart (still unchecked here).
  const typeNotes: NotCheckedFiles[] = await withOxlintTypeChecks(job.runtime, job.root, tsc?.notChecked ?? coverageNotes([], framework));
  // ESLint's, Biome's and oxlint's notes (files outside the project's lint scripts) are informational: never a check `error`.
  const lintNotesOf = (name: EngineName) => reports.find(([engine]) => engine === name)?.[1].notChecked ?? [];
  const notes = [...typeNotes, ...lintNotesOf("eslint"), ...lintNotesOf("biome"), ...lintNotesOf("oxlint")];
  // Each linter Signalint cannot run, over the files of the packages that use it.
  const linters: string[] = [];
  const unsupported = await unsupportedLinters(job.runtime, job.root);
  // They lint what git does not ignore (xo and standard read .gitignore): build outputs the repository ignores are not theirs.
  const ignored = unsupported.length ? await gitignoredFiles(job.runtime, job.root, sources) : new Set<string>();
  for (const { name, dirs } of unsupported) {
    const files = sources.filter((file) => !ignored.has(file) && dirs.some((dir) => file.startsWith(`${dir}${sep}`)));
    if (!files.length) continue;
    linters.push(name);
    notes.push({ reason: `not linted by ${name}: the project's linter, which Signalint cannot run`, files });
  }
  // Rules the project's own lint runs that an engine's run could not (a script's `oxlint --type-aware` without
  // oxlint-tsgolint, whose own run fails), and a linter's configuration edited while only the named files were
  // linted: never a clean check.
  const unlinted = [...reports.flatMap(([, report]) => (report.unlinted?.files.length ? [report.unlinted] : [])), ...(await editedLinterConfigs(job, reports))];
  for (const note of unlinted) {
    notes.push(note);
    linters.push(note.linter);
  }
  const eslintNote = job.offByDefault.includes("eslint") ? await packageEslintNote(job, sources) : null;
  if (eslintNote) {
    notes.push(eslintNote);
    linters.push("eslint");
  }
  // Engines the project lints with (its deno.json lints) and Signalint leaves off by its own default: the project's
  // linter did not run, so the check is never clean (as with xo) until the config turns the engine on or off.
  for (const engine of job.offByDefault) {
    const note = await configuredOffNote(job, engine, sources);
    if (!note) continue;
    notes.push(note);
    linters.push(ENGINES[engine].configuredBy?.command ?? engine);
  }
  const toRelative = (file: string) => job.toRelative(file) ?? file;
  const relative = (note: NotCheckedFiles) => note.files.map(toRelative);
  const incomplete = incompleteFiles({
    typed: [...sources.filter(isTypeScriptFile), ...framework].map(toRelative),
    untyped: new Set(typeNotes.flatMap(relative)),
    named: new Set(named.map(toRelative)),
  });
  const notChecked = notes.map((note) => {
    const files = relative(note);
    return { reason: note.reason, count: files.length, sample: spreadSample(files, SAMPLE) };
  });
  const unchecked = (["tsc", "eslint", "biome", "oxlint"] as const).flatMap((engine) => {
    const files = (engine === "tsc" ? typeNotes : lintNotesOf(engine)).flatMap(relative);
    return files.length ? [{ engine, files }] : [];
  });
  return { notChecked, incomplete, unlinted: linters, unchecked };
}

/**
 * Up to `size` of the files, spread over their folders (a file's first two directories): the first of each folder,
 * the most crowded first, then the second of each, and so on; sorted. Sixty unchecked files that are mostly docs
 * examples name the test and website folders among them too, rather than three examples.
 */
export function spreadSample(files: readonly string[], size: number): string[] {
  const folders = new Map<string, string[]>();
  for (const file of files) {
    const dirs = file.split(/[\\/]/).slice(0, -1);
    const folder = dirs.slice(0, 2).join("/");
    const members = folders.get(folder);
    if (members) members.push(file);
    else folders.set(folder, [file]);
  }
  // A stable sort: folders of the same size keep the order their first files came in.
  const crowdedFirst = [...folders.values()].sort((a, b) => b.length - a.length);
  const picked: string[] = [];
  for (let round = 0; picked.length < Math.min(size, files.length); round++)
    for (const members of crowdedFirst) if (round < members.length && picked.length < size) picked.push(members[round] as string);
  return picked.sort();
}

/**
 * ESLint off (no config at the root) while workspace packages configure it: their sources under the paths are linted
 * by the project (`npm run lint` in the package) and not by Signalint — never a clean check.
 */
async function packageEslintNote(job: CoverageInputs, sources: readonly string[]): Promise<NotCheckedFiles | null> {
  const packages = await packageEslintConfigs(job.runtime, job.root);
  const files = sources.filter((file) => eslintAccepts(file) && packages.some((dir) => file.startsWith(`${dir}${sep}`)));
  if (!files.length) return null;
  const names = packages.map((dir) => job.toRelative(dir) ?? dir).join(", ");
  return {
    reason: `not linted by ESLint: configured in workspace packages (${names}), and Signalint runs ESLint only with a config at the project root`,
    files,
  };
}

/**
 * A default-off engine whose config the project has (its adapter's `configuredBy`: deno.json with a `lint` section or
 * a `deno lint` task): the files under the paths it would lint, and how to turn it on. The project lints them and
 * Signalint did not: the check is an `error` (unlinted), whatever it found. `"engines": {"deno": false}` is the user's
 * choice: no note then (the engine is not off by default).
 */
async function configuredOffNote(job: CoverageInputs, engine: EngineName, sources: readonly string[]): Promise<NotCheckedFiles | null> {
  const { configuredBy, linter } = ENGINES[engine];
  if (!configuredBy || !linter) return null;
  for (const name of configuredBy.files) {
    const text = await job.runtime.readText(join(job.root, name)).catch(ifMissing(null));
    if (text === null) continue;
    if (!configuredBy.configures(text)) return null;
    const files = sources.filter((file) => linter.accepts(file));
    if (!files.length) return null;
    return {
      reason: `not linted by ${engine}: ${name} configures it, and Signalint runs it only with "engines": {"${engine}": true} in signalint.config.json`,
      files,
    };
  }
  return null;
}
