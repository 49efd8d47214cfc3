/**
 * With `x-stack-override-error-status` the server answers 4xx as 200 and puts the real status in
 * `x-stack-actual-status` (docs/protocol/overview.md §7); newer servers also send the `x-hexclave-*` twin.
 */
export function actualStatus(response: Response): number {
  const header = response.headers.get('x-stack-actual-status') ?? response.headers.get('x-hexclave-actual-status');
  return header === null ? response.status : Number(header);
}

/** The catalogue code a known-error answer names in its header, if any. */
export function knownErrorCode(response: Response): string | undefined {
  return response.headers.get('x-stack-known-error') ?? response.headers.get('x-hexclave-known-error') ?? undefined;
}
