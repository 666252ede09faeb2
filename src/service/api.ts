import type { CheckResponse, Compare, DetailIssue, Live, LoopStatus, Snapshot, Stale, WorkflowStale } from "../core/contracts.ts";
import type { Settings } from "../core/config.ts";
import type { PostCheckError, PreviewResult, Rollback } from "../core/fix-contracts.ts";
import type { Issue } from "../core/issues.ts";
import type { CheckEvent } from "./job/check-events.ts";
import type { Patch } from "./fix/transactions.ts";
import type { EngineFixRequest } from "./fix/engine-fixes.ts";
import type { DetailQuery } from "./history/check-store.ts";
import { publicSnapshot } from "./history/snapshots.ts";
import type { ArtifactChunk } from "./history/artifacts.ts";
import { ArtifactStore } from "./history/artifacts.ts";
import { collectStats, type StatsReport } from "./history/stats.ts";
import { diagnose, type DoctorReport } from "./report/doctor.ts";
import { callerRuntime } from "../runtime/caller-runtime.ts";
import type { SignalintService } from "./signalint.ts";
import { afterEditCheck, compareSnapshots, type AfterEdit } from "./workflow/after-edit.ts";
import { ingestDiagnostics, type IngestRequest, type IngestResult } from "./workflow/ingest.ts";
import { liveDiagnostics, type LiveQuery } from "./workflow/live.ts";

/** Who is calling and how to reach them: cancellation, progress, and the MCP session a check belongs to. */
export interface CallContext {
  signal?: AbortSignal;
  onEvent?: (event: CheckEvent) => void;
  /** The client's session (an MCP connection): after_edit_check's default baseline is that session's previous check. */
  session?: string;
  /** The client's environment (a daemon's client): its checks run in it; absent: this process's own. */
  env?: Readonly<Record<string, string>>;
}

/** Who answers: the project, its settings, the answering process and its memory (daemon status, doctor). */
export interface ServiceInfo {
  projectRoot: string;
  settings: Settings;
  pid: number;
  /** Resident memory of the answering process and of its warm TypeScript hosts, in bytes. */
  rssBytes: number;
  hostsRssBytes: number;
}

/** A check as the shells need it: the response, and every issue (the CLI lists them all). */
export interface CheckAnswer {
  response: CheckResponse;
  issues: Issue[];
}

/**
 * Everything the shells (MCP front, CLI, hook) ask of one project, with serializable arguments and results: answered
 * in-process (localApi) or by the project's daemon over its socket (daemon/client.ts), the same either way.
 */
export interface ServiceApi {
  info(): Promise<ServiceInfo>;
  check(params: { paths: readonly string[]; incremental: boolean; tool?: string }, context?: CallContext): Promise<CheckAnswer>;
  issueDetail(query: DetailQuery, context?: CallContext): Promise<{ issues: DetailIssue[] } | Stale>;
  loopStatus(): Promise<LoopStatus>;
  snapshot(params: { checkId: string }): Promise<Snapshot | WorkflowStale>;
  compare(params: { baselineCheckId: string; currentCheckId: string }): Promise<Compare | WorkflowStale>;
  /** `withIssues`: the check's every issue too (the hook lists them; the MCP tool does not need them). */
  afterEdit(
    params: { files: readonly string[]; baselineCheckId?: string; tool?: string; withIssues?: boolean },
    context?: CallContext,
  ): Promise<(AfterEdit & { issues?: Issue[] }) | WorkflowStale>;
  ingest(request: IngestRequest): Promise<IngestResult>;
  live(query: LiveQuery): Promise<Live>;
  /** Whole-file patches, or the engines' own edits for issues (`issueIds`, `clusterId`, or `files` and `rules`). */
  preview(params: { patches: readonly Patch[] } | EngineFixRequest, context?: CallContext): Promise<PreviewResult>;
  apply(
    params: { transactionId: string; confirm?: boolean; baselineCheckId?: string; verify?: boolean },
    context?: CallContext,
  ): Promise<{ files: string[]; result: AfterEdit | null; postCheckError?: PostCheckError; rollback?: Rollback } | WorkflowStale>;
  discard(params: { transactionId: string }): Promise<{ discarded: true } | WorkflowStale>;
  saveArtifact(params: { json: string }): Promise<string>;
  readArtifact(params: { artifactId: string; offset: number; maxBytes: number }): Promise<ArtifactChunk>;
  doctor(params: { configErrors: readonly string[] }, context?: CallContext): Promise<DoctorReport>;
  stats(): Promise<StatsReport>;
  /** Resolves once every warm TypeScript check started so far has answered. */
  warmSettled(): Promise<void>;
}

/** The names of ServiceApi's methods (what the daemon protocol may call). */
export const API_METHODS = [
  "info",
  "check",
  "issueDetail",
  "loopStatus",
  "snapshot",
  "compare",
  "afterEdit",
  "ingest",
  "live",
  "preview",
  "apply",
  "discard",
  "saveArtifact",
  "readArtifact",
  "doctor",
  "stats",
  "warmSettled",
] as const satisfies readonly (keyof ServiceApi)[];

/** A method of ServiceApi left out of API_METHODS (the daemon could not be asked it) makes this `never`: a compile error. */
const EVERY_METHOD_LISTED: [Exclude<keyof ServiceApi, (typeof API_METHODS)[number]>] extends [never] ? true : never = true;
void EVERY_METHOD_LISTED;

/** One call passed on: to a daemon over its socket, or to another ServiceApi with something added (a session). */
export type ForwardCall = (method: keyof ServiceApi, params: unknown, context: CallContext | undefined) => Promise<unknown>;

/**
 * ServiceApi whose every method is passed on through `forward` (the compiler checks every method is here). The
 * answer is what the ServiceApi at the other end returned (localApi in the daemon, serialized): typed as its method's.
 */
export function forwardingApi(forward: ForwardCall): ServiceApi {
  const to =
    <M extends keyof ServiceApi>(method: M) =>
    (params?: unknown, context?: CallContext) =>
      forward(method, params, context) as ReturnType<ServiceApi[M]>;
  return {
    info: to("info"),
    check: to("check"),
    issueDetail: to("issueDetail"),
    loopStatus: to("loopStatus"),
    snapshot: to("snapshot"),
    compare: to("compare"),
    afterEdit: to("afterEdit"),
    ingest: to("ingest"),
    live: to("live"),
    preview: to("preview"),
    apply: to("apply"),
    discard: to("discard"),
    saveArtifact: to("saveArtifact"),
    readArtifact: to("readArtifact"),
    doctor: to("doctor"),
    stats: to("stats"),
    warmSettled: to("warmSettled"),
  };
}

/**
 * Call `method` of `api` with arguments typed only as its caller's (a forwarding proxy's other end: the arguments
 * were given to the same method of a ServiceApi, or came over the daemon's socket from one).
 */
export function callApi(api: ServiceApi, method: keyof ServiceApi, params: unknown, context: CallContext | undefined): Promise<unknown> {
  return (api[method] as (params: unknown, context?: CallContext) => Promise<unknown>)(params, context);
}

/** ServiceApi answered by a service running here (in-process, or inside the daemon). */
export function localApi(service: SignalintService, pid: number): ServiceApi {
  const { runtime, project } = service;
  const artifacts = new ArtifactStore(runtime, project.stateDir, project.settings.artifactRetentionSeconds * 1000);
  return {
    info: async () => ({ projectRoot: project.root, settings: project.settings, pid, rssBytes: runtime.rssBytes(), hostsRssBytes: service.warmRssBytes() }),
    check: async ({ paths, incremental, tool }, context = {}) => {
      const response = await service.check(paths, incremental, { ...context, ...(tool ? { tool } : {}) });
      // By id: with several clients on one daemon the newest check may be another client's.
      return { response, issues: service.store.byId(response.checkId)?.issues ?? [] };
    },
    issueDetail: async (query, context = {}) => service.issueDetail({ ...query, ...(context.session ? { session: context.session } : {}) }),
    loopStatus: async () => service.loopStatus(),
    snapshot: async ({ checkId }) => {
      const found = service.snapshots.find(checkId);
      return "status" in found ? found : publicSnapshot(found);
    },
    compare: async ({ baselineCheckId, currentCheckId }) => compareSnapshots(service, baselineCheckId, currentCheckId),
    afterEdit: async ({ files, baselineCheckId, tool, withIssues }, context = {}) => {
      const result = await afterEditCheck(service, files, {
        ...context,
        ...(baselineCheckId !== undefined ? { baselineCheckId } : {}),
        ...(tool ? { tool } : {}),
      });
      if ("status" in result || !withIssues) return result;
      return { ...result, issues: service.store.byId(result.response.checkId)?.issues ?? [] };
    },
    ingest: (request) => ingestDiagnostics(service, request),
    live: (query) => liveDiagnostics(service, query),
    preview: (params, context = {}) =>
      "patches" in params ? service.transactions.preview(params.patches) : service.transactions.previewEngineFixes(params, context.session, context.env),
    apply: ({ transactionId, ...options }, context = {}) =>
      service.transactions.apply(transactionId, { ...options, session: context.session, ...(context.env ? { env: context.env } : {}) }),
    discard: async ({ transactionId }) => service.transactions.discard(transactionId),
    saveArtifact: ({ json }) => artifacts.save(json),
    readArtifact: ({ artifactId, offset, maxBytes }) => artifacts.read(artifactId, offset, maxBytes),
    doctor: ({ configErrors }, context = {}) =>
      diagnose({ project, node: service.node, runtime: context.env ? callerRuntime(runtime, context.env) : runtime }, configErrors),
    stats: () => collectStats(runtime, project),
    warmSettled: () => service.warmSettled(),
  };
}
