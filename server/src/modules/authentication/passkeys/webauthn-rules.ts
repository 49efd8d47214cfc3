import type { Project } from '../../../tenancy/project.ts';
import { isTrustedOrigin } from '../../platform/projects/index.ts';

/** The relying-party id the server sends; the client puts the page's hostname in its place (the Stack SDKs check for it). */
export const relyingPartySentinel = 'THIS_VALUE_WILL_BE_REPLACED.example.com';

/** WebAuthn user handles are 1 to 64 bytes (WebAuthn §5.4.3). */
export const maxUserHandleBytes = 64;

/** The user handle of every passkey of a user: its id in UTF-8 (36 bytes), base64url. */
export function userHandleOf(userId: string): string {
  return Buffer.from(userId, 'utf8').toString('base64url');
}

/** Whether a base64url user handle decodes to 1 to 64 bytes. */
export function isValidUserHandle(userHandle: string): boolean {
  const length = Buffer.from(userHandle, 'base64url').length;
  return length >= 1 && length <= maxUserHandleBytes;
}

/** Whether two base64url strings carry the same bytes. */
export function sameBytes(a: string, b: string): boolean {
  return Buffer.from(a, 'base64url').equals(Buffer.from(b, 'base64url'));
}

/**
 * The origin and relying-party id a ceremony must have used: the page's origin from clientDataJSON,
 * if the project runs there (a trusted domain, or localhost when allowed), and that origin's
 * hostname as rp id, which is what the client put in place of the sentinel. Undefined otherwise.
 */
export function relyingPartyOf(project: Project, clientDataJSON: string): { origin: string; rpId: string } | undefined {
  let origin: unknown;
  try {
    // clientDataJSON is base64url-encoded JSON (what @simplewebauthn's decodeClientDataJSON reads).
    origin = (JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { origin?: unknown }).origin;
  } catch {
    return undefined;
  }
  if (typeof origin !== 'string' || !isTrustedOrigin(project, origin)) return undefined;
  return { origin, rpId: new URL(origin).hostname };
}
