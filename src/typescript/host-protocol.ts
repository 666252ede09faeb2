// The messages between the server and a warm TypeScript host (one JSON text per line; see warm-host.ts).
import type { RawIssue } from "../core/issues.ts";
import type { ChangeHint } from "./change-hint.ts";
import type { WarmCheckInfo } from "./warm-builder.ts";

/** The hidden argument that starts Signalint as a warm TypeScript host instead of a server or CLI. */
export const WARM_HOST_MODE = "__signalint-warm-host";

/**
 * Which warm program a host keeps: "project" is a plain tsconfig (TypeScript 5/6 compiler API, or a TypeScript 7
 * tsgo server); "solution" is a config with project references built as `tsc -b` builds it (warm-solution.ts,
 * TypeScript 5.6+/6.x). Each kind is one case in warm-host.ts's createProgram.
 */
export type WarmKind = "project" | "solution";

/** One check asked of a host. A host keeps one program: every request it gets names the same one. */
export interface HostRequest {
  id: number;
  kind: WarmKind;
  typescriptDir: string;
  configPath: string;
  /** Working directory of a TypeScript 7 server (the project root). */
  cwd: string;
  /** How file-less diagnostics name the config (project-relative). */
  configFile: string;
  /** Module resolutions may have moved (a package install): redo them. */
  invalidate: boolean;
  /** What the server's file watch saw change (see change-hint.ts); null: re-ask every recorded answer. */
  hint?: ChangeHint | null;
  /**
   * Solutions only: check this other config (a referenced project with references of its own) as `tsc -b <view>`,
   * with the projects and declarations the hosted solution keeps; `configFile` then names the view's config.
   */
  view?: string;
}

/**
 * A host's answer. Issues carry absolute file names (the server maps them to the project); `unsupported`: this
 * TypeScript has no usable API, or the config is one the program kind does not serve (the command line does).
 * `rssBytes` is the host's resident memory after the check; `covers`: the configs a hosted solution has built (views of
 * it can serve them).
 */
export type HostReply =
  | { id: number; ok: true; issues: RawIssue[]; info: WarmCheckInfo; files: string[]; covers: string[]; rssBytes: number }
  | { id: number; ok: false; unsupported: boolean; error: string; rssBytes: number };
