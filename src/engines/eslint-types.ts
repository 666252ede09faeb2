// Which files an ESLint config lints with type information (typescript-eslint's `parserOptions.project`,
// `projectService` or `programs`) or with rules that read other modules (eslint-plugin-import and -x): their findings
// depend on other files, so no result of theirs may be cached. Asked of the project's own ESLint in one process per batch: its `calculateConfigForFile` for each file, the
// configuration ESLint itself would lint that file with (a file no config entry matches has none).

/**
 * `typed(config)`: whether a file's calculated config makes its findings read other files: type information, or a rule
 * of eslint-plugin-import or -x turned on (`import/named`, `import-x/namespace`, `no-unused-modules`, `extensions`:
 * what another module exports, or whether it exists). Source text, shared by the launcher below and ESLint's fixes
 * (engines/eslint-fix.ts).
 */
export const ESLINT_TYPED = `const set = (value) => value !== undefined && value !== null && value !== false && !(Array.isArray(value) && value.length === 0);
const importPlugin = /^eslint-plugin-import(-x)?$/;
const readsOthers = (config) => {
  const plugins = config.plugins && typeof config.plugins === "object" && !Array.isArray(config.plugins) ? config.plugins : {};
  const prefixes = new Set(["import", "import-x"]);
  for (const [key, plugin] of Object.entries(plugins)) {
    const name = plugin && plugin.meta && plugin.meta.name;
    if (typeof name === "string" && importPlugin.test(name)) prefixes.add(key);
  }
  const rules = config.rules && typeof config.rules === "object" ? config.rules : {};
  return Object.entries(rules).some(([id, entry]) => {
    const severity = Array.isArray(entry) ? entry[0] : entry;
    const on = severity !== 0 && severity !== undefined && !(typeof severity === "string" && severity.toLowerCase() === "off");
    return on && prefixes.has(id.slice(0, Math.max(0, id.lastIndexOf("/"))));
  });
};
const typed = (config) => {
  if (!config || typeof config !== "object") return false;
  const languageOptions = config.languageOptions && typeof config.languageOptions === "object" ? config.languageOptions : {};
  return readsOthers(config) || [languageOptions.parserOptions, config.parserOptions].some(
    (options) => options && typeof options === "object" && (set(options.project) || set(options.projectService) || set(options.EXPERIMENTAL_useProjectService) || set(options.programs)),
  );
};
`;

/**
 * The head of a launcher run as `node <launcher> <package dir> <request.json>`: `proc`, `packageDir`, the parsed
 * `request`, and `answer`, the one writer of stdout (what a config prints while it loads goes to stderr, as a warm
 * host captures it apart from its answer). Shared by the ESLint launchers (this one's and engines/eslint-fix.ts's).
 */
export const LAUNCHER_REQUEST = `const { readFileSync } = require("node:fs");
const proc = require("node:process");
const [packageDir, requestPath] = proc.argv.slice(2);
const request = JSON.parse(readFileSync(requestPath, "utf8"));
const answer = proc.stdout.write.bind(proc.stdout);
proc.stdout.write = proc.stderr.write.bind(proc.stderr);
console.log = console.info = console.debug = console.error;
`;

/**
 * The launcher Signalint writes to its cache directory and runs with the node that runs ESLint:
 * `node <launcher> <eslint package dir> <request.json>`; the request is `{ files, flat, flags }`, the answer one
 * boolean per file on stdout, as JSON.
 */
export const ESLINT_TYPES_LAUNCHER = `"use strict";
// Signalint: which of the files an ESLint config lints with type information (see engines/eslint-types.ts).
${LAUNCHER_REQUEST}${ESLINT_TYPED}(async () => {
  const api = require(packageDir);
  const ESLint = api.loadESLint ? await api.loadESLint({ useFlatConfig: request.flat }) : api.ESLint;
  const eslint = new ESLint({ cwd: proc.cwd(), ...(request.flags.length ? { flags: request.flags } : {}) });
  const answers = [];
  for (const file of request.files) answers.push(typed(await eslint.calculateConfigForFile(file)));
  answer(JSON.stringify(answers));
})().catch((error) => {
  proc.stderr.write(String((error && error.stack) || error));
  proc.exitCode = 2;
});
`;

/** The launcher's answer for `count` files: one boolean each; null when it is not that (it failed). */
export function parseTypedAnswers(stdout: string, count: number): boolean[] | null {
  try {
    const answers = JSON.parse(stdout) as unknown;
    return Array.isArray(answers) && answers.length === count && answers.every((answer) => typeof answer === "boolean") ? answers : null;
  } catch {
    // Not JSON: the launcher failed (null says so).
    return null;
  }
}
