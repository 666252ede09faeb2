import { ENGINE_NAMES, type Engines } from "../../core/contracts.ts";
import { clusterIssues } from "../../core/cluster.ts";
import type { Issue } from "../../core/issues.ts";
import { loopEventFromIssues } from "../../core/loops.ts";
import { lspIssues, readLspDiagnostic, type LspAccepted } from "../../core/lsp.ts";
import { relativeToRoot } from "../../core/paths.ts";
import { validatePaths } from "../project/project.ts";
import type { Checker } from "./checker.ts";

/** What ingest_diagnostics is given. */
export interface IngestRequest {
  source?: string;
  serverName?: string;
  diagnostics: unknown[];
}

/** What ingest_diagnostics answers. */
export interface IngestResult {
  checkId: string;
  ingested: number;
  rejected: { index: number; reason: string }[];
}

const NOT_RUN = { status: "disabled", message: "not run: these diagnostics were ingested from a language server" } as const;
const INGEST_ENGINES = Object.fromEntries(ENGINE_NAMES.map((engine) => [engine, NOT_RUN])) as Engines;

/** Map a diagnostic's path to a validated project-relative file, or the reason it is refused. */
async function resolveFile(service: Checker, path: string): Promise<string> {
  const { project, runtime } = service;
  let relative = path;
  if (path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path)) {
    const inside = relativeToRoot(project.root, path) ?? relativeToRoot(project.realRoot, path);
    if (inside === null) throw new Error(`${JSON.stringify(path.slice(0, 200))} is outside the project root`);
    relative = inside;
  }
  const [file] = await validatePaths(runtime, project, [relative], "file");
  return file as string;
}

/**
 * ingest_diagnostics: normalize LSP diagnostics into issues (engine "lsp"), refuse bad items one by one, cluster them,
 * feed loop memory and record a snapshot.
 */
export async function ingestDiagnostics(service: Checker, request: IngestRequest): Promise<IngestResult> {
  const observedAtMs = Date.now();
  const started = performance.now();
  const fallback = request.source ?? request.serverName ?? "lsp";
  const rejected: IngestResult["rejected"] = [];
  const accepted: LspAccepted[] = [];
  const resolved = new Map<string, Promise<string>>();
  for (const [index, item] of request.diagnostics.entries()) {
    const candidate = readLspDiagnostic(item, fallback);
    if (typeof candidate === "string") {
      rejected.push({ index, reason: candidate });
      continue;
    }
    if (!resolved.has(candidate.path)) resolved.set(candidate.path, resolveFile(service, candidate.path));
    try {
      const { path: _path, fromUri: _fromUri, ...rest } = candidate;
      accepted.push({ ...rest, file: await (resolved.get(candidate.path) as Promise<string>) });
    } catch (error) {
      rejected.push({ index, reason: (error as Error).message });
    }
  }
  const hash = (text: string) => service.runtime.sha256(text);
  const issues = lspIssues(accepted, hash);
  const groups = clusterIssues(issues as unknown as Issue[], hash);
  const scope = [...new Set(accepted.map((entry) => entry.file))].sort();
  const checkId = `chk-${hash(`ingest:${Date.now()}:${Math.random()}`).slice(0, 12)}`;
  await service.session.record(loopEventFromIssues(issues as unknown as Issue[], scope, false));
  await service.snapshots.record({
    checkId,
    observedAtMs,
    tool: "ingest_diagnostics",
    provider: request.serverName ?? request.source ?? "lsp",
    scope,
    engines: INGEST_ENGINES,
    clusters: groups.map((group) => group.cluster),
    issues,
    durationMs: Math.round(performance.now() - started),
  });
  return { checkId, ingested: issues.length, rejected };
}
