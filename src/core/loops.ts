import type { LoopStatus, LoopWarning } from "./contracts.ts";
import type { Issue } from "./issues.ts";
import { templateSignature } from "./normalize.ts";
import { isWithin } from "./paths.ts";
import { canonicalRule } from "./rules.ts";

/** A signature is flagged on its third appearance. */
export const OSCILLATION_APPEARANCES = 3;
/** A (file, rule) pair is flagged after re-triggering across this many consecutive incremental checks. */
export const CHURN_CHECKS = 3;
const MAX_FILES_PER_SIGNATURE = 50;

/** What one check contributes to loop memory; this is also the persisted line in session.jsonl. */
export interface LoopEvent {
  scope: string[];
  incremental: boolean;
  /** signature → files it appeared in */
  signatures: Record<string, string[]>;
  /** "file\u0000rule" → a key of the issue ids (changes when the issues change) */
  pairs: Record<string, string>;
}

interface SignatureState {
  appearances: number;
  present: boolean;
  files: string[];
}

interface ChurnState {
  streak: number;
  idsKey: string;
}

/** Serializable tracker state (written as the first line after a rotation). */
export interface LoopState {
  signatures: [string, SignatureState][];
  churn: [string, ChurnState][];
}

/** The loop signature of an issue: engine-neutral rule + message with identifiers and numbers templated. */
export function issueSignature(issue: Pick<Issue, "engine" | "rule" | "message">): string {
  return `${canonicalRule(issue.engine, issue.rule)}:${templateSignature(issue.message)}`;
}

/** Build the loop event of a check from its (in-scope) issues. */
export function loopEventFromIssues(issues: readonly Issue[], scope: string[], incremental: boolean): LoopEvent {
  const signatures: Record<string, string[]> = {};
  const pairIds: Record<string, string[]> = {};
  for (const issue of issues) {
    const signature = issueSignature(issue);
    const files = (signatures[signature] ??= []);
    if (!files.includes(issue.file)) files.push(issue.file);
    (pairIds[`${issue.file}\0${issue.rule}`] ??= []).push(issue.fullId.slice(0, 16));
  }
  const pairs = Object.fromEntries(Object.entries(pairIds).map(([key, ids]) => [key, ids.sort().join(",")]));
  return { scope, incremental, signatures, pairs };
}

function covers(scope: readonly string[], file: string): boolean {
  return scope.some((entry) => isWithin(file, entry));
}

/** Loop memory: oscillating signatures and (file, rule) churn across checks. Pure; persistence is the caller's. */
export class LoopTracker {
  private signatures = new Map<string, SignatureState>();
  private churn = new Map<string, ChurnState>();

  /** Apply one check. */
  record(event: LoopEvent): void {
    for (const [signature, files] of Object.entries(event.signatures)) {
      const state = this.signatures.get(signature) ?? { appearances: 0, present: false, files: [] };
      if (!state.present) {
        state.appearances += 1;
        state.present = true;
      }
      state.files = [...new Set([...state.files, ...files])].slice(-MAX_FILES_PER_SIGNATURE);
      this.signatures.set(signature, state);
    }
    for (const [signature, state] of this.signatures) {
      // Gone only when the check looked at every file the signature was seen in.
      if (state.present && !(signature in event.signatures) && state.files.every((file) => covers(event.scope, file))) {
        state.present = false;
        state.files = [];
      }
    }
    if (event.incremental) this.recordChurn(event);
  }

  private recordChurn(event: LoopEvent): void {
    for (const [key, idsKey] of Object.entries(event.pairs)) {
      const previous = this.churn.get(key);
      if (!previous) this.churn.set(key, { streak: 1, idsKey });
      else if (previous.idsKey !== idsKey) this.churn.set(key, { streak: previous.streak + 1, idsKey });
    }
    for (const key of [...this.churn.keys()]) {
      const file = key.slice(0, key.indexOf("\0"));
      if (!(key in event.pairs) && covers(event.scope, file)) this.churn.delete(key);
    }
  }

  /** Everything currently classified as looping. */
  status(): LoopStatus {
    const signatures = [...this.signatures]
      .filter(([, state]) => state.appearances >= OSCILLATION_APPEARANCES)
      .sort((a, b) => b[1].appearances - a[1].appearances || (a[0] < b[0] ? -1 : 1))
      .map(([signature, state]) => ({
        signature,
        occurrences: state.appearances,
        hint: `Fixed and reintroduced ${state.appearances - 1} times (${state.appearances} appearances) — consider a different approach`,
      }));
    const fileRuleChurns = [...this.churn]
      .filter(([, state]) => state.streak >= CHURN_CHECKS)
      .sort((a, b) => b[1].streak - a[1].streak || (a[0] < b[0] ? -1 : 1))
      .map(([key, state]) => {
        const [file, rule] = key.split("\0") as [string, string];
        return {
          file,
          rule,
          checkCount: state.streak,
          hint: `${rule} in ${file} changed but persisted across ${state.streak} consecutive checks — read the full diagnostic and fix its cause before editing again`,
        };
      });
    return { looping: signatures.length > 0 || fileRuleChurns.length > 0, signatures, fileRuleChurns };
  }

  /** The warning for a check response: looping signatures present in that check, and current churn. */
  warningFor(event: LoopEvent): LoopWarning | null {
    const status = this.status();
    const signatures = status.signatures.filter((entry) => entry.signature in event.signatures);
    const fileRuleChurns = status.fileRuleChurns.filter((entry) => `${entry.file}\0${entry.rule}` in event.pairs);
    return signatures.length || fileRuleChurns.length ? { signatures, fileRuleChurns } : null;
  }

  /** Serializable state, for log rotation. */
  save(): LoopState {
    return { signatures: [...this.signatures], churn: [...this.churn] };
  }

  /** Replace the state with a saved one. */
  load(state: LoopState): void {
    this.signatures = new Map(state.signatures);
    this.churn = new Map(state.churn);
  }
}
