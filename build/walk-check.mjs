// The walk of a check as its next maintainer reads it (issue 32's evidence): from `SignalintService.check`, every call
// whose callee is declared in src/ is followed, depth first, in source order, each function once (the TypeScript
// checker resolves the callee; a call through an interface or a callback has no body to follow and is counted apart).
// Printed: the rooms entered (a folder of src/, a room of src/service/), the calls that cross from one room into
// another, the climbs (such a call into a room on the same or a higher floor: the reader goes back up, which the
// floors forbid), and the reading order's changes of room (returning from a callee counts there). Also the counts of `as unknown as`, bare `catch {}` and `.catch(() =>`
// in src/. Static: no build, nothing runs.
// Usage: node build/walk-check.mjs [--root DIR] [--list]   (DIR: another tree's checkout, e.g. `git archive` of main)
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import ts from "typescript";

const args = process.argv.slice(2);
const at = args.indexOf("--root");
const ROOT = resolve(at >= 0 ? args[at + 1] : join(import.meta.dirname, ".."));
const LIST = args.includes("--list");

/** Floors, lowest first: the layers of src/ (test/core/architecture.test.ts LAYERS) with service's rooms in order (SERVICE_FLOORS). */
const FLOORS = [
  ["core"],
  ["runtime"],
  ["engines"],
  ["typescript"],
  ["service/freshness"],
  ["service/project"],
  ["service/history", "service/job"],
  ["service/lint", "service/tsc"],
  ["service/check"],
  ["service/workflow", "service/report"],
  ["service/fix"],
  ["service"],
  ["daemon"],
  ["client", "mcp"],
  ["cli"],
];

/** The room of a repository path under src/: `service/<room>` inside service, else the top folder. */
function roomOf(file) {
  const parts = relative(join(ROOT, "src"), file).split("/");
  if (parts[0] === "service") return parts.length > 2 ? `service/${parts[1]}` : "service";
  return parts.length > 1 ? parts[0] : "main";
}
const floorOf = (room) => FLOORS.findIndex((floor) => floor.includes(room));

const parsed = ts.getParsedCommandLineOfConfigFile(join(ROOT, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
const program = ts.createProgram({ rootNames: [join(ROOT, "src", "service", "signalint.ts")], options: parsed?.options ?? {} });
const checker = program.getTypeChecker();
const inSrc = (file) => file.startsWith(join(ROOT, "src") + "/");

/** The declaration with a body a call reaches: a function, method, constructor, or a variable holding a function. */
function bodiesOf(node) {
  let symbol = checker.getSymbolAtLocation(ts.isPropertyAccessExpression(node) ? node.name : node);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  const found = [];
  for (const declaration of symbol?.declarations ?? []) {
    if (!inSrc(declaration.getSourceFile().fileName)) continue;
    if (ts.isClassDeclaration(declaration)) {
      const constructor = declaration.members.find(ts.isConstructorDeclaration);
      if (constructor?.body) found.push(constructor);
    } else if (
      (ts.isFunctionLike(declaration) && declaration.body) ||
      (ts.isVariableDeclaration(declaration) && declaration.initializer && ts.isFunctionLike(declaration.initializer))
    )
      found.push(ts.isVariableDeclaration(declaration) ? declaration.initializer : declaration);
    else if (ts.isPropertyDeclaration(declaration) && declaration.initializer && ts.isFunctionLike(declaration.initializer))
      found.push(declaration.initializer);
  }
  return { symbol, found };
}

const visited = new Set();
const walk = [];
let unfollowed = 0;
/** Calls between functions of different rooms, once per caller and callee: `caller room > callee room`. */
const crossings = new Map();

function visit(fn, name) {
  if (visited.has(fn)) return;
  visited.add(fn);
  const room = roomOf(fn.getSourceFile().fileName);
  walk.push({ room, name, file: relative(ROOT, fn.getSourceFile().fileName) });
  const calls = (node) => {
    if ((ts.isCallExpression(node) || ts.isNewExpression(node)) && node.expression) {
      const { symbol, found } = bodiesOf(node.expression);
      if (found.length === 0 && symbol?.declarations?.some((declaration) => inSrc(declaration.getSourceFile().fileName))) unfollowed++;
      // The arguments are read before the call is followed (they are evaluated first).
      ts.forEachChild(node, calls);
      for (const body of found) {
        const other = roomOf(body.getSourceFile().fileName);
        if (other !== room) crossings.set(`${fn.pos}:${fn.getSourceFile().fileName}>${body.pos}:${body.getSourceFile().fileName}`, `${room} > ${other}`);
        visit(body, symbol?.getName() ?? "?");
      }
      return;
    }
    ts.forEachChild(node, calls);
  };
  if (fn.body) ts.forEachChild(fn.body, calls);
}

const service = program.getSourceFile(join(ROOT, "src", "service", "signalint.ts"));
let start = null;
ts.forEachChild(service, function find(node) {
  if (ts.isMethodDeclaration(node) && node.name.getText() === "check" && ts.isClassDeclaration(node.parent) && node.parent.name?.text === "SignalintService")
    start = node;
  else ts.forEachChild(node, find);
});
if (!start) throw new Error("SignalintService.check not found");
visit(start, "SignalintService.check");

const rooms = walk.map((step) => step.room).filter((room, index, all) => index === 0 || room !== all[index - 1]);
let returns = 0;
for (let index = 1; index < rooms.length; index++) if (floorOf(rooms[index]) > floorOf(rooms[index - 1])) returns++;
/** Distinct room-to-room calls, and those that go up a floor (or sideways, to another room of the same floor). */
const edges = new Set(crossings.values());
const up = [...edges].filter((edge) => {
  const [from, to] = edge.split(" > ");
  return floorOf(to) >= floorOf(from);
});

/** Occurrences of a pattern in every .ts file under src/. */
function count(pattern) {
  let total = 0;
  for (const name of readdirSync(join(ROOT, "src"), { recursive: true })) {
    if (!String(name).endsWith(".ts")) continue;
    total += (readFileSync(join(ROOT, "src", String(name)), "utf8").match(pattern) ?? []).length;
  }
  return total;
}

if (LIST) for (const step of walk) console.log(`${step.room.padEnd(18)} ${step.name} (${step.file})`);
console.log(`functions read: ${walk.length} (calls with no body to follow: ${unfollowed})`);
console.log(`rooms entered: ${new Set(rooms).size} (${[...new Set(rooms)].join(", ")})`);
console.log(`calls from one room into another: ${crossings.size}, as ${edges.size} distinct room-to-room arrows`);
console.log(`climbs (a call into a room on the same or a higher floor): ${up.length}${up.length ? ` (${up.join("; ")})` : ""}`);
console.log(`reading order: ${rooms.length - 1} changes of room, ${returns} of them back up a floor (returning from a callee)`);
if (LIST) console.log(`room sequence: ${rooms.join(" > ")}`);
console.log(`as unknown as: ${count(/as unknown as/g)}; bare catch {}: ${count(/\bcatch \{/g)}; .catch(() =>: ${count(/\.catch\(\s*\(\s*\)\s*=>/g)}`);
