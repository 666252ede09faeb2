import type { EngineName, EngineStatus } from "../../core/contracts.ts";
import { SignalintError } from "../../core/errors.ts";

/** What a running check reports as it goes (the MCP shell turns these into progress notifications). */
export type CheckEvent =
  | { kind: "engine-started"; engine: EngineName }
  | { kind: "engine-finished"; engine: EngineName; status: EngineStatus["status"]; issues: number }
  /** How tsc checks one tsconfig (project-relative path): in the warm program, or by its command line. */
  | { kind: "tsc-phase"; phase: "warm check" | "command line" | "build"; tsconfig: string };

/** Per-check options of SignalintService.check. */
export interface CheckOptions {
  /** Aborting kills the check's engines; the check then throws CheckCancelledError and records nothing. */
  signal?: AbortSignal;
  onEvent?: (event: CheckEvent) => void;
  /** The tool that asked for the check (recorded in its snapshot); default check_files / check_project. */
  tool?: string;
  /** The client session that asked (recorded in its snapshot). */
  session?: string;
  /** The environment of the client that asked (a daemon's client): engines run in it. Absent: this process's own. */
  env?: Readonly<Record<string, string>>;
  /**
   * Answer the whole affected set, never the named files first with the rest pending (pendingAfterMs): a verdict
   * that needs every error the edit made (apply_diagnostic_fix's post-check and its baseline).
   */
  whole?: boolean;
}

/** A check whose request was cancelled: it recorded nothing and has no result. */
export class CheckCancelledError extends SignalintError {
  constructor() {
    super("cancelled", "The check was cancelled");
    this.name = "CheckCancelledError";
  }
}

/** Throw CheckCancelledError when the signal is aborted (before work that cannot be interrupted). */
export function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new CheckCancelledError();
}
