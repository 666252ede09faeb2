/** The order of two semver versions (negative: `a` is older, 0: the same, positive: `a` is newer); build metadata ignored. */
export function compareVersions(a: string, b: string): number {
  const [coreA, preA] = splitVersion(a);
  const [coreB, preB] = splitVersion(b);
  for (let i = 0; i < 3; i++) {
    const diff = (coreA[i] ?? 0) - (coreB[i] ?? 0);
    if (diff !== 0) return Math.sign(diff);
  }
  // A release is newer than any of its pre-releases (1.0.0-rc.1 < 1.0.0).
  if (preA.length === 0 || preB.length === 0) return preA.length === preB.length ? 0 : preA.length === 0 ? 1 : -1;
  for (let i = 0; i < Math.max(preA.length, preB.length); i++) {
    const diff = comparePart(preA[i], preB[i]);
    if (diff !== 0) return diff;
  }
  return 0;
}

function splitVersion(version: string): [number[], string[]] {
  const [main = "", ...rest] = version.trim().replace(/^v/, "").split("+")[0]!.split("-");
  const core = main.split(".").map((part) => Number.parseInt(part, 10) || 0);
  const pre = rest.join("-");
  return [core, pre ? pre.split(".") : []];
}

/** Pre-release identifiers: numbers below words, numbers by value, words by ASCII; fewer identifiers first. */
function comparePart(a: string | undefined, b: string | undefined): number {
  if (a === undefined || b === undefined) return a === b ? 0 : a === undefined ? -1 : 1;
  const [numA, numB] = [/^\d+$/.test(a), /^\d+$/.test(b)];
  if (numA && numB) return Math.sign(Number(a) - Number(b));
  if (numA !== numB) return numA ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
