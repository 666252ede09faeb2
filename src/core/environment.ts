// Which of a caller's environment variables can change an answer (DESIGN §2, trust boundary: each client's own
// environment). Engines run with the caller's whole environment; what is kept between checks is keyed by these
// fingerprints, so two shells get their own answers and neither evicts the other's state for noise.

/** Variables that describe a terminal or a login session, never what an engine reads to decide an answer. */
const NOISE = new Set([
  "_",
  "PWD",
  "OLDPWD",
  "SHLVL",
  "TERM",
  "TERM_PROGRAM",
  "TERM_PROGRAM_VERSION",
  "TERM_SESSION_ID",
  "COLORTERM",
  "COLUMNS",
  "LINES",
  "WINDOWID",
  "DISPLAY",
  "WAYLAND_DISPLAY",
  "TMUX",
  "TMUX_PANE",
  "STY",
  "PS1",
  "PS2",
  "PROMPT_COMMAND",
  "HISTFILE",
  "HISTSIZE",
  "HISTFILESIZE",
  "HISTCONTROL",
  "LS_COLORS",
  "LSCOLORS",
  "MAIL",
  "GPG_TTY",
  "DBUS_SESSION_BUS_ADDRESS",
  "SECURITYSESSIONID",
  "EDITOR",
  "VISUAL",
  "PAGER",
  "LESS",
  "LESSOPEN",
  "LESSCLOSE",
  // Which project, daemon and state a client reaches (the daemon is already theirs), and how a shell presents answers.
  "SIGNALINT_PROJECT_ROOT",
  "SIGNALINT_STATE_DIR",
  "SIGNALINT_CACHE_DIR",
  "SIGNALINT_DAEMON",
  "SIGNALINT_MCP_PAYLOAD",
  "SIGNALINT_COMPACT",
  "SIGNALINT_STRUCTURED_MAX_BYTES",
]);
const NOISE_PREFIXES = ["SSH_", "XDG_SESSION_", "__CF", "Apple_", "ITERM_", "KONSOLE_", "VTE_", "WT_"];

/**
 * What the toolchain of a warm TypeScript program reads from the environment (the rest cannot change its answer).
 * Not PATH: which compiler answers is resolved in the caller's environment, and warm programs are keyed by it.
 */
const TOOLCHAIN = new Set(["NODE_OPTIONS", "NODE_PATH"]);
const TOOLCHAIN_PREFIXES = ["TSC_", "TS_", "SIGNALINT_"];

const noise = (name: string) => NOISE.has(name) || NOISE_PREFIXES.some((prefix) => name.startsWith(prefix));

function fingerprintOf(env: Readonly<Record<string, string>>, keep: (name: string) => boolean, hash: (text: string) => string): string {
  const lines = Object.keys(env)
    .filter(keep)
    .sort()
    .map((name) => `${name}=${env[name]}`);
  return hash(lines.join("\0")).slice(0, 16);
}

/**
 * Everything but terminal and session noise: what a linter's JavaScript config may read (a `LINT_STRICT` variable),
 * so lint results and quiet answers are kept per fingerprint.
 */
export function environmentFingerprint(env: Readonly<Record<string, string>>, hash: (text: string) => string): string {
  return fingerprintOf(env, (name) => !noise(name), hash);
}

/** What a warm TypeScript program depends on: NODE_OPTIONS, NODE_PATH, TSC_* / TS_* and Signalint's own switches. */
export function toolchainFingerprint(env: Readonly<Record<string, string>>, hash: (text: string) => string): string {
  return fingerprintOf(env, (name) => !noise(name) && (TOOLCHAIN.has(name) || TOOLCHAIN_PREFIXES.some((prefix) => name.startsWith(prefix))), hash);
}

/**
 * The variables to give a child so that it sees `caller`'s environment exactly, as an overlay on `own` (the
 * spawning process's): every variable of the caller, and every one of `own` the caller lacks removed.
 */
export function callerOverlay(own: Readonly<Record<string, string>>, caller: Readonly<Record<string, string>>): Record<string, string | undefined> {
  const overlay: Record<string, string | undefined> = {};
  for (const name of Object.keys(own)) if (!(name in caller)) overlay[name] = undefined;
  return Object.assign(overlay, caller);
}
