/**
 * When a JWT expires, in ms since the epoch, read from its `exp` without verifying the signature:
 * the client only needs to know when to refresh; the server verifies. Undefined when unreadable.
 */
export function accessTokenExpiresAt(token: string): number | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const binary = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const claims: unknown = JSON.parse(new TextDecoder().decode(Uint8Array.from(binary, (char) => char.charCodeAt(0))));
    const exp = (claims as { exp?: unknown } | null)?.exp;
    return typeof exp === 'number' ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

/** True when the token is readable and still valid `marginMs` from now. */
export function isValidFor(token: string, marginMs: number, now = Date.now()): boolean {
  const expiresAt = accessTokenExpiresAt(token);
  return expiresAt !== undefined && expiresAt - now > marginMs;
}
