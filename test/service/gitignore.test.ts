// The files a repository's .gitignore files ignore, as git itself says (`git check-ignore`): nested files, negation,
// anchored and directory-only patterns, a parent directory's exclusion, a package checked below the repository's top.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { after, it } from "node:test";
import { createNodeRuntime } from "../../src/runtime/node.ts";
import { gitignoredFiles } from "../../src/service/project/gitignore.ts";
import { removeDir, tempDir } from "../helpers.ts";

const dirs: string[] = [];
after(() => dirs.forEach(removeDir));

function write(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

/** What git ignores of `paths` (relative to the repository), with no user or system excludes. */
function gitIgnored(repo: string, paths: string[]): string[] {
  const result = spawnSync("git", ["check-ignore", "--no-index", "--stdin"], {
    cwd: repo,
    input: `${paths.join("\n")}\n`,
    encoding: "utf8",
    env: { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1", HOME: repo },
  });
  assert.ok(result.status === 0 || result.status === 1, result.stderr);
  return result.stdout.split("\n").filter(Boolean).sort();
}

const SOURCES = [
  "src/a.js",
  "src/gen/b.js",
  "src/gen/keep.js",
  "dist/c.js",
  "distribution/index.js",
  "packages/p/build/d.js",
  "packages/p/src/e.js",
  "packages/p/src/e.generated.js",
  "packages/p/lib/f.js",
  "packages/p/lib/keep.js",
  "packages/q/out/g.js",
  "docs/h.js",
  "docs/sub/i.js",
  "#hash.js",
  "space .js",
];

const IGNORES = {
  ".gitignore": "# outputs\ndist/\n/distribution\n*.generated.js\nsrc/gen/*\n!src/gen/keep.js\n\\#hash.js\nspace\\ .js\n",
  "packages/p/.gitignore": "build\n/lib/\n!keep.js\n",
  "packages/q/.gitignore": "out/   \n",
  "docs/.gitignore": "sub/\n!sub/i.js\n",
};

it("agrees with git check-ignore on nested .gitignore files, checked from the repository's top and from a package", async () => {
  const repo = tempDir("signalint-gitignore-");
  dirs.push(repo);
  spawnSync("git", ["init", "-q"], { cwd: repo });
  write(repo, Object.fromEntries(SOURCES.map((path) => [path, "export {};\n"])));
  write(repo, IGNORES);
  const runtime = createNodeRuntime();
  const expected = gitIgnored(repo, SOURCES);
  // The oracle sees what the cases are about (or the comparison would prove little).
  assert.ok(expected.includes("distribution/index.js") && expected.includes("packages/p/lib/keep.js") && !expected.includes("src/gen/keep.js"));
  const ignored = await gitignoredFiles(
    runtime,
    repo,
    SOURCES.map((path) => join(repo, path)),
  );
  assert.deepEqual([...ignored].map((file) => relative(repo, file)).sort(), expected);
  // A package checked as its own root still reads the repository's .gitignore above it.
  const pkg = join(repo, "packages", "p");
  const inPackage = SOURCES.filter((path) => path.startsWith("packages/p/"));
  const fromPackage = await gitignoredFiles(
    runtime,
    pkg,
    inPackage.map((path) => join(repo, path)),
  );
  assert.deepEqual(
    [...fromPackage].map((file) => relative(repo, file)).sort(),
    expected.filter((path) => path.startsWith("packages/p/")),
  );
});

it("outside a repository only the .gitignore files from the root down apply", async () => {
  const parent = tempDir("signalint-gitignore-norepo-");
  dirs.push(parent);
  write(parent, { ".gitignore": "*.js\n", "root/.gitignore": "out/\n", "root/out/a.js": "", "root/src/b.js": "" });
  const root = join(parent, "root");
  const ignored = await gitignoredFiles(createNodeRuntime(), root, [join(root, "out", "a.js"), join(root, "src", "b.js")]);
  assert.deepEqual([...ignored], [join(root, "out", "a.js")]);
});
