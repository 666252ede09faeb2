import { join } from "node:path";
import { z } from "zod";
import { LoopTracker, type LoopEvent, type LoopState } from "../../core/loops.ts";
import type { Runtime } from "../../runtime/types.ts";
import { isKind } from "../project/state-kinds.ts";
import { ifMissing } from "../../core/errors.ts";

/** session.jsonl is rotated once it grows past this. */
export const SESSION_LOG_LIMIT = 10 * 1024 * 1024;

/** Per-check facts recorded beside the loop event, for `signalint-mcp stats`. */
const CheckRecordSchema = z.looseObject({
  checkId: z.string(),
  kind: z.enum(["project", "files"]),
  durationMs: z.number(),
  totalIssues: z.number(),
  cache: z.record(z.string(), z.looseObject({ hits: z.number(), misses: z.number(), mode: z.string().optional() })),
});

/** Per-check facts recorded beside the loop event, for `signalint-mcp stats`. */
export type CheckRecord = z.infer<typeof CheckRecordSchema>;

/** What stats reads of a check line: when it was made and its record (lines without one are not stats'). */
const StatsLineSchema = z.looseObject({ t: z.literal("check"), at: z.string(), check: CheckRecordSchema });

/** A line of session.jsonl that is not JSON: crash-truncated or damaged. */
const DAMAGED = Symbol("damaged");

/** Each non-blank line of a JSON-lines text, parsed, or DAMAGED. */
function jsonLines(text: string): (unknown | typeof DAMAGED)[] {
  return text
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => {
      try {
        return JSON.parse(line) as unknown;
      } catch {
        // Not JSON: the caller decides what a damaged line means (skipped, counted).
        return DAMAGED;
      }
    });
}

/** The check records of session.jsonl's text, in order; malformed, truncated and other lines are skipped, as replay does. */
export function readCheckRecords(text: string): { at: string; check: CheckRecord }[] {
  const records: { at: string; check: CheckRecord }[] = [];
  for (const entry of jsonLines(text)) {
    // A crash-truncated or damaged line (DAMAGED) is not a record.
    const parsed = StatsLineSchema.safeParse(entry);
    if (parsed.success) records.push({ at: parsed.data.at, check: parsed.data.check });
  }
  return records;
}

/** A JSON object (not an array), as a loop event's maps are. */
const objectLike = z.custom<object>((value) => typeof value === "object" && value !== null);

/** What replay needs of a loop event: its scope, whether it was incremental, its signature and pair maps. */
const LoopEventShape = z.looseObject({ scope: z.array(z.unknown()), incremental: z.boolean(), signatures: objectLike, pairs: objectLike });
/** What replay needs of a saved loop state (a rotated log's first line). */
const LoopStateShape = z.looseObject({ signatures: z.array(z.unknown()), churn: z.array(z.unknown()) });

/**
 * One line of session.jsonl as read back (version: the `t` kinds below; a line of another kind is skipped). What
 * core/loops.ts records and loads has the shapes checked here.
 */
const LogLineSchema = z.discriminatedUnion("t", [
  z.looseObject({ t: z.literal("check"), event: z.custom<LoopEvent>((value) => LoopEventShape.safeParse(value).success) }),
  z.looseObject({ t: z.literal("state"), state: z.custom<LoopState>((value) => LoopStateShape.safeParse(value).success) }),
]);

type LogLine = { t: "check"; at: string; event: LoopEvent; check?: CheckRecord } | { t: "state"; at: string; state: LoopState };

/**
 * Loop memory persisted as append-only JSON lines in `<stateDir>/session.jsonl`. Replayed at start; malformed or
 * crash-truncated lines are skipped; at 10 MiB the file is replaced by one line holding the current state.
 */
export class SessionLog {
  readonly tracker = new LoopTracker();
  private readonly path: string;
  /** True when replay found a crash-truncated last line that a new line must not be glued to. */
  private needsNewline = false;
  /** Known size of the log (re-read from disk every few appends, since another server may append too). */
  private size: number | null = null;
  private appends = 0;

  constructor(
    private readonly runtime: Runtime,
    stateDir: string,
    private readonly limit = SESSION_LOG_LIMIT,
  ) {
    this.path = join(stateDir, "session.jsonl");
  }

  /** Rebuild the tracker from the log; returns how many lines were skipped as malformed. */
  async replay(): Promise<number> {
    // Not a file (a reader such as doctor, which sets nothing aside, meets it as it is): no memory to replay.
    const text = (await isKind(this.runtime, this.path, "file")) ? await this.runtime.readText(this.path).catch(ifMissing("")) : "";
    let skipped = 0;
    this.needsNewline = text.length > 0 && !text.endsWith("\n");
    for (const entry of jsonLines(text)) {
      // A crash-truncated or damaged line (DAMAGED) fails the schema: skipped and counted.
      const parsed = LogLineSchema.safeParse(entry);
      if (!parsed.success) skipped++;
      else if (parsed.data.t === "check") this.tracker.record(parsed.data.event);
      else this.tracker.load(parsed.data.state);
    }
    return skipped;
  }

  /** Apply a check to the tracker and persist it. Persistence failures are reported, never thrown. */
  async record(event: LoopEvent, check?: CheckRecord): Promise<void> {
    this.tracker.record(event);
    const line = `${JSON.stringify({ t: "check", at: new Date().toISOString(), event, ...(check ? { check } : {}) } satisfies LogLine)}\n`;
    try {
      if (this.size === null || ++this.appends % 50 === 0) this.size = (await this.runtime.stat(this.path))?.size ?? 0;
      const size = this.size;
      if (size + line.length > this.limit) {
        const state: LogLine = { t: "state", at: new Date().toISOString(), state: this.tracker.save() };
        const text = `${JSON.stringify(state)}\n`;
        await this.runtime.writeFileAtomic(this.path, text);
        this.size = text.length;
      } else {
        // A crash-truncated last line would otherwise swallow this one.
        await this.runtime.appendFile(this.path, (this.needsNewline ? "\n" : "") + line);
        this.needsNewline = false;
        this.size = size + line.length + 1;
      }
    } catch (error) {
      this.runtime.writeStderr(`signalint: could not write ${this.path}: ${(error as Error).message}\n`);
    }
  }
}
