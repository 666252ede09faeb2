// What keeps a warm vue-tsc program (warm-host.ts, kind "vue") equal to a cold `vue-tsc --noEmit -p`: the state Volar
// keeps between programs and the code it loads, checked or made again around each build.
import { sep } from "node:path";
import type * as TS from "typescript";
import { fileStamp } from "../engines/file-stamp.ts";
import { HostRestartError } from "./host-mode.ts";
import { Internals } from "./loaded-module.ts";
import type { VueCompiler } from "./vue-parts.ts";
import type { ProgramHooks } from "./warm-program.ts";

/** Files TypeScript reads as its own (anything else in a vue-tsc program is a language plugin's: `.vue`, `.md`). */
const TYPESCRIPT_FILE = /\.(d\.)?[cm]?[jt]sx?$|\.json$/;
/** A component's script blocks as written (`lang`, `setup`, `src`, `generic`): what Volar resolves imports of it by. */
const SCRIPT_TAG = /<script\b[^>]*>/gi;

/** Program internals Volar wraps or leaves alone (not in TypeScript's public types). */
interface ProgramInternals {
  getProgramDiagnostics?(file: TS.SourceFile): readonly TS.Diagnostic[];
  getBindAndCheckDiagnostics?(file: TS.SourceFile): readonly TS.Diagnostic[];
}

/**
 * The hooks of one vue-tsc program and the checks around it. A new host is needed (HostRestartError: the command line
 * answers that check) when a config it parsed changed (`vueCompilerOptions` shape every component's generated code),
 * a component's script tags changed (Volar resolves imports of it by them, from a snapshot it keeps), a module of the
 * project Node loaded for the plugins (`vueCompilerOptions.plugins`) changed, or a package was installed.
 */
export class VueProgramGuard {
  private built = false;
  private configs: string | null = null;
  private restart: string | null = null;
  /** Each generated SourceFile's text as Volar made it (see programMade). */
  private readonly made = new WeakMap<TS.SourceFile, string>();
  /** The project's own modules Node loaded for the plugins, with their stamps. */
  private loaded = new Map<string, string | null>();

  constructor(
    private readonly compiler: VueCompiler,
    private readonly root: string,
  ) {}

  readonly hooks: ProgramHooks = {
    parsed: (reads) => {
      const now = JSON.stringify(reads);
      if (this.configs !== null && this.configs !== now) throw new HostRestartError("the config changed: vue-tsc's plugins are made again in a new host");
      this.configs = now;
    },
    // Volar's plugins and module resolution cache are made again whenever TypeScript redoes module resolutions.
    beforeBuild: (fresh) => {
      if (this.built && fresh) this.compiler.forgetPlugins();
      this.built = true;
    },
    sourceChanged: (before, text) => {
      if (text === undefined || TYPESCRIPT_FILE.test(before.fileName)) return;
      if (scriptTags(before.text) !== scriptTags(text)) throw new HostRestartError(`${before.fileName}'s script tags changed`);
    },
    programMade: (program) => this.keepMadeText(program),
  };

  /** Before a check: a change that needs a new host. */
  beforeCheck(): void {
    if (this.restart) throw new HostRestartError(this.restart);
    for (const [file, stamp] of this.loaded) if (fileStamp(file) !== stamp) throw new HostRestartError(`${file}, loaded by vue-tsc's plugins, changed`);
  }

  /**
   * After a check: the project's modules the plugins loaded so far, stamped now. A module written between its load (in
   * this check) and this stamp is not seen as changed: a known gap, as narrow as one check.
   */
  afterCheck(): void {
    const inside = this.root.endsWith(sep) ? this.root : this.root + sep;
    for (const file of Object.keys(Internals._cache))
      if (file.startsWith(inside) && !file.includes(`${sep}node_modules${sep}`) && !this.loaded.has(file)) this.loaded.set(file, fileStamp(file));
  }

  restartWith(reason: string): void {
    this.restart = reason;
  }

  /**
   * Volar writes a component's own text over the blank head of its generated code whenever the builder asks the program
   * for the file by path (`fillSourceFileText`, for tsc's pretty output) — which TypeScript's builder does before it
   * checks a changed file again: the error span of a first statement then starts at `<script` and maps nowhere, so the
   * error was dropped (an unused first import, `noUnusedLocals`). Here each generated text stays as Volar made it
   * whenever the file is asked for (line and column are the same in both). And the file's program diagnostics, which
   * the builder asks apart from the ones Volar maps, are mapped as Volar maps them in a cold run of a config that is
   * neither incremental nor composite (a cold run of one of those is a builder, which leaves them unmapped).
   */
  private keepMadeText(program: TS.Program): void {
    for (const file of program.getSourceFiles()) {
      const text = this.made.get(file);
      if (text === undefined) this.made.set(file, file.text);
      else if (file.text !== text) file.text = text;
    }
    const byPath = program.getSourceFileByPath.bind(program);
    program.getSourceFileByPath = (path) => {
      const file = byPath(path);
      const text = file && this.made.get(file);
      if (file && text !== undefined && file.text !== text) file.text = text;
      return file;
    };
    const internals = program as TS.Program & ProgramInternals;
    const programDiagnostics = internals.getProgramDiagnostics?.bind(program);
    const checked = internals.getBindAndCheckDiagnostics?.bind(program);
    // A cold run of an incremental or composite config is a builder too (vue-tsc -p takes tsc's incremental path): its
    // program diagnostics stay where the generated code has them, so they do here.
    const options = program.getCompilerOptions();
    if (!programDiagnostics || !checked || options.incremental || options.composite) return;
    internals.getProgramDiagnostics = (file) => {
      const raw = programDiagnostics(file);
      if (raw.length === 0 || TYPESCRIPT_FILE.test(file.fileName)) return raw;
      // Volar's per-file semantic diagnostics are its mapped check diagnostics and program diagnostics (cached: the same objects).
      const own = new Set(checked(file));
      return program.getSemanticDiagnostics(file).filter((diagnostic) => !own.has(diagnostic));
    };
  }
}

function scriptTags(text: string): string {
  return (text.match(SCRIPT_TAG) ?? []).join("\n");
}
