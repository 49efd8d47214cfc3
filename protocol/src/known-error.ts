/** The wire form of a catalogued error (docs/protocol/overview.md §7). */
export type KnownErrorBody = { code: string; error: string; details?: unknown };

/**
 * Base of every catalogued error. The generated subclasses fix `code`, `status` and the type of
 * `details`; the server throws them and the client rebuilds them from a response.
 */
export class KnownError extends Error {
  readonly code: string;
  readonly status: number;
  readonly details: unknown;

  constructor(code: string, status: number, message: string, details: unknown) {
    super(message);
    this.name = new.target.name;
    this.code = code;
    this.status = status;
    this.details = details;
  }

  /** `details` is left out when the error has none, as the protocol requires. */
  toBody(): KnownErrorBody {
    return this.details === undefined
      ? { code: this.code, error: this.message }
      : { code: this.code, error: this.message, details: this.details };
  }
}
