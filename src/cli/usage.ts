import { SignalintError } from "../core/errors.ts";

/** Thrown for bad command lines; exit code 2. */
export class UsageError extends SignalintError {
  constructor(message: string) {
    super("usage", message);
  }
}
