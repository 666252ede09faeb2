// Signalint re-run as a long-lived child of itself (the warm TypeScript host) under Deno.
import type { ProcessGroups } from "./process-groups.ts";
import type { SelfChannel, SelfProcess } from "./types.ts";

// deno-lint-ignore no-explicit-any
declare const Deno: any;

/** Deno's permission names whose grant the child inherits as `--allow-<name>` (only whole grants are passed on). */
const PERMISSIONS = ["read", "write", "run", "env", "net", "sys", "ffi", "import"];

/** The `--allow-*` flags for the permissions this process holds (a re-run of Signalint gets the same). */
export function grantedFlags(): string[] {
  const flags: string[] = [];
  for (const name of PERMISSIONS) {
    try {
      if (Deno.permissions.querySync({ name }).state === "granted") flags.push(`--allow-${name}`);
    } catch {
      // A permission this Deno does not know.
    }
  }
  return flags;
}

/**
 * Start this bundle again under the same Deno with `mode` as its only argument and the permissions this process
 * holds; no config or lock file is looked for (the bundle imports nothing but node: builtins).
 */
export function spawnSelfDeno(mode: string, cwd: string, groups: ProcessGroups, killGroup: (pgid: number) => void): SelfProcess {
  const args = ["run", ...grantedFlags(), "--no-prompt", "--no-lock", Deno.mainModule, mode];
  return startProcessDeno(Deno.execPath(), args, { cwd, stderr: "inherit" }, groups, killGroup);
}

/** Start `command` as a long-lived child exchanging bytes over stdin/stdout (env: the whole environment it gets). */
export function startProcessDeno(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string>; stderr: "inherit" | "null" },
  groups: ProcessGroups,
  killGroup: (pgid: number) => void,
): SelfProcess {
  const listeners: ((chunk: Uint8Array) => void)[] = [];
  let alive = false;
  // deno-lint-ignore no-explicit-any
  let child: any = null;
  try {
    child = new Deno.Command(command, {
      args: [...args],
      cwd: options.cwd,
      ...(options.env ? { env: options.env, clearEnv: true } : {}),
      stdin: "piped",
      stdout: "piped",
      stderr: options.stderr,
      detached: Deno.build.os !== "windows",
    }).spawn();
    alive = true;
  } catch {
    // Reported as a process that exited at once.
  }
  const pid: number | undefined = child?.pid;
  if (pid !== undefined) groups.add(pid);
  const exited: Promise<void> = child
    ? child.status.then(
        () => undefined,
        () => undefined,
      )
    : Promise.resolve();
  exited.then(() => {
    alive = false;
    // Whatever it started (a tsgo server) is in its group: gone with it, however it ended.
    if (pid !== undefined) killGroup(pid);
    if (pid !== undefined) groups.delete(pid);
  });
  if (child) {
    child.stdout
      .pipeTo(new WritableStream({ write: (chunk: Uint8Array) => listeners.forEach((listener) => listener(chunk)) }))
      // The child's stdout closed with the child: its exit is reported through its status.
      .catch(() => {});
  }
  const writer = child?.stdin.getWriter();
  return {
    pid,
    send: (bytes) => {
      // A write to a child that died: its exit is reported through its status.
      if (alive) writer.write(bytes).catch(() => {});
      return alive;
    },
    onData: (listener) => void listeners.push(listener),
    exited,
    kill: () => {
      if (alive && pid !== undefined) killGroup(pid);
    },
    hold: (held) => {
      if (alive) held ? child.ref() : child.unref();
    },
  };
}

/**
 * The child's end: stdin bytes in, stdout bytes out. The channel takes stdout for itself: console output and writes
 * to Node's process.stdout go to stderr, never between its messages.
 */
export function selfChannelDeno(): SelfChannel {
  console.log = console.info = console.debug = console.error;
  const node = (globalThis as { process?: { stdout?: { write: unknown }; stderr?: { write: (...args: unknown[]) => unknown } } }).process;
  if (node?.stdout && node.stderr) node.stdout.write = node.stderr.write.bind(node.stderr);
  return {
    listen: (onData, onEnd) => {
      Deno.stdin.readable.pipeTo(new WritableStream({ write: (chunk: Uint8Array) => onData(chunk) })).then(onEnd, onEnd);
    },
    send: (bytes) => {
      for (let offset = 0; offset < bytes.length; ) offset += Deno.stdout.writeSync(bytes.subarray(offset));
      return Promise.resolve();
    },
  };
}
