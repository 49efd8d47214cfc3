/**
 * A real ES256-signed JWT expiring at `exp` (ms since the epoch). Signed with WebCrypto because
 * `jose` is not a dependency of the client; the client only ever decodes the payload.
 */
export async function testJwt(expiresAtMs: number, claims: Record<string, unknown> = {}): Promise<string> {
  const keys = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign']);
  const encode = (value: unknown) => base64url(new TextEncoder().encode(JSON.stringify(value)));
  const header = encode({ alg: 'ES256', kid: 'test', typ: 'JWT' });
  const payload = encode({ sub: 'user', iat: Math.floor(Date.now() / 1000), exp: Math.floor(expiresAtMs / 1000), ...claims });
  const signature = await crypto.subtle.sign(
    { name: 'ECDSA', hash: 'SHA-256' },
    keys.privateKey,
    new TextEncoder().encode(`${header}.${payload}`),
  );
  return `${header}.${payload}.${base64url(new Uint8Array(signature))}`;
}

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}
