// What every engine's step of a fix plan shares (engine-fixes.ts runs them in turn): the request, the working texts
// each engine hands the next, and what each edit addresses or leaves.
import { callerRuntime } from "../../runtime/caller-runtime.ts";
import type { EslintHosts } from "../lint/eslint-hosts.ts";
import type { ContentHasher } from "../freshness/content-hasher.ts";
import type { EngineName, FixKind } from "../../core/contracts.ts";
import type { Issue } from "../../core/issues.ts";
import type { NodeCommand } from "../../engines/types.ts";
import type { CheckStore, StoredCheck } from "../history/check-store.ts";
import type { Checker } from "../workflow/checker.ts";

/** What preview_diagnostic_fix asks the engines for: issues by id, a cluster, or files (and rules); kinds to apply. */
export interface EngineFixRequest {
  issueIds?: readonly string[];
  clusterId?: string;
  files?: readonly string[];
  rules?: readonly string[];
  /** Default ["safe"]: what the engines' own --fix applies. */
  kinds?: readonly FixKind[];
  /** The check the ids come from (default: the newest of this session). */
  checkId?: string;
}

/** One engine's edits in one file: which of the check's issues they address. */
export interface FileFix {
  engine: EngineName;
  kind: FixKind;
  issueIds: string[];
}

/** An asked issue no edit addresses (its id), and why. */
export interface NotFixed {
  issue: string;
  reason: string;
}

/** What the planner needs of the service: the checker, the check store, and how JS engines are run. */
export type FixService = Checker & {
  readonly store: CheckStore;
  readonly node: NodeCommand | null;
  /** A long-lived server's warm ESLint and the hasher of the configs it rests on (null: ESLint's fixes start a process). */
  eslintWarm?(): { hosts: EslintHosts; hasher: ContentHasher } | null;
};

/**
 * The planner's service as a daemon's client with environment `env` sees it: engines resolve and run in that client's
 * environment (as its checks do), never in the daemon's (which the client that started it chose).
 */
export function callerFixService(service: FixService, env: Readonly<Record<string, string>> | undefined): FixService {
  if (!env) return service;
  return {
    runtime: callerRuntime(service.runtime, env),
    project: service.project,
    snapshots: service.snapshots,
    session: service.session,
    store: service.store,
    node: service.node,
    check: (requested, incremental, options) => service.check(requested, incremental, { ...options, env }),
    elsewhereOf: (checkId) => service.elsewhereOf(checkId),
    tscProgramsOf: (checkId) => service.tscProgramsOf(checkId),
    eslintWarm: () => service.eslintWarm?.() ?? null,
  };
}

/** A plan being built: each file's text before and as the engines so far left it, each edit's issues, what is left. */
export interface PlanWork {
  /** Root-relative file → its content on disk when the plan began (null: unreadable); files an engine's edit reached. */
  originals: Map<string, string | null>;
  /** Root-relative file → its text after the engines so far. */
  texts: Map<string, string | null>;
  fixes: Map<string, FileFix[]>;
  notFixed: NotFixed[];
  /** The check the issues come from (null: a files request with no check). */
  check: StoredCheck | null;
  kinds: readonly FixKind[];
  /** A files request: every edit of the engines in those files is asked, and only offered fixes are said left. */
  byFiles: boolean;
}

/** What one engine step of a plan is asked: its issues, the files of the request, and whether every fix in them. */
export interface EngineAsk {
  issues: readonly Issue[];
  files: readonly string[];
  /** A files request without rules: every fix the engine has in `files`, not only the asked issues'. */
  whole: boolean;
}

/** Record one engine's edit of a file as addressing these issues (merged with that engine's earlier edit of that kind). */
export function addFix(work: PlanWork, file: string, fix: FileFix): void {
  const list = work.fixes.get(file) ?? [];
  const same = list.find((entry) => entry.engine === fix.engine && entry.kind === fix.kind);
  if (same) same.issueIds.push(...fix.issueIds.filter((id) => !same.issueIds.includes(id)));
  else list.push({ ...fix, issueIds: [...fix.issueIds] });
  work.fixes.set(file, list);
}

/** Say every one of these issues is left, and why. */
export function refuseAll(work: PlanWork, issues: readonly Issue[], reason: string): void {
  for (const issue of issues) if (!work.notFixed.some((entry) => entry.issue === issue.issueId)) work.notFixed.push({ issue: issue.issueId, reason });
}
