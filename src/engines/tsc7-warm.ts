// A warm TypeScript 7 (native) process, driven through the package's own synchronous API
// (`typescript/unstable/sync`): one tsgo process per tsconfig keeps the program between checks, and each check tells
// it exactly which files changed, were created or deleted, so no result can be stale.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { RawIssue } from "../core/issues.ts";
import { fileStamp } from "./file-stamp.ts";
import type { WarmCheckInfo } from "./tsc-warm.ts";

/** The subset of the TypeScript 7 API used here (it is marked unstable; any mismatch falls back to the CLI). */
interface Ts7Diagnostic {
  fileName?: string;
  pos: number;
  code: number;
  category: number;
  text: string;
  messageChain?: readonly Ts7Diagnostic[];
}
interface Ts7Program {
  getSourceFileNames(): readonly string[];
  getConfigFileParsingDiagnostics(): readonly Ts7Diagnostic[];
  getSyntacticDiagnostics(): readonly Ts7Diagnostic[];
  getProgramDiagnostics(): readonly Ts7Diagnostic[];
  getGlobalDiagnostics(): readonly Ts7Diagnostic[];
  getSemanticDiagnostics(): readonly Ts7Diagnostic[];
  getDeclarationDiagnostics(): readonly Ts7Diagnostic[];
  getCompilerOptions(): Record<string, unknown>;
}
interface Ts7Snapshot {
  getProject(config: string): { program: Ts7Program; rootFiles: readonly string[] } | undefined;
  dispose(): void;
}
interface Ts7Api {
  parseConfigFile(config: string): { fileNames: string[]; options: Record<string, unknown> };
  updateSnapshot(params: Record<string, unknown>): Ts7Snapshot;
  close(): void;
}
type Ts7ApiClass = new (options: { cwd: string }) => Ts7Api;

const modules = new Map<string, Ts7ApiClass | null>();

/** Load the API class of a TypeScript 7 package: require(esm) where the runtime has it, import() otherwise. */
export async function loadTs7Api(packageDir: string): Promise<Ts7ApiClass | null> {
  if (modules.has(packageDir)) return modules.get(packageDir) ?? null;
  const entry = join(packageDir, "dist", "api", "sync", "api.js");
  let api: Ts7ApiClass | null = null;
  try {
    api = (createRequire(join(packageDir, "package.json"))(entry) as { API?: Ts7ApiClass }).API ?? null;
  } catch {
    try {
      api = ((await import(pathToFileURL(entry).href)) as { API?: Ts7ApiClass }).API ?? null;
    } catch (error) {
      modules.set(packageDir, null);
      throw error;
    }
  }
  modules.set(packageDir, api);
  return api;
}

/** One tsconfig's warm tsgo server. */
export class WarmTs7Program {
  private api: Ts7Api | null = null;
  private snapshot: Ts7Snapshot | null = null;
  private stamps = new Map<string, string>();
  private optionsKey = "";
  private roots: string[] = [];
  private diagnostics: readonly Ts7Diagnostic[] = [];
  private resolutionsSuspect = false;
  lastUsed = Date.now();

  constructor(private readonly Api: Ts7ApiClass, readonly configPath: string, private readonly cwd: string) {}

  /** True once tsgo has loaded the project and can answer incrementally. */
  get isWarm(): boolean {
    return this.snapshot !== null;
  }

  invalidateResolutions(): void {
    this.resolutionsSuspect = true;
  }

  check(): { diagnostics: readonly Ts7Diagnostic[]; info: WarmCheckInfo } {
    this.lastUsed = Date.now();
    if (!this.api) {
      this.api = new this.Api({ cwd: this.cwd });
      return this.open({}, "full");
    }
    const parsed = this.api.parseConfigFile(this.configPath);
    const roots = [...parsed.fileNames].sort();
    const optionsKey = JSON.stringify(parsed.options);
    const changed: string[] = [];
    const deleted: string[] = [];
    for (const [file, previous] of this.stamps) {
      const now = fileStamp(file);
      if (now === null) deleted.push(file);
      else if (now !== previous) changed.push(file);
    }
    const created = roots.filter((file) => !this.stamps.has(file));
    const invalidateAll = optionsKey !== this.optionsKey || this.resolutionsSuspect;
    if (!invalidateAll && !changed.length && !deleted.length && !created.length && roots.join("\0") === this.roots.join("\0")) {
      return { diagnostics: this.diagnostics, info: { reuse: "reused", changedFiles: 0, programFiles: this.stamps.size } };
    }
    this.snapshot?.dispose();
    const fileChanges = invalidateAll ? { invalidateAll: true } : { changed, created, deleted };
    const result = this.open({ fileChanges }, invalidateAll ? "full" : "incremental");
    result.info.changedFiles = changed.length + created.length + deleted.length;
    return result;
  }

  private open(extra: Record<string, unknown>, reuse: WarmCheckInfo["reuse"]): { diagnostics: readonly Ts7Diagnostic[]; info: WarmCheckInfo } {
    const api = this.api as Ts7Api;
    this.snapshot = api.updateSnapshot({ openProjects: [this.configPath], ...extra });
    const project = this.snapshot.getProject(this.configPath);
    if (!project) throw new Error(`tsgo did not load ${this.configPath}`);
    const program = project.program;
    this.diagnostics = collect(program);
    this.stamps = new Map(program.getSourceFileNames().map((file) => [file, fileStamp(file) ?? ""]));
    const parsed = api.parseConfigFile(this.configPath);
    this.roots = [...parsed.fileNames].sort();
    this.optionsKey = JSON.stringify(parsed.options);
    this.resolutionsSuspect = this.diagnostics.some((d) => d.code === 2307 || d.code === 2792);
    return { diagnostics: this.diagnostics, info: { reuse, changedFiles: 0, programFiles: this.stamps.size } };
  }

  /** Stop the tsgo server. */
  close(): void {
    try {
      this.snapshot?.dispose();
      this.api?.close();
    } catch {
      // Already gone.
    }
    this.api = null;
    this.snapshot = null;
  }
}

/** Diagnostics in the precedence tsc's command line uses with --noEmit. */
function collect(program: Ts7Program): readonly Ts7Diagnostic[] {
  const all = [...program.getConfigFileParsingDiagnostics()];
  const configCount = all.length;
  all.push(...program.getSyntacticDiagnostics());
  if (all.length === configCount) {
    all.push(...program.getProgramDiagnostics(), ...program.getGlobalDiagnostics());
    if (all.length === configCount) all.push(...program.getSemanticDiagnostics());
    const options = program.getCompilerOptions();
    if ((options.declaration || options.composite) && all.length === configCount) all.push(...program.getDeclarationDiagnostics());
  }
  return all;
}

/** The message chain as tsc prints it: one line per link, indented two spaces per level. */
function flatten(diagnostic: Ts7Diagnostic, depth = 0): string {
  return [`${"  ".repeat(depth)}${diagnostic.text}`, ...(diagnostic.messageChain ?? []).map((link) => flatten(link, depth + 1))].join("\n");
}

/** Convert TypeScript 7 API diagnostics (UTF-16 offsets) into raw issues with 1-based line and column. */
export function ts7DiagnosticsToIssues(diagnostics: readonly Ts7Diagnostic[], toRelative: (path: string) => string | null, configFile: string): RawIssue[] {
  const texts = new Map<string, string>();
  const seen = new Set<string>();
  const issues: RawIssue[] = [];
  for (const diagnostic of diagnostics) {
    const base = { engine: "tsc" as const, rule: `TS${diagnostic.code}`, severity: (diagnostic.category === 1 ? "error" : "warning") as RawIssue["severity"], message: flatten(diagnostic), fixable: false };
    let issue: RawIssue;
    if (!diagnostic.fileName) {
      issue = { ...base, file: configFile, line: 1, col: 1 };
    } else {
      const file = toRelative(diagnostic.fileName);
      if (file === null) continue;
      const text = texts.get(diagnostic.fileName) ?? readFileSync(diagnostic.fileName, "utf8");
      texts.set(diagnostic.fileName, text);
      const before = text.slice(0, diagnostic.pos);
      const line = before.split("\n").length;
      issue = { ...base, file, line, col: diagnostic.pos - before.lastIndexOf("\n") };
    }
    const key = `${issue.file}\0${issue.line}\0${issue.col}\0${issue.rule}\0${issue.message}`;
    if (!seen.has(key)) issues.push(issue);
    seen.add(key);
  }
  return issues;
}
