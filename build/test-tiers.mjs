// The test tiers, in one place (build/run-tests.mjs runs them; test/core/tiers.test.ts checks they leave nothing out).
// - quick: the unit tests (seconds; no engines, binaries, Deno or e2e).
// - main (`npm test`, the contributor loop): every test but test/dist and the SLOW suites.
// - dist (`npm run test:dist`, CI): test/dist (binary, Deno, install lines, action) and the SLOW suites, with long
//   random runs (SIGNALINT_LONG_RUNS=1: more edits, other fixed seeds).
// CI (.ci/run) runs all three tiers; main and dist together hold every test file exactly once.

/** Suites that take minutes each (random differentials against cold runs, every tsc path, the cause corpus). */
export const SLOW = [
  "e2e/warm-differential.test.mjs",
  "e2e/warm-shapes.test.mjs",
  "e2e/warm-solution.test.mjs",
  "e2e/warm-solution-restart.test.mjs",
  "e2e/truth-paths.test.mjs",
  "service/cause-corpus.test.mjs",
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
