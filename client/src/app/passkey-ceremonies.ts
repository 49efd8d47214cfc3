import { PasskeyWebauthnError } from '@gatehouse/protocol/errors';
import type { components } from '@gatehouse/protocol/api-types';

type Schemas = components['schemas'];
export type PasskeyCreationOptions = Schemas['PasskeyCreationOptions'];
export type PasskeyRequestOptions = Schemas['PasskeyRequestOptions'];
export type PasskeyRegistrationResponse = Schemas['PasskeyRegistrationResponse'];
export type PasskeyAuthenticationResponse = Schemas['PasskeyAuthenticationResponse'];

/**
 * The two WebAuthn ceremonies in their JSON forms. The default uses the browser's
 * `navigator.credentials`; pass your own for React Native, `@simplewebauthn/browser`, or tests.
 * The options arrive with the relying-party id already set.
 */
export type PasskeyCeremonies = {
  create(options: Omit<PasskeyCreationOptions, 'rp'> & { rp: { name: string; id: string } }): Promise<PasskeyRegistrationResponse>;
  get(options: Omit<PasskeyRequestOptions, 'rpId'> & { rpId: string }): Promise<PasskeyAuthenticationResponse>;
};

/** The server leaves the relying-party id to the client (a placeholder); by default it is the page's hostname. */
export function relyingPartyId(configured: string | undefined): string {
  if (configured) return configured;
  if (typeof location === 'undefined') throw new Error('Passkeys need the relying-party id (the `passkeyRpId` option) outside a browser.');
  return location.hostname;
}

/** WebAuthn Level 3's JSON helpers (current Chrome, Edge, Firefox and Safari). */
export const browserPasskeyCeremonies: PasskeyCeremonies = {
  async create(options) {
    const publicKey = publicKeyCredential().parseCreationOptionsFromJSON(options);
    const credential = await navigator.credentials.create({ publicKey });
    return toJson(credential) as PasskeyRegistrationResponse;
  },
  async get(options) {
    const publicKey = publicKeyCredential().parseRequestOptionsFromJSON(options);
    const credential = await navigator.credentials.get({ publicKey });
    return toJson(credential) as PasskeyAuthenticationResponse;
  },
};

/** The protocol's words for a browser without WebAuthn (or without its JSON API; pass `passkeyCeremonies` there). */
export const webAuthnUnsupportedMessage = 'WebAuthn is not supported in this browser';

/** `PASSKEY_WEBAUTHN_ERROR` with code `NOT_SUPPORTED`: this browser has no WebAuthn. */
export function webAuthnUnsupportedError(): PasskeyWebauthnError {
  return new PasskeyWebauthnError({ message: webAuthnUnsupportedMessage, code: 'NOT_SUPPORTED' }, webAuthnUnsupportedMessage);
}

function publicKeyCredential() {
  if (typeof PublicKeyCredential === 'undefined' || typeof PublicKeyCredential.parseRequestOptionsFromJSON !== 'function') {
    throw webAuthnUnsupportedError();
  }
  return PublicKeyCredential;
}

function toJson(credential: Credential | null): unknown {
  if (!credential) throw new Error('The passkey ceremony was cancelled.');
  return (credential as PublicKeyCredential).toJSON();
}
