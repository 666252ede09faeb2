// A one-shot check (the CLI's `check`, the hook) of a TypeScript 7 program answered from disk in the checking process
// itself. Such a run stops after its one check, and a host started only to read a stored answer — Node's start, the
// bundle compiled again, the record read and asked again — took 0.25–0.3 s of a 0.6–0.9 s CI check of 1,000 files,
// most of it before the host could begin. The look is the host's own (WarmTs7Program.storedAnswer: every question
// the stored answer rests on asked again, reads by content), and its answer is held to the shape a host's reply must
// have. Only an answer that holds is taken here: none, a damaged one or one whose inputs changed goes to a host,
// which looks again (and says why it did not use it) and builds. TypeScript 5/6 programs keep their host: their
// stored answer needs the compiler to parse the config, and their listing starts a host anyway.
import { isAbsolute } from "node:path";
import type { RawIssue } from "../core/issues.ts";
import { checkReply } from "./host-protocol.ts";
import { relativeCauses } from "./diagnostics.ts";
import type { PersistTarget } from "./persisted-state.ts";
import type { WarmCheckInfo } from "./warm-builder.ts";
import { fromDisk } from "./warm-host.ts";
import { ts7Identity, WarmTs7Program } from "./warm-program7.ts";

/** A host's answer as the pool reads it (issues with absolute file names). */
export interface HostAnswer {
  issues: RawIssue[];
  info: WarmCheckInfo;
  files: string[];
}

/**
 * The stored answer of a TypeScript 7 project when it holds (`answer`); when it does not, why not if it could not be
 * trusted (`notice`: damaged, another version) — the host then need not look again; null for any other compiler.
 */
export function storedAnswerHere(
  typescriptDir: string,
  configPath: string,
  cwd: string,
  persist: PersistTarget,
): { answer: HostAnswer } | { answer: null; notice?: string } | null {
  // The compiler's identity starts with its version ("unknown" when its manifest cannot be read).
  const compiler = ts7Identity(typescriptDir);
  if (!(Number.parseInt(compiler, 10) >= 7)) return null;
  const program = new WarmTs7Program(configPath, cwd, { target: persist, compiler });
  let stored: Parameters<typeof fromDisk>[0] | null;
  try {
    stored = program.storedAnswer() as Parameters<typeof fromDisk>[0] | null;
  } catch {
    // Unreadable here: the host looks for itself.
    return null;
  }
  const notice = program.storedNotice;
  if (!stored) return { answer: null, ...(notice ? { notice } : {}) };
  try {
    const reply = checkReply({ id: 1, ok: true, ...fromDisk(stored), rssBytes: 0 });
    if ("issues" in reply) return { answer: { issues: reply.issues, info: reply.info, files: reply.files } };
  } catch {
    // Not an answer's shape.
  }
  return { answer: null, notice: `persisted TypeScript state for ${configPath} ignored (unexpected shape); building afresh` };
}

/**
 * A host's issues as the project reports them: file names and causes relative to the project; an issue outside it
 * dropped, unless `outside` places it on an in-root config (engines/tsc.ts outsideRootIssue).
 */
export function projectIssues(
  issues: readonly RawIssue[],
  toRelative: (path: string) => string | null,
  outside?: (issue: RawIssue, file: string) => RawIssue | null,
): RawIssue[] {
  return issues.flatMap((issue) => {
    // Empty causes stay: the program was asked and named none (absent means tsc's command line, see RawIssue).
    const mapped = issue.causes ? { ...issue, causes: relativeCauses(issue.causes, toRelative) } : issue;
    if (!isAbsolute(issue.file)) return [mapped];
    const file = toRelative(issue.file);
    return file === null ? (outside?.(mapped, issue.file) ?? []) : [{ ...mapped, file }];
  });
}
