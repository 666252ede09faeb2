// Seeded randomness for the random tests: a generator that a seed replays, and the seeds (and step counts) a run
// uses. CI and `npm test` run a fixed seed list, so every run is the same and any failure reproducible;
// `npm run test:explore` (SIGNALINT_EXPLORE=1) draws new seeds, longer runs, and prints each seed.

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

/**
 * The seeds of one random test: those in `variable` (comma-separated: replay a run), else a fresh one under
 * test:explore (printed, with the line that replays it), else `fixed`.
 */
export function seedsFor(variable: string, fixed: readonly number[]): number[] {
  const given = process.env[variable]?.trim();
  if (given) return given.split(",").map((seed) => Number(seed));
  if (!exploring) return [...fixed];
  const drawn = Math.floor(Math.random() * 2 ** 31);
  // stderr: node:test passes it through to the terminal whichever reporter runs.
  process.stderr.write(`explore: ${variable}=${drawn} (replay with that variable set)\n`);
  return [drawn];
}

/** Steps of one random test: `variable` when set, else `explore` under test:explore, else `fixed`. */
export function stepsFor(variable: string, counts: { fixed: number; explore: number }): number {
  const given = process.env[variable]?.trim();
  if (given) return Number(given);
  return exploring ? counts.explore : counts.fixed;
}
