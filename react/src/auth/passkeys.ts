import { browserPasskeyCeremonies, webAuthnUnsupportedError } from '@gatehouse/client';
import { initiatePasskeyAuthentication, initiatePasskeyRegistration, registerPasskey, signInWithPasskey } from '../generated/hooks.ts';
import type { SignInResponse } from '../generated/hooks.schemas.ts';

export function passkeysSupported(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential !== 'undefined';
}

function assertSupported(): void {
  if (!passkeysSupported()) throw webAuthnUnsupportedError();
}

/**
 * Creates a passkey for the signed-in user on this device. The server sends a placeholder
 * relying-party id; the passkey belongs to this page's hostname.
 */
export async function registerPasskeyInBrowser(): Promise<void> {
  assertSupported();
  const { options_json: options, code } = await initiatePasskeyRegistration({});
  const credential = await browserPasskeyCeremonies.create({ ...options, rp: { name: options.rp.name, id: window.location.hostname } });
  await registerPasskey({ credential, code });
}

/** Signs in with any passkey of this site that the device holds (the device lets the person pick). */
export async function signInWithPasskeyInBrowser(): Promise<SignInResponse> {
  assertSupported();
  const { options_json: options, code } = await initiatePasskeyAuthentication({});
  const response = await browserPasskeyCeremonies.get({ ...options, rpId: window.location.hostname });
  return signInWithPasskey({ authentication_response: response, code });
}
