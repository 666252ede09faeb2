// A local stand-in for a GitHub release: build/release-assets.mjs run on chosen binaries, served over loopback HTTP.
import { execFileSync, type SpawnOptions, spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { basename, join } from "node:path";
import { REPO, SINGLE_BUNDLE, tempDir } from "../helpers.ts";

export const HOST = `${process.platform === "win32" ? "win" : process.platform}-${process.arch}`;
export const HOST_ASSET = `signalint-mcp-${HOST}${process.platform === "win32" ? ".exe" : ""}`;
export const HOST_BINARY = join(REPO, "dist", "bin", HOST_ASSET);

/** The GitHub repository package.json names (`github:owner/name`), and its release download URLs. */
export function repository(): { slug: string; releases: string; latest: string } {
  const { repository } = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { repository: string };
  const slug = /^github:([\w.-]+\/[\w.-]+)$/.exec(repository)?.[1];
  if (!slug) throw new Error(`package.json repository is not github:owner/name: ${repository}`);
  const releases = `https://github.com/${slug}/releases`;
  return { slug, releases, latest: `${releases}/latest/download` };
}

/** A release directory made by build/release-assets.mjs from `assets` (asset name → file to ship under it). */
export function makeRelease(assets: Record<string, string>): string {
  const dir = tempDir("signalint-release-");
  const bin = join(dir, "bin");
  mkdirSync(bin);
  for (const [name, file] of Object.entries(assets)) {
    if (!existsSync(file)) throw new Error(`${file} is built by pretest (build-binaries --targets=host)`);
    copyFileSync(file, join(bin, name));
  }
  execFileSync(process.execPath, [join(REPO, "build", "release-assets.mjs"), `--bin=${bin}`, `--bundle=${SINGLE_BUNDLE}`, `--out=${join(dir, "release")}`], {
    stdio: "ignore",
  });
  return join(dir, "release");
}

export interface Served {
  server: Server;
  /** http://127.0.0.1:port */
  origin: string;
  /** Every path requested, in order. */
  requested: string[];
  /** Asset names served with one byte flipped. */
  tampered: Set<string>;
}

/** Serve a release directory: any path whose last segment names an asset gets that asset. */
export async function serveRelease(dir: string): Promise<Served> {
  const requested: string[] = [];
  const tampered = new Set<string>();
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    requested.push(path);
    const file = join(dir, basename(path));
    if (!existsSync(file) || basename(path) === "") return void response.writeHead(404).end();
    const body = readFileSync(file);
    if (tampered.has(basename(path))) body.writeUInt8(body.readUInt8(body.length >> 1) ^ 0xff, body.length >> 1);
    response.writeHead(200, { "content-type": "application/octet-stream" }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requested, tampered };
}

/** Run a command without blocking this process's event loop (the release server answers from it). */
export function run(command: string, args: string[], options: SpawnOptions): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}
