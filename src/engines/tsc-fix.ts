// TypeScript's own code fixes for a check's diagnostics, asked of the project's own TypeScript (5.x/6.x) without
// touching a file: a language service over the program of the tsconfig that lists the file (the project's options,
// its references read from source as editors do), the asked diagnostic found again by code and place, and
// `getCodeFixesAtPosition` for its exact span. Fixes are applied in rounds, as eslint --fix applies passes: every
// pending diagnostic asked on one program, the fixes whose edits do not meet applied together, the rest asked again
// on the text that left (a second missing import from a module joins the first one's import). Combined fixes
// (`getCombinedCodeFix`) are not used: they fix every diagnostic of their kind in a file, asked or not, of any kind.
//
// Which fix is `safe` (applied by default): adding a missing import when TypeScript knows exactly one module for the
// name, a spelling fix when it is the only name candidate, adding a missing `await`, and removing an unused import or
// declaration when nothing removed runs (no call, `new`, `await`, assignment or `++` outside a function body). Any
// other fix TypeScript ranks first is a `suggestion`.

import { z } from "zod";
import { FixKindSchema, type FixKind } from "../core/contracts.ts";
import type { RawIssue } from "../core/issues.ts";

/** One diagnostic asked of TypeScript: its code and 1-based place in the text given. */
export interface TscFixPlace {
  code: number;
  line: number;
  col: number;
}

/** One file to fix: its absolute path, its text, and the diagnostics asked (null: every diagnostic; empty: only read). */
export interface TscFixFile {
  path: string;
  text: string;
  asked: TscFixPlace[] | null;
}

/** What TypeScript did: every changed file's text, the diagnostics its fixes address, and the ones it left. */
export interface TscFixAnswer {
  /** Absolute path → the file's text after the fixes (files other than the asked ones included). */
  texts: Record<string, string>;
  /** Absolute path → the text a fix was applied to, for each changed file the request did not give (read from disk once). */
  bases: Record<string, string>;
  /** Fixed (or gone after another fix), by the asked file's path and the place in its original text. */
  fixed: (TscFixPlace & { path: string; kind: FixKind; touched: string[] })[];
  notFixed: (TscFixPlace & { path: string; reason: string; offered: boolean })[];
}

/**
 * Codes whose diagnostic TypeScript always answers with a safe fix (its fix provider has no other branch): an import
 * whose every binding is unused (TS6192: the import removed) and type parameters all unused (TS6205). Every other tsc
 * issue is left unmarked (its fix depends on the program), yet still asked of TypeScript by preview.
 */
const ALWAYS_SAFE = new Set(["TS6192", "TS6205"]);

/** The fix mark of a tsc issue from TypeScript 5.x/6.x (the same on a cold, warm or cached answer: by code only). */
export function tscFixMark(issue: Pick<RawIssue, "rule" | "file" | "programWide">): Pick<RawIssue, "fixable" | "fixKind"> {
  return ALWAYS_SAFE.has(issue.rule) && !issue.programWide && /\.[cm]?[jt]sx?$/.test(issue.file) ? { fixable: true, fixKind: "safe" } : { fixable: false };
}

/**
 * The launcher Signalint writes to its cache directory and runs with the node that runs tsc:
 * `node <launcher> <typescript package dir> <request.json>`; the request is `{ root, configs, files, kinds }`
 * (`configs`: the tsconfigs the check runs, tried first), the answer one TscFixAnswer on stdout, as JSON.
 */
export const TSC_FIX_LAUNCHER = `"use strict";
// Signalint: TypeScript's own code fixes of files given as text (see engines/tsc-fix.ts); writes nothing.
const { readFileSync } = require("node:fs");
const path = require("node:path");
const proc = require("node:process");
const [packageDir, requestPath] = proc.argv.slice(2);
const request = JSON.parse(readFileSync(requestPath, "utf8"));
const ts = require(packageDir);
const sys = ts.sys;
const key = (file) => path.resolve(file);
// The working texts: the asked files as given, then every file a fix changed.
const texts = new Map(request.files.map((file) => [key(file.path), file.text]));
const versions = new Map();
// A file not given is read from disk once: every later read, and the fix applied to it, see that one text (its base).
const disk = new Map();
const readText = (file) => {
  if (texts.has(key(file))) return texts.get(key(file));
  if (!disk.has(key(file))) disk.set(key(file), sys.readFile(file));
  return disk.get(key(file));
};
const inside = (file) => {
  const rel = path.relative(request.root, file);
  return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel) && !rel.split(path.sep).includes("node_modules");
};
const parsedConfigs = new Map();
function parsed(config) {
  if (!parsedConfigs.has(config)) {
    const host = { ...sys, readFile: readText, onUnRecoverableConfigFileDiagnostic: () => {} };
    parsedConfigs.set(config, sys.fileExists(config) ? ts.getParsedCommandLineOfConfigFile(config, {}, host) || null : null);
  }
  return parsedConfigs.get(config);
}
// The config whose program lists the file: the check's configs and what they reference, then the nearest tsconfig.json.
function configOf(file) {
  const seen = new Set();
  const tried = [...request.configs];
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    tried.push(path.join(dir, "tsconfig.json"));
    if (dir === request.root || path.dirname(dir) === dir) break;
  }
  while (tried.length) {
    const config = path.resolve(tried.shift());
    if (seen.has(config)) continue;
    seen.add(config);
    const options = parsed(config);
    if (!options) continue;
    if (options.fileNames.some((name) => key(name) === key(file))) return config;
    for (const reference of options.projectReferences || []) tried.push(ts.resolveProjectReferencePath(reference));
  }
  return null;
}
const services = new Map();
function serviceFor(config) {
  if (services.has(config)) return services.get(config);
  const options = parsed(config);
  const host = {
    getCompilationSettings: () => options.options,
    getScriptFileNames: () => options.fileNames,
    getProjectReferences: () => options.projectReferences,
    // Referenced projects from their sources, as editors read them (their outputs may not exist).
    useSourceOfProjectReferenceRedirect: () => true,
    getScriptVersion: (file) => String(versions.get(key(file)) || 0),
    getScriptSnapshot: (file) => {
      const text = readText(file);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => path.dirname(config),
    getDefaultLibFileName: (settings) => ts.getDefaultLibFilePath(settings),
    fileExists: (file) => texts.has(key(file)) || sys.fileExists(file),
    readFile: readText,
    readDirectory: sys.readDirectory,
    directoryExists: sys.directoryExists,
    getDirectories: sys.getDirectories,
    realpath: sys.realpath,
    useCaseSensitiveFileNames: () => sys.useCaseSensitiveFileNames,
  };
  const service = ts.createLanguageService(host, ts.createDocumentRegistry());
  services.set(config, service);
  return service;
}
const diagnosticsOf = (service, file) => [...service.getSyntacticDiagnostics(file), ...service.getSemanticDiagnostics(file)];
function formatOf(text) {
  const newLine = text.includes("\\r\\n") ? "\\r\\n" : "\\n";
  // The first indented line that is not inside a block comment (" * …" is one space).
  const indent = /^(\\t| {2,})[^\\s*]/m.exec(text);
  const tabs = indent !== null && indent[1].startsWith("\\t");
  const size = indent && !tabs ? Math.min(indent[1].length, 8) : 4;
  return { ...ts.getDefaultFormatCodeSettings(newLine), indentSize: size, tabSize: size, convertTabsToSpaces: !tabs };
}
const PREFERENCES = { quotePreference: "auto", importModuleSpecifierEnding: "auto", includeCompletionsForModuleExports: true };
// A fix Signalint can hold as a transaction: edits of existing files inside the root, no command (an @types install).
const usable = (action) =>
  !(action.commands && action.commands.length) &&
  action.changes.length > 0 &&
  action.changes.every((change) => !change.isNewFile && inside(change.fileName) && readText(change.fileName) !== undefined);
const EFFECT_OPERATORS = new Set([ts.SyntaxKind.PlusPlusToken, ts.SyntaxKind.MinusMinusToken]);
function effect(node) {
  if (ts.isCallExpression(node) || ts.isNewExpression(node) || ts.isAwaitExpression(node) || ts.isYieldExpression(node)) return true;
  if (ts.isTaggedTemplateExpression(node) || ts.isDeleteExpression(node)) return true;
  if (ts.isBinaryExpression(node)) return node.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && node.operatorToken.kind <= ts.SyntaxKind.LastAssignment;
  return (ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) && EFFECT_OPERATORS.has(node.operator);
}
// Whether a removal drops code that runs (a function's body does not run where it is declared).
function removesEffects(service, action) {
  const program = service.getProgram();
  return action.changes.some((change) => {
    const source = program.getSourceFile(change.fileName);
    if (!source) return true;
    return change.textChanges.some(({ span }) => {
      let found = false;
      const visit = (node) => {
        if (found || node.end <= span.start || node.getStart(source) >= span.start + span.length) return;
        const removed = node.getStart(source) >= span.start && node.end <= span.start + span.length;
        if (removed && effect(node)) found = true;
        // A function removed whole never ran where it was declared; one the span lies in is walked into.
        else if (!(removed && ts.isFunctionLike(node))) ts.forEachChild(node, visit);
      };
      visit(source);
      return found;
    });
  });
}
const ONE_NAME = new Set(["import", "spelling"]);
const AWAIT = new Set(["addMissingAwait", "addMissingAwaitToInitializer"]);
// A removal (TypeScript names no fix-all id when a file has one such diagnostic, so the edit itself is read).
const removes = (action) => action.changes.every((change) => change.textChanges.every((edit) => edit.newText.trim() === ""));
// The fix to apply and its kind: a safe one where TypeScript offers one (see the file's opening comment), else its first.
function choose(service, fixes) {
  const names = fixes.filter((fix) => ONE_NAME.has(fix.fixName)).length;
  for (const fix of fixes) {
    if (ONE_NAME.has(fix.fixName) && names === 1) return { action: fix, kind: "safe" };
    if (AWAIT.has(fix.fixName)) return { action: fix, kind: "safe" };
    if (fix.fixName === "unusedIdentifier" && removes(fix)) return { action: fix, kind: removesEffects(service, fix) ? "suggestion" : "safe" };
  }
  return fixes.length ? { action: fixes[0], kind: "suggestion" } : null;
}
// A position of the text before some changes, in the text after them (a position inside a replaced span: its start).
function moved(position, changes) {
  let shift = 0;
  for (const { span, newText } of changes) {
    if (span.start + span.length <= position) shift += newText.length - span.length;
    else if (span.start < position) return span.start + shift;
  }
  return position + shift;
}
function applyChanges(text, changes) {
  let out = text;
  for (const { span, newText } of [...changes].sort((a, b) => b.span.start - a.span.start))
    out = out.slice(0, span.start) + newText + out.slice(span.start + span.length);
  return out;
}
const placeOf = (text, position) => {
  const before = text.slice(0, position).split("\\n");
  return { line: before.length, col: before[before.length - 1].length + 1 };
};
const answer = { texts: {}, bases: {}, fixed: [], notFixed: [] };
// Pending diagnostics of every asked file: where each was in the original text and is in the working text now.
const pending = [];
for (const file of request.files) {
  // A file given only as the text to read (an earlier engine's output): nothing asked of it.
  if (file.asked && file.asked.length === 0) continue;
  const config = configOf(file.path);
  if (!config) {
    for (const place of file.asked || []) answer.notFixed.push({ ...place, path: file.path, reason: "no tsconfig the project checks lists this file", offered: false });
    continue;
  }
  const service = serviceFor(config);
  // Found again by code and line, the nearest column (an engine's fix before this one may have moved it on its line).
  const located = diagnosticsOf(service, file.path)
    .filter((diagnostic) => diagnostic.start !== undefined)
    .map((diagnostic) => ({ diagnostic, ...placeOf(file.text, diagnostic.start) }));
  const asked = file.asked || located.map(({ diagnostic, line, col }) => ({ code: diagnostic.code, line, col }));
  for (const place of asked) {
    const [match] = located
      .filter((entry) => entry.diagnostic.code === place.code && entry.line === place.line)
      .sort((a, b) => Math.abs(a.col - place.col) - Math.abs(b.col - place.col));
    pending.push({ ...place, path: file.path, service, at: match ? match.diagnostic.start : -1 });
  }
}
// Unused declarations last: another fix may use one (a misspelled name corrected to it), and then it stays.
const UNUSED = new Set([6133, 6138, 6192, 6196, 6198, 6199, 6205]);
const late = (item) => (UNUSED.has(item.code) ? 1 : 0);
pending.sort((a, b) => late(a) - late(b) || (a.path === b.path ? a.at - b.at : a.path < b.path ? -1 : 1));
const diagnosticCache = new Map();
// The diagnostic a pending item names, in its file's working text (each file's list kept until the next edit).
function current(item) {
  const file = key(item.path);
  if (!diagnosticCache.has(file)) diagnosticCache.set(file, diagnosticsOf(item.service, item.path));
  return diagnosticCache.get(file).find((diagnostic) => diagnostic.code === item.code && diagnostic.start === item.at);
}
// Each round asks every pending diagnostic of one group (unused declarations after the rest) on the same program and
// applies the fixes whose edits do not meet, as eslint --fix applies a pass; a fix whose edits meet one taken, or a
// second import into a file (it joins the first next round), waits for the next round, on the text this one left.
while (pending.length) {
  const group = late(pending[0]);
  const taken = [];
  const waiting = [];
  const edited = new Map();
  const meets = (action) =>
    action.changes.some((change) =>
      change.textChanges.some(({ span }) =>
        (edited.get(key(change.fileName)) || []).some(
          (other) => span.start <= other.span.start + other.span.length && other.span.start <= span.start + span.length,
        ),
      ),
    );
  for (const item of pending) {
    if (late(item) !== group) {
      waiting.push(item);
      continue;
    }
    const place = { code: item.code, line: item.line, col: item.col, path: item.path };
    const diagnostic = current(item);
    if (!diagnostic) {
      answer.notFixed.push({ ...place, reason: "TypeScript does not report it here now (a file changed, or an earlier fix of another file)", offered: false });
      continue;
    }
    let fixes;
    try {
      fixes = item.service
        .getCodeFixesAtPosition(item.path, diagnostic.start, diagnostic.start + diagnostic.length, [diagnostic.code], formatOf(readText(item.path)), PREFERENCES)
        .filter(usable);
    } catch (error) {
      answer.notFixed.push({ ...place, reason: "TypeScript's code fix failed: " + String((error && error.message) || error).slice(0, 200), offered: false });
      continue;
    }
    const choice = choose(item.service, fixes);
    if (!choice) {
      answer.notFixed.push({ ...place, reason: "TypeScript offers no fix for it", offered: false });
      continue;
    }
    if (!request.kinds.includes(choice.kind)) {
      const reason = "its fix (" + choice.action.description + ") is a " + choice.kind + " one, not among kinds " + request.kinds.join(", ");
      answer.notFixed.push({ ...place, reason, offered: true });
      continue;
    }
    const importing = choice.action.fixName === "import" && taken.some((other) => other.choice.action.fixName === "import" && other.item.path === item.path);
    if (importing || meets(choice.action)) {
      waiting.push(item);
      continue;
    }
    taken.push({ item, place, choice });
    for (const change of choice.action.changes) edited.set(key(change.fileName), [...(edited.get(key(change.fileName)) || []), ...change.textChanges]);
  }
  pending.length = 0;
  pending.push(...waiting);
  if (!taken.length) continue;
  const touched = [...edited.keys()];
  for (const [file, changes] of edited) {
    const ordered = [...changes].sort((a, b) => a.span.start - b.span.start);
    if (!texts.has(file)) answer.bases[file] = readText(file);
    texts.set(file, applyChanges(readText(file), ordered));
    versions.set(file, (versions.get(file) || 0) + 1);
    answer.texts[file] = texts.get(file);
    for (const other of pending) if (key(other.path) === file) other.at = moved(other.at, ordered);
  }
  diagnosticCache.clear();
  for (const { place, choice } of taken) answer.fixed.push({ ...place, kind: choice.kind, touched: choice.action.changes.map((change) => key(change.fileName)) });
  // Diagnostics the round's edits took away too (a second use of a name just imported): addressed by them.
  const kindIn = (file) => (taken.some(({ item, choice }) => key(item.path) === file && choice.kind === "safe") ? "safe" : "suggestion");
  for (let index = pending.length - 1; index >= 0; index--) {
    const other = pending[index];
    if (other.at < 0 || !touched.includes(key(other.path)) || current(other)) continue;
    pending.splice(index, 1);
    answer.fixed.push({ code: other.code, line: other.line, col: other.col, path: other.path, kind: kindIn(key(other.path)), touched: [key(other.path)] });
  }
}
proc.stdout.write(JSON.stringify(answer));
`;

/** The launcher's answer as it crosses the process boundary (validated on arrival, as every message Signalint reads back). */
const PlaceSchema = z.object({ code: z.number(), line: z.number(), col: z.number(), path: z.string() });
const TscFixAnswerSchema = z.object({
  texts: z.record(z.string(), z.string()),
  bases: z.record(z.string(), z.string()),
  fixed: z.array(PlaceSchema.extend({ kind: FixKindSchema, touched: z.array(z.string()) })),
  notFixed: z.array(PlaceSchema.extend({ reason: z.string(), offered: z.boolean() })),
});

/** The launcher's answer; null when it is not that (it failed). */
export function parseTscFixAnswer(stdout: string): TscFixAnswer | null {
  let answer: unknown;
  try {
    answer = JSON.parse(stdout);
  } catch {
    // Not JSON: the launcher failed (its stderr is the caller's to report).
    return null;
  }
  const parsed = TscFixAnswerSchema.safeParse(answer);
  return parsed.success ? parsed.data : null;
}
