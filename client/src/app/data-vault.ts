import { DataVaultStoreHashedKeyDoesNotExistError } from '../errors.ts';
import { type AppCall, orNull } from './app-call.ts';
import * as op from '@gatehouse/protocol/operations';

/**
 * A data vault store: values your backend keeps in the platform, encrypted before they leave it.
 * The key is hashed and the value encrypted with your secret, so the platform sees neither (and
 * encrypts again at rest). Reading with another secret fails with
 * "Data vault client-side decryption failed. Are you sure you're using the correct secret?".
 */
export type DataVaultStore = {
  readonly id: string;
  /** The value under `key`, or null when none was set. */
  getValue(key: string, options: { secret: string }): Promise<string | null>;
  setValue(key: string, value: string, options: { secret: string }): Promise<void>;
};

export type DataVault = {
  /** The store declared in the project config as `dataVault.stores.<id>`. */
  getStore(id: string): DataVaultStore;
};

export const dataVaultDecryptionFailedMessage = "Data vault client-side decryption failed. Are you sure you're using the correct secret?";

const encoder = new TextEncoder();
const pbkdf2Iterations = 100_000;

/** 32 bytes from PBKDF2-SHA-256 (100 000 iterations) over the key, salted with the secret: the root of both the hash and the value key. */
async function deriveRoot(secret: string, key: string): Promise<Uint8Array<ArrayBuffer>> {
  const material = await crypto.subtle.importKey('raw', encoder.encode(key), 'PBKDF2', false, ['deriveBits']);
  const salt = await crypto.subtle.digest('SHA-256', encoder.encode(`gatehouse data vault salt\u0000${secret}`));
  return new Uint8Array(
    await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations: pbkdf2Iterations }, material, 256),
  );
}

/** HMAC-SHA-256 of a purpose under the root: independent subkeys for the hash and the value key. */
async function subkey(root: Uint8Array<ArrayBuffer>, purpose: string): Promise<Uint8Array<ArrayBuffer>> {
  const hmacKey = await crypto.subtle.importKey('raw', root, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await crypto.subtle.sign('HMAC', hmacKey, encoder.encode(purpose)));
}

const toBase64 = (bytes: Uint8Array): string => {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
};
const fromBase64 = (text: string): Uint8Array<ArrayBuffer> => Uint8Array.from(atob(text), (char) => char.charCodeAt(0));

/** What the platform receives for a key and a value: the hashed key, and the value sealed with AES-256-GCM (base64 of iv and ciphertext). */
export async function sealForDataVault(
  secret: string,
  key: string,
  value?: string,
): Promise<{ hashedKey: string; encryptedValue?: string }> {
  const root = await deriveRoot(secret, key);
  const hashedKey = toBase64(await subkey(root, 'gatehouse data vault key hash'));
  if (value === undefined) return { hashedKey };
  const aesKey = await crypto.subtle.importKey('raw', await subkey(root, 'gatehouse data vault value key'), 'AES-GCM', false, ['encrypt']);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const ciphertext = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, aesKey, encoder.encode(value)));
  const sealed = new Uint8Array(iv.length + ciphertext.length);
  sealed.set(iv);
  sealed.set(ciphertext, iv.length);
  return { hashedKey, encryptedValue: toBase64(sealed) };
}

/** Opens what `sealForDataVault` sealed; a wrong secret (or key, or tampering) throws the decryption message. */
export async function openFromDataVault(secret: string, key: string, encryptedValue: string): Promise<string> {
  try {
    const root = await deriveRoot(secret, key);
    const aesKey = await crypto.subtle.importKey('raw', await subkey(root, 'gatehouse data vault value key'), 'AES-GCM', false, [
      'decrypt',
    ]);
    const sealed = fromBase64(encryptedValue);
    const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: sealed.subarray(0, 12) }, aesKey, sealed.subarray(12));
    return new TextDecoder().decode(plain);
  } catch (error) {
    throw new Error(dataVaultDecryptionFailedMessage, { cause: error });
  }
}

export function dataVault(call: AppCall): DataVault {
  return {
    getStore: (id) => ({
      id,
      async getValue(key, { secret }) {
        const { hashedKey } = await sealForDataVault(secret, key);
        const stored = await orNull(
          call(op.getDataVaultValue, { params: { id }, body: { hashed_key: hashedKey } }),
          DataVaultStoreHashedKeyDoesNotExistError,
        );
        return stored === null ? null : openFromDataVault(secret, key, stored.encrypted_value);
      },
      async setValue(key, value, { secret }) {
        const { hashedKey, encryptedValue } = await sealForDataVault(secret, key, value);
        await call(op.setDataVaultValue, { params: { id }, body: { hashed_key: hashedKey, encrypted_value: encryptedValue as string } });
      },
    }),
  };
}
