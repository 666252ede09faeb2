/**
 * The source of a small CommonJS launcher that runs the project's own `tsc -b <its tsconfig>` (TypeScript 5.x/6.x, whose
 * compiler is JavaScript) with one difference: every output path of the build's projects (declarations, JavaScript,
 * maps, build info) lives in a directory outside the project tree. Reads of those paths are served from there (a path
 * not built there yet does not exist, so no earlier build's `dist` or `.tsbuildinfo` in the tree is read), and every
 * write goes there. Configs, file lists, type and module resolution and messages are the user's own: the program is
 * the one `tsc -b` builds, only the file system under its outputs differs. Arguments: the compiler module
 * (lib/typescript.js), the overlay directory, the tsconfig, then tsc's own arguments.
 */
export const TSC_OVERLAY_LAUNCHER = `"use strict";
// Written by Signalint: the project's own tsc -b, its outputs moved outside the project tree (see tsc-overlay.ts).
const fs = require("fs");
const path = require("path");
const proc = require("node:process");
const [typescript, overlay, config, ...args] = proc.argv.slice(2);
const ts = require(typescript);
const sys = ts.sys;
const key = (file) => (sys.useCaseSensitiveFileNames ? path.resolve(file) : path.resolve(file).toLowerCase());
const outputs = new Set();
// A project's own input is never one of its outputs: tsc refuses to write over it (TS5055, an allowJs project without
// an outDir) and reads the source.
const inputs = new Set();
const seen = new Set();
const parseHost = { ...sys, onUnRecoverableConfigFileDiagnostic() {} };
const visit = (file) => {
  if (seen.has(key(file))) return;
  seen.add(key(file));
  let parsed;
  try {
    parsed = ts.getParsedCommandLineOfConfigFile(file, undefined, parseHost);
  } catch {
    // A config the compiler cannot parse: tsc reports it when it runs.
    parsed = undefined;
  }
  if (!parsed) return;
  for (const output of ts.getAllProjectOutputs(parsed, !sys.useCaseSensitiveFileNames)) outputs.add(key(output));
  for (const input of parsed.fileNames) inputs.add(key(input));
  for (const reference of parsed.projectReferences || []) visit(ts.resolveProjectReferencePath(reference));
};
visit(config);
for (const input of inputs) outputs.delete(input);
const written = new Set();
const moved = (file) => path.join(overlay, path.resolve(file).replace(/^([A-Za-z]):/, "$1"));
const isOutput = (file) => outputs.has(key(file)) || written.has(key(file));
let counter = 0;
const overlaid = {
  ...sys,
  writeFile(file, data, writeByteOrderMark) {
    const target = moved(file);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    const temporary = target + ".tmp-" + proc.pid + "-" + counter++;
    fs.writeFileSync(temporary, (writeByteOrderMark ? "\\uFEFF" : "") + data);
    fs.renameSync(temporary, target);
    written.add(key(file));
  },
  readFile: (file, encoding) => (isOutput(file) ? sys.readFile(moved(file), encoding) : sys.readFile(file, encoding)),
  fileExists: (file) => (isOutput(file) ? sys.fileExists(moved(file)) : sys.fileExists(file)),
  getModifiedTime: (file) => (isOutput(file) ? sys.getModifiedTime(moved(file)) : sys.getModifiedTime(file)),
  setModifiedTime(file, time) {
    if (isOutput(file) && sys.fileExists(moved(file))) sys.setModifiedTime(moved(file), time);
  },
  deleteFile(file) {
    if (sys.fileExists(moved(file))) sys.deleteFile(moved(file));
  },
  // Module resolution asks whether a directory exists before probing its files (a package's own exports into its
  // build output): an output directory built only here exists.
  directoryExists: (directory) => sys.directoryExists(directory) || sys.directoryExists(moved(directory)),
  createDirectory(directory) {
    fs.mkdirSync(moved(directory), { recursive: true });
  },
};
ts.executeCommandLine(overlaid, () => {}, args);
`;
