/** A domain error with a machine-readable code; the MCP layer turns it into an isError result with _meta.code. */
export class SignalintError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = "SignalintError";
    this.code = code;
  }
}

/** Bad tool arguments or a refused path. */
export class InvalidArgumentsError extends SignalintError {
  constructor(message: string, code = "invalid_arguments") {
    super(code, message);
    this.name = "InvalidArgumentsError";
  }
}

/** An invalid signalint.config.json or environment value. */
export class ConfigError extends SignalintError {
  constructor(message: string) {
    super("invalid_config", message);
    this.name = "ConfigError";
  }
}
