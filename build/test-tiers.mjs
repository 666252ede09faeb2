// The test tiers, in one place (build/run-tests.mjs runs them; test/core/tiers.test.ts checks they leave nothing out).
// - quick (`npm run test:quick`, ~15 s): the unit tests (no engines, binaries, Deno or e2e).
// - main (`npm test`, the contributor loop, ~8–9 min on an idle 2-core machine): every test but test/dist and the SLOW
//   suites: the core contracts and each tool's, verb's and engine's end-to-end tests on small projects.
// - dist (`npm run test:dist`, CI, ~25 min): test/dist (binary, Deno, install lines, action) and the SLOW suites, with
//   long random runs (SIGNALINT_LONG_RUNS=1: more edits, other fixed seeds).
// CI (.ci/run) runs all three tiers; main and dist together hold every test file exactly once. The figures are sums of
// the last CI's per-test durations (node:test, concurrency 2); a suite that takes more than ~20 s and proves a property
// over many cases (random edits, every path, crash instants, real-project layouts, version matrices) goes here.

/** Suites that take half a minute to minutes each; each line says what it runs over (seconds: last CI's sum). */
export const SLOW = [
  // Random differentials against cold runs, every tsc path, the cause corpus.
  "e2e/warm-differential.test.mjs", // ~240 s (367 s at 100 edits; now 60): warm tsc = cold tsc over random edits and restarts
  "e2e/warm-shapes.test.mjs", // ~45 s (78 s at 30 edits; now 16): heavy generic types and a file in two programs, warm = cold over random edits
  "e2e/warm-solution.test.mjs", // ~275 s (363 s at 12 edits and 20 restart steps; now 9 and 15): warm tsc -b = cold tsc -b over random edits and restarts
  "e2e/warm-solution-restart.test.mjs", // 135 s
  "e2e/truth-paths.test.mjs", // 228 s: every tsc path = the project's own tsc
  "service/cause-corpus.test.mjs", // 138 s
  "e2e/edit-breaks-elsewhere-paths.test.mjs", // 205 s: an edit breaking an importer, on every TypeScript path
  "e2e/edit-breaks-elsewhere.test.mjs", // 67 s: ... renames, deletions, retyped exports, programs the check did not run
  "e2e/edit-breaks-elsewhere-eslint.test.mjs", // 58 s: ... and the importers' typed-lint errors
  "e2e/edit-breaks-elsewhere-importers.test.mjs", // 82 s: ... which importers ESLint lints, and what is known of them
  "e2e/warm-resolution.test.mjs", // 36 s: module-resolution changes, TypeScript 5.9 and 7
  "e2e/named-first.test.mjs", // 80 s: the named files first, the rest pending, over nine 40-importer projects
  // Crash and race properties: SIGKILL at every journal stage, a CLI check and a hook at each paused stage.
  "e2e/fix-crash.test.mjs", // 98 s
  "daemon/apply-race.test.mjs", // 42 s
  "service/journal-trust.test.mjs", // 42 s
  "daemon/identity.test.mjs", // 39 s
  // Real-project layouts: the programs and linters a project's scripts, workspaces and frameworks run.
  "e2e/programs.test.mjs", // ~155 s (208 s when its cases ran a json and a response check of one tree)
  "e2e/programs-scope.test.mjs", // ~40 s (53 s before one json check answered both)
  "e2e/workspace-scripts.test.mjs", // 61 s
  "e2e/angular-programs.test.mjs", // 62 s
  "e2e/svelte-check.test.mjs", // ~60 s (96 s when each check ran svelte-check twice)
  "e2e/svelte-warm.test.mjs", // new, ~130 s under load: a warm svelte-check = a cold one over ten kinds of edit
  "e2e/vue-warm.test.mjs", // new: a warm vue-tsc = a cold one over thirteen kinds of edit
  "e2e/eslint-warm.test.mjs", // new, ~45 s: a warm ESLint = a cold eslint over edits, a plugin edit, two environments, faults, typed rules
  "e2e/eslint-typed.test.mjs", // 69 s
  "e2e/lint-scope.test.mjs", // 27 s
  "e2e/oxlint-scripts.test.mjs", // new, ~40 s: oxlint as the lint scripts run it, nine script shapes each against a raw oxlint
  "e2e/shards.test.mjs", // 82 s: every shard count's union = the unsharded check
  // Warm hosts' lifecycle (kills, timeouts, memory), prewarm, quiet checks over workspaces.
  "e2e/warm-host.test.mjs", // 80 s
  "e2e/prewarm.test.mjs", // 79 s
  "e2e/quiet.test.mjs", // 92 s
  // Matrices: every tool × mode × compact, engine versions, each engine's fix marks, oxlint's type-aware plugin.
  "e2e/payload-matrix.test.mjs", // 42 s
  "engines/fix-marks.test.mjs", // 47 s
  "e2e/engine-fixes.test.mjs", // 52 s: ESLint flat, Biome 1.x and 2.x (safe and unsafe) previews, each against the engine's own --fix on a copy
  "e2e/engine-fixes-tsc.test.mjs", // 52 s: TypeScript's code fixes from the command line and the warm program, rollback, after ESLint's
  "engines/biome-versions.test.mjs", // 19 s
  "engines/type-aware.test.mjs", // 22 s
];
const QUICK = ["core/", "runtime/", "service/change-tracker.test.mjs", "service/snapshots.test.mjs", "engines/parsers.test.mjs"];
const MAIN_DIRS = ["core/", "daemon/", "e2e/", "engines/", "runtime/", "service/"];

const under = (entries, file) => entries.some((entry) => (entry.endsWith("/") ? file.startsWith(entry) : file === entry));

/** The files of a tier, out of every compiled test file (paths relative to dist/test, `/`-separated, `.test.mjs`). */
export const TIERS = {
  quick: (files) => files.filter((file) => under(QUICK, file)),
  main: (files) => files.filter((file) => under(MAIN_DIRS, file) && !SLOW.includes(file)),
  dist: (files) => files.filter((file) => file.startsWith("dist/") || SLOW.includes(file)),
};
