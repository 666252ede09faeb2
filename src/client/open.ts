import type { Settings } from "../core/config.ts";
import type { Runtime } from "../runtime/types.ts";
import { API_METHODS, callApi, forwardingApi, localApi, type ServiceApi } from "../service/api.ts";
import { openProject, type Project } from "../service/project/project.ts";
import { SignalintService } from "../service/signalint.ts";
import { connectDaemon, DaemonConnection, DaemonLostError } from "./connection.ts";

/** A shell's way to its project: the project's daemon, or a service running here. */
export interface OpenedApi {
  api: ServiceApi;
  projectRoot: string;
  /** The project's root and real root (paths given on a command line are resolved against them). */
  project: { root: string; realRoot: string };
  settings: Settings;
  mode: "daemon" | "in-process";
  /** One line for stderr when a daemon was wanted but could not be used (the check still runs, in-process). */
  notice: string | null;
  /** Let go of the daemon, or close the in-process service (its lock released, a private state directory removed). */
  close(): Promise<void>;
}

/** Calls that may be made again on a new daemon when the old one died during them (apply may have written). */
const RETRIED = new Set<string>(API_METHODS.filter((method) => method !== "apply" && method !== "preview"));

/**
 * ServiceApi over a daemon connection that survives the daemon's death: a call lost with it is made once more on a
 * new daemon (except apply and preview, whose outcome is unknown: they fail as daemon_lost).
 */
function resilient(first: DaemonConnection, reconnect: () => Promise<DaemonConnection | null>): { api: ServiceApi; close(): Promise<void> } {
  let current: DaemonConnection | null = first;
  const api = forwardingApi(async (method, params, context) => {
    const invoke = (connection: DaemonConnection) => callApi(connection.api, method, params, context);
    current ??= await reconnect();
    if (!current) throw new DaemonLostError("the Signalint daemon is gone and a new one could not start");
    try {
      return await invoke(current);
    } catch (error) {
      if (!(error instanceof DaemonLostError) || !RETRIED.has(method)) throw error;
      current = await reconnect();
      if (!current) throw error;
      return invoke(current);
    }
  });
  return { api, close: async () => current?.close() };
}

/**
 * Open the project the way DESIGN §2 says: its daemon when one may run (not in CI, not switched off, a runtime with
 * local sockets), started on demand; else — or when it cannot start — a service running here, which takes the
 * state directory's ownership lock. `session` names this client's session (after_edit_check's default baseline).
 */
export async function openApi(
  runtime: Runtime,
  options: { root?: string; compact?: boolean; readOnly?: boolean; session?: string; cacheDir?: string; prewarm?: boolean; oneShot?: boolean } = {},
  opened?: Project,
): Promise<OpenedApi> {
  const project = opened ?? (await openProject(runtime, { root: options.root, compact: options.compact, readOnly: options.readOnly }));
  const { settings } = project;
  let notice: string | null = null;
  // A cache directory given for one run (a CI cache step) is this process's: a daemon keeps its own. A temporary
  // state directory (no home directory) is this process's too: no later client could find a daemon's record there.
  if (settings.daemon.enabled && runtime.daemon && !options.cacheDir && !project.temporaryState) {
    const support = runtime.daemon;
    const connect = async () => {
      const outcome = await connectDaemon(runtime, support, project, { session: options.session });
      return outcome instanceof DaemonConnection ? outcome : null;
    };
    const outcome = await connectDaemon(runtime, support, project, { session: options.session });
    if (outcome instanceof DaemonConnection) {
      const { api, close } = resilient(outcome, connect);
      return { api, projectRoot: project.root, project, settings, mode: "daemon", notice: null, close };
    }
    notice = `signalint: no daemon for ${project.root} (${outcome.reason}); checking in this process`;
  }
  const service = await SignalintService.create(runtime, {
    root: project.root,
    compact: options.compact,
    readOnly: options.readOnly,
    ...(options.cacheDir ? { cacheDir: options.cacheDir } : {}),
    ...(options.prewarm ? { prewarm: true } : {}),
    ...(options.oneShot ? { oneShot: true } : {}),
  });
  const api = localApi(service, runtime.pid);
  const withSession: ServiceApi = options.session ? sessionBound(api, options.session) : api;
  const { root, settings: own } = service.project;
  return { api: withSession, projectRoot: root, project: service.project, settings: own, mode: "in-process", notice, close: () => service.close() };
}

/** Every call of `api` made in `session` (in-process, as the daemon does for its clients). */
function sessionBound(api: ServiceApi, session: string): ServiceApi {
  return forwardingApi((method, params, context) => callApi(api, method, params, { session, ...context }));
}

/**
 * ServiceApi whose calls wait for `opened` (the daemon being reached or started, or the service created): a front
 * answers `initialize` and `tools/list` at once, and only a tool call waits for the service.
 */
export function deferredApi(opened: Promise<OpenedApi>): ServiceApi {
  return forwardingApi(async (method, params, context) => callApi((await opened).api, method, params, context));
}
