// ESLint's own edits for a file, asked of the project's own ESLint without touching the file: its Node API lints the
// text as the file (`lintText` with `filePath`, the config of that path), with `fix` on, as `eslint --fix` does, and
// with a `fix` predicate that keeps only the asked rules or positions. Suggestions (edits ESLint offers but `--fix`
// never applies) are applied one each, in source order, where they do not overlap.

import { ESLINT_TYPED, LAUNCHER_REQUEST } from "./eslint-types.ts";
import type { FixKind } from "../core/contracts.ts";
import { isRecord } from "./types.ts";

/** One file to fix: its absolute path, its text, and what to fix (null: every rule; else these rules, or these places). */
export interface EslintFixFile {
  path: string;
  text: string;
  rules: string[] | null;
  /** Only messages at these `rule:line:col` places (an issue-restricted fix); null: any place of the rules. */
  places: string[] | null;
}

/** What ESLint did to one file: the fixed text and the messages whose edit it holds (`rule:line:col`, by kind). */
export interface EslintFixAnswer {
  output: string;
  fixed: { place: string; kind: FixKind }[];
}

/**
 * `eslintFixes(api, request, cwd)`: the answers for a request `{ files, flat, flags, kinds }` of ESLint's Node API
 * `api` (the package's main module), one `{ output, fixed }` per file; null when the request says `untypedOnly` and a
 * file is linted with type information. Source text, shared by the launcher below and a
 * warm ESLint host (engines/eslint-host.ts).
 */
export const ESLINT_FIX_FUNCTION = `
// Signalint: ESLint's own fixes of files given as text (see engines/eslint-fix.ts); writes nothing.
async function eslintFixes(api, request, cwd) {
  const placeOf = (message) => message.ruleId + ":" + message.line + ":" + message.column;
  const ESLint = api.loadESLint ? await api.loadESLint({ useFlatConfig: request.flat }) : api.ESLint;
  // One instance of each for every file (a config is loaded once): the predicates read the file being fixed.
  let current = { rules: null, places: null };
  const rule = (message) => current.rules === null || current.rules.includes(message.ruleId);
  const asked = (message) => rule(message) && (current.places === null || current.places.includes(placeOf(message)));
  // The check's flags (a config looked up from each file's directory): the same configs as the check's.
  const options = request.flags.length ? { cwd, flags: request.flags } : { cwd };
  const plain = new ESLint(options);
  const fixer = new ESLint({ ...options, fix: (message) => asked(message) });
  // A warm host's (engines/eslint-host.ts) untyped files only: a typed parser kept in it would see other files stale.
  if (request.untypedOnly) {
    ${ESLINT_TYPED}
    for (const file of request.files) if (typed(await plain.calculateConfigForFile(file.path))) return null;
  }
  const answers = [];
  for (const file of request.files) {
    current = file;
    const [before] = await plain.lintText(file.text, { filePath: file.path });
    const fixed = [];
    let output = file.text;
    if (request.kinds.includes("safe")) {
      for (const message of before.messages) if (message.fix && asked(message)) fixed.push({ place: placeOf(message), kind: "safe" });
      // As eslint --fix: every pass re-lints and fixes again; asked places are the original text's (a later pass's
      // moved places match only what is left of an asked fix at the same place).
      if (fixed.length) {
        const [after] = await fixer.lintText(file.text, { filePath: file.path });
        output = typeof after.output === "string" ? after.output : file.text;
      }
    }
    if (request.kinds.includes("suggestion")) {
      const [now] = output === file.text ? [before] : await plain.lintText(output, { filePath: file.path });
      const picks = [];
      for (const message of now.messages) {
        const suggestion = !message.fix && Array.isArray(message.suggestions) ? message.suggestions[0] : null;
        // Places are the original text's: one moved by a safe fix is not matched (and its issue is not said addressed).
        if (suggestion && suggestion.fix && asked(message))
          picks.push({ message, fix: suggestion.fix });
      }
      picks.sort((a, b) => a.fix.range[0] - b.fix.range[0]);
      let text = "";
      let at = 0;
      for (const pick of picks) {
        if (pick.fix.range[0] < at) continue;
        text += output.slice(at, pick.fix.range[0]) + pick.fix.text;
        at = pick.fix.range[1];
        fixed.push({ place: placeOf(pick.message), kind: "suggestion" });
      }
      output = text + output.slice(at);
    }
    answers.push({ output, fixed });
  }
  return answers;
}
`;

/**
 * The launcher Signalint writes to its cache directory and runs with the node that runs ESLint:
 * `node <launcher> <eslint package dir> <request.json>`; the request is `{ files, flat, flags, kinds }`, the answer one
 * `{ output, fixed }` per file on stdout, as JSON. A warm ESLint host (engines/eslint-host.ts) runs the same function.
 */
export const ESLINT_FIX_LAUNCHER = `"use strict";
${LAUNCHER_REQUEST}${ESLINT_FIX_FUNCTION}
eslintFixes(require(packageDir), request, proc.cwd()).then(
  (answers) => answer(JSON.stringify(answers)),
  (error) => {
    proc.stderr.write(String((error && error.stack) || error));
    proc.exitCode = 2;
  },
);
`;

/** A place as the launcher names it: `rule:line:col` (1-based, as ESLint's messages and Signalint's issues are). */
export function eslintPlace(rule: string, line: number, col: number): string {
  return `${rule}:${line}:${col}`;
}

/** The launcher's answer for `count` files; null when it is not that (it failed). */
export function parseEslintFixAnswers(stdout: string, count: number): EslintFixAnswer[] | null {
  try {
    const answers = JSON.parse(stdout) as unknown;
    if (!Array.isArray(answers) || answers.length !== count) return null;
    const valid = answers.every(
      (answer) =>
        isRecord(answer) &&
        typeof answer.output === "string" &&
        Array.isArray(answer.fixed) &&
        answer.fixed.every((fix) => isRecord(fix) && typeof fix.place === "string" && (fix.kind === "safe" || fix.kind === "suggestion")),
    );
    return valid ? (answers as EslintFixAnswer[]) : null;
  } catch {
    // Not JSON: the launcher failed (null says so).
    return null;
  }
}
