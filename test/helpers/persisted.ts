// Persisted TypeScript state (issue 17) as tests damage it: what a restart must detect and never trust.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Damage every persisted TypeScript state file under `cacheBase` one way; returns what was done. */
export function damageState(cacheBase: string, next: () => number): string {
  const files = readdirSync(cacheBase, { recursive: true })
    .map(String)
    .filter((file) => file.endsWith(".state"));
  const how = ["truncated", "a byte flipped", "another Signalint version", "garbage"][Math.floor(next() * 4)] as string;
  for (const file of files) {
    const path = join(cacheBase, file);
    const text = readFileSync(path, "utf8");
    const middle = Math.floor(text.length * 0.75);
    const flipped = `${text.slice(0, middle)}${text[middle] === "1" ? "2" : "1"}${text.slice(middle + 1)}`;
    const foreign = text.replace(/"signalint":"[^"]*"/, '"signalint":"0.0.0-other"');
    writeFileSync(path, how === "truncated" ? text.slice(0, middle) : how === "a byte flipped" ? flipped : how === "garbage" ? "not state\n" : foreign);
  }
  return `persisted state ${how} (${files.length} file(s))`;
}
