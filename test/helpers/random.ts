// Seeded randomness for the random tests: a generator that a seed replays, and the seeds and lengths a run uses.
// test:dist (in CI) runs long runs on fixed seeds (SIGNALINT_LONG_RUNS=1); a file run by hand without it runs short runs
// on other fixed seeds: CI is the same every time and any failure reproducible. `npm run test:explore` (SIGNALINT_EXPLORE=1, not in CI) draws a
// new seed for a long run and prints it.

/** mulberry32: a small seeded generator, so a seed replays the same draws. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const exploring = process.env.SIGNALINT_EXPLORE === "1";
const long = exploring || process.env.SIGNALINT_LONG_RUNS === "1";

/** What one random test runs: its seeds (each its own test) and the number of random steps per seed. */
export interface RandomRuns {
  seeds: number[];
  steps: number;
}

/**
 * The runs of one random test. `SIGNALINT_<name>_SEED` (comma-separated) and `SIGNALINT_<name>_STEPS` replay a run;
 * otherwise the short or long fixed list, or under test:explore one fresh seed (printed with the line that replays it).
 */
export function randomRuns(name: string, runs: { short: RandomRuns; long: RandomRuns; explore?: RandomRuns }): RandomRuns {
  // test:explore runs deeper than CI's long runs where a test says so (CI keeps its 40 minutes).
  const chosen = exploring ? (runs.explore ?? runs.long) : long ? runs.long : runs.short;
  const steps = Number(process.env[`SIGNALINT_${name}_STEPS`]?.trim() || chosen.steps);
  const given = process.env[`SIGNALINT_${name}_SEED`]?.trim();
  if (given) return { seeds: given.split(",").map((seed) => Number(seed)), steps };
  if (!exploring) return { seeds: [...chosen.seeds], steps };
  const drawn = Math.floor(Math.random() * 2 ** 31);
  // stderr: node:test shows it whichever reporter runs, next to the test that names the seed.
  process.stderr.write(`test:explore drew SIGNALINT_${name}_SEED=${drawn} (replay: SIGNALINT_${name}_SEED=${drawn} SIGNALINT_${name}_STEPS=${steps})\n`);
  return { seeds: [drawn], steps };
}
