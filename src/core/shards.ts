/** One unit of sharded work: a package or tsconfig project (or the files outside every one), as check paths. */
export interface ShardUnit {
  /** The unit's root directory ("." for the files outside every package). */
  root: string;
  /** Check paths covering exactly the unit's files (whole directories where no other unit lies below). */
  paths: string[];
  /** How many files the unit has: the load measure. */
  weight: number;
}

/** Files listed one by one (when their directory cannot be named whole) are those the engines look at. */
const LINTED = /\.(?:[cm]?[jt]sx?|json|jsonc|json5|vue|svelte|astro)$/;

interface Node {
  files: string[];
  dirs: Map<string, Node>;
  /** Unit roots strictly below this directory. */
  unitsBelow: number;
}

function buildTree(files: readonly string[], unitRoots: ReadonlySet<string>): Node {
  const root: Node = { files: [], dirs: new Map(), unitsBelow: 0 };
  for (const file of files) {
    const segments = file.split("/");
    const name = segments.pop() as string;
    let node = root;
    for (const segment of segments) {
      let next = node.dirs.get(segment);
      if (!next) node.dirs.set(segment, (next = { files: [], dirs: new Map(), unitsBelow: 0 }));
      node = next;
    }
    node.files.push(name);
  }
  const count = (node: Node, path: string): number => {
    let below = 0;
    for (const [name, child] of node.dirs) {
      const childPath = path === "." ? name : `${path}/${name}`;
      below += count(child, childPath) + (unitRoots.has(childPath) ? 1 : 0);
    }
    node.unitsBelow = below;
    return below;
  };
  count(root, ".");
  return root;
}

function fileCount(node: Node): number {
  let total = node.files.length;
  for (const child of node.dirs.values()) total += fileCount(child);
  return total;
}

/** The paths covering a unit's own files: `node` at `path`, minus the other units below it. */
function cover(node: Node, path: string, unitRoots: ReadonlySet<string>): { paths: string[]; weight: number } {
  if (node.unitsBelow === 0) return { paths: [path], weight: fileCount(node) };
  const join = (name: string) => (path === "." ? name : `${path}/${name}`);
  const paths = node.files.filter((name) => LINTED.test(name)).map(join);
  let weight = node.files.length;
  for (const [name, child] of [...node.dirs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (unitRoots.has(join(name))) continue;
    const inner = cover(child, join(name), unitRoots);
    paths.push(...inner.paths);
    weight += inner.weight;
  }
  return { paths, weight };
}

/**
 * Split a project's files (project-relative POSIX paths) into units: one per unit root (a directory with a
 * package.json or tsconfig.json), each covering the files nearest to it, plus "." for the rest. Every file is in
 * exactly one unit, so checking every unit covers the project once.
 */
export function shardUnits(files: readonly string[], unitRoots: ReadonlySet<string>): ShardUnit[] {
  const tree = buildTree(files, unitRoots);
  const roots = [".", ...[...unitRoots].filter((root) => root !== ".").sort()];
  const units: ShardUnit[] = [];
  for (const root of roots) {
    let node: Node | undefined = tree;
    if (root !== ".") for (const segment of root.split("/")) node = node?.dirs.get(segment);
    if (!node) continue;
    const { paths, weight } = cover(node, root, unitRoots);
    if (paths.length) units.push({ root, paths, weight });
  }
  return units;
}

/**
 * Assign units to `count` shards, heaviest first to the least loaded shard (ties: the lower shard), so every runner of
 * a CI matrix computes the same split. Returns the units of shard `index` (1-based).
 */
export function unitsOfShard(units: readonly ShardUnit[], index: number, count: number): ShardUnit[] {
  const loads = new Array<number>(count).fill(0);
  const mine: ShardUnit[] = [];
  const ordered = [...units].sort((a, b) => b.weight - a.weight || (a.root < b.root ? -1 : a.root > b.root ? 1 : 0));
  for (const unit of ordered) {
    const target = loads.indexOf(Math.min(...loads));
    loads[target] = (loads[target] as number) + unit.weight;
    if (target === index - 1) mine.push(unit);
  }
  return mine;
}

/** Parse "i/n" (1 ≤ i ≤ n); null when malformed. */
export function parseShard(text: string): { index: number; count: number } | null {
  const match = /^(\d{1,4})\/(\d{1,4})$/.exec(text);
  if (!match) return null;
  const index = Number(match[1]);
  const count = Number(match[2]);
  return index >= 1 && count >= 1 && index <= count ? { index, count } : null;
}
