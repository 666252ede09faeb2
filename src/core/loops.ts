import type { LoopStatus, LoopWarning } from "./contracts.ts";
import type { Issue } from "./issues.ts";
import { templateSignature } from "./normalize.ts";
import { isWithin } from "./paths.ts";
import { canonicalRule } from "./rules.ts";

/** A signature is flagged on its third appearance. */
export const OSCILLATION_APPEARANCES = 3;
/** A (file, rule) pair is flagged after re-triggering across this many consecutive incremental checks. */
export const CHURN_CHECKS = 3;
/** Bound on remembered (signature, file) pairs; absent, least-seen ones are forgotten first. */
export const MAX_TRACKED = 5000;

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
  // Sets while counting: one rule's message in a thousand files is a thousand distinct files, not a million compares.
  const files = new Map<string, Set<string>>();
  const pairIds: Record<string, string[]> = {};
  for (const issue of issues) {
    const signature = issueSignature(issue);
    let seen = files.get(signature);
    if (!seen) files.set(signature, (seen = new Set()));
    seen.add(issue.file);
    (pairIds[`${issue.file}\0${issue.rule}`] ??= []).push(issue.fullId.slice(0, 16));
  }
  const signatures = Object.fromEntries([...files].map(([signature, seen]) => [signature, [...seen]]));
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

  /**
   * Apply one check. Appearances are counted per (signature, file): fixing an instance in one file while the same
   * message stands in another still counts, and a file outside the check's scope is never taken as fixed.
   */
  record(event: LoopEvent): void {
    const present = new Set<string>();
    for (const [signature, files] of Object.entries(event.signatures)) {
      for (const file of files) {
        const key = `${signature}\0${file}`;
        present.add(key);
        const state = this.signatures.get(key) ?? { appearances: 0, present: false };
        if (!state.present) state.appearances += 1;
        state.present = true;
        this.signatures.set(key, state);
      }
    }
    for (const [key, state] of this.signatures) {
      if (state.present && !present.has(key) && covers(event.scope, key.slice(key.indexOf("\0") + 1))) state.present = false;
    }
    if (event.incremental) this.recordChurn(event);
    this.prune();
  }

  private prune(): void {
    if (this.signatures.size <= MAX_TRACKED) return;
    const absent = [...this.signatures].filter(([, state]) => !state.present).sort((a, b) => a[1].appearances - b[1].appearances);
    for (const [key] of absent.slice(0, this.signatures.size - MAX_TRACKED)) this.signatures.delete(key);
    if (this.churn.size > MAX_TRACKED) this.churn = new Map([...this.churn].slice(-MAX_TRACKED));
  }

  private recordChurn(event: LoopEvent): void {
    for (const [key, idsKey] of Object.entries(event.pairs)) {
      const previous = this.churn.get(key);
      if (!previous) this.churn.set(key, { streak: 1, idsKey });
      else if (previous.idsKey !== idsKey) this.churn.set(key, { streak: previous.streak + 1, idsKey });
    }
    for (const key of this.churn.keys()) {
      const file = key.slice(0, key.indexOf("\0"));
      if (!(key in event.pairs) && covers(event.scope, file)) this.churn.delete(key);
    }
  }

  /** Everything currently classified as looping. */
  status(): LoopStatus {
    const bySignature = new Map<string, number>();
    for (const [key, state] of this.signatures) {
      const signature = key.slice(0, key.indexOf("\0"));
      bySignature.set(signature, Math.max(bySignature.get(signature) ?? 0, state.appearances));
    }
    const signatures = [...bySignature]
      .filter(([, appearances]) => appearances >= OSCILLATION_APPEARANCES)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .map(([signature, appearances]) => ({
        signature,
        occurrences: appearances,
        hint: `Fixed and reintroduced ${appearances - 1} times (${appearances} appearances) — consider a different approach`,
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
