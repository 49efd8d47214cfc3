/** The server could not be reached (network failure, DNS, refused connection), as opposed to an error answer. */
export class ConnectionError extends Error {
  constructor(
    message: string,
    readonly url: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ConnectionError';
  }
}

/** Words the two usual causes apart, so an offline user is not told the server is down. */
export function connectionErrorFor(url: string, cause: unknown): ConnectionError {
  const offline = typeof navigator !== 'undefined' && navigator.onLine === false;
  const message = offline
    ? 'You are offline. Please check your internet connection and try again.'
    : `Cannot connect to the server at ${new URL(url).origin}. Check that it is running and reachable.`;
  return new ConnectionError(message, url, { cause });
}
