import { describe, expect, it } from 'vitest';
import { PasskeyWebauthnError } from '../errors.ts';
import { browserPasskeyCeremonies } from './passkey-ceremonies.ts';

/** Node has no WebAuthn, like an old browser: the ceremonies refuse in the protocol's words. */
describe('browser passkey ceremonies without WebAuthn', () => {
  it.each(['create', 'get'] as const)(
    '%s fails with PASSKEY_WEBAUTHN_ERROR "WebAuthn is not supported in this browser"',
    async (ceremony) => {
      expect(typeof globalThis.PublicKeyCredential).toBe('undefined');
      const options = { challenge: 'AAAA', rp: { name: 'x' }, user: { id: 'AAAA', name: 'u', displayName: 'u' }, pubKeyCredParams: [] };
      const error = await (browserPasskeyCeremonies[ceremony] as (options: unknown) => Promise<unknown>)(options).catch(
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(PasskeyWebauthnError);
      expect((error as PasskeyWebauthnError).message).toBe('WebAuthn is not supported in this browser');
      expect((error as PasskeyWebauthnError).details).toEqual({
        message: 'WebAuthn is not supported in this browser',
        code: 'NOT_SUPPORTED',
      });
    },
  );
});
