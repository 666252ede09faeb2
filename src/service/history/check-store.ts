import type { CheckResponse, DetailIssue, Stale } from "../../core/contracts.ts";
import type { ClusterGroup } from "../../core/cluster.ts";
import { InvalidArgumentsError, quoteInput } from "../../core/errors.ts";
import type { ElsewhereFacts } from "../../core/elsewhere.ts";
import { detailIssue, type Issue } from "../../core/issues.ts";

/** One finished check as the service remembers it. */
export interface StoredCheck {
  checkId: string;
  issues: Issue[];
  groups: ClusterGroup[];
  response: CheckResponse;
  /** The paths the check covered (engine checks; ingests have none). */
  scope?: readonly string[];
  /** The client session that ran it (an MCP connection on the daemon). */
  session?: string;
  /** check_files: the tsc errors it found outside its files, introduced or unattributed (see core/elsewhere.ts). */
  elsewhere?: ElsewhereFacts;
  /** The tsc programs whose answers its issues are (warm answers name them: see Reuse.programs); absent: not known. */
  tscPrograms?: readonly string[];
}

/** How many checks stay addressable by checkId. */
export const RETAINED_CHECKS = 25;
const REMEMBERED_IDS = 10_000;

/** What get_issue_detail asks for. */
export interface DetailQuery {
  clusterId?: string;
  issueId?: string;
  checkId?: string;
  /** Without checkId: the newest check of this session (a daemon serves several), else the newest of all. */
  session?: string;
}

function stale(code: Stale["code"], message: string): Stale {
  return { status: "stale", code, message };
}

/** The last checks, bounded; evicted ids are remembered so "expired" can be told from "unknown". */
export class CheckStore {
  private readonly checks: StoredCheck[] = [];
  private readonly evicted = new Set<string>();

  add(check: StoredCheck): void {
    this.checks.push(check);
    while (this.checks.length > RETAINED_CHECKS) {
      const old = this.checks.shift() as StoredCheck;
      this.evicted.add(old.checkId);
      if (this.evicted.size > REMEMBERED_IDS) this.evicted.delete(this.evicted.values().next().value as string);
    }
  }

  latest(): StoredCheck | undefined {
    return this.checks.at(-1);
  }

  /** A retained check by its id (the daemon runs several clients' checks at once: "latest" may be another's). */
  byId(checkId: string): StoredCheck | undefined {
    return this.checks.find((check) => check.checkId === checkId);
  }

  private find(checkId: string | undefined, session?: string): StoredCheck | Stale {
    if (checkId === undefined) {
      const newest = session === undefined ? this.latest() : this.checks.findLast((check) => check.session === session);
      return newest ?? stale("no_check", "No check has run yet; call check_project first.");
    }
    const found = this.checks.find((check) => check.checkId === checkId);
    if (found) return found;
    if (this.evicted.has(checkId)) return stale("check_expired", `Check ${checkId} is too old to be retained; run check_project again.`);
    return stale("check_unknown", `No check ${checkId} was run by this server; run check_project again.`);
  }

  /** A retained check by id, else the newest (of the session when given), or a stale answer: what fix previews select from. */
  resolve(checkId: string | undefined, session?: string): StoredCheck | Stale {
    return this.find(checkId, session);
  }

  /** Resolve a cluster or issue reference to its issues, or a stale answer. */
  detail(query: DetailQuery): { issues: DetailIssue[] } | Stale {
    const check = this.find(query.checkId, query.session);
    if ("status" in check) return check;
    if (query.clusterId !== undefined) {
      const group = check.groups.find((entry) => entry.cluster.clusterId === query.clusterId);
      if (!group)
        return stale(
          "cluster_not_found",
          `Cluster ${query.clusterId} does not exist in check ${check.checkId}; it may have been fixed. Run check_project again.`,
        );
      return { issues: group.issues.map((issue) => detailIssue(issue, group.cluster.clusterId)) };
    }
    const prefix = (query.issueId ?? "").toLowerCase();
    // The errors a check listed in other files (`elsewhere`) are its issues too, for their whole message.
    const elsewhere = check.elsewhere ? [...check.elsewhere.introduced, ...check.elsewhere.unattributed] : [];
    const matches = [...check.issues, ...elsewhere].filter((issue) => issue.fullId.startsWith(prefix));
    if (matches.length > 1) {
      throw new InvalidArgumentsError(`issueId ${quoteInput(query.issueId)} matches ${matches.length} issues; give more characters`, "ambiguous_id");
    }
    const [match] = matches;
    if (!match)
      return stale("issue_not_found", `Issue ${query.issueId} does not exist in check ${check.checkId}; it may have been fixed. Run check_project again.`);
    return { issues: [detailIssue(match)] };
  }
}
