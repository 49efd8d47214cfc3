/**
 * TOTP (RFC 6238: HMAC-SHA1, 30 s steps, 6 digits) with WebCrypto, so account settings can check
 * the first code from the user's authenticator app before turning MFA on (no lock-out by typo).
 */
export async function totpAt(secret: Uint8Array<ArrayBuffer>, timeMillis: number, stepOffset = 0): Promise<string> {
  const counter = Math.floor(timeMillis / 30_000) + stepOffset;
  const message = new Uint8Array(8);
  new DataView(message.buffer).setUint32(4, counter >>> 0);
  new DataView(message.buffer).setUint32(0, Math.floor(counter / 2 ** 32));
  const key = await crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-1' }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, message));
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(binary % 1_000_000).padStart(6, '0');
}

/** Accepts the current code and its neighbours (clock drift), as the server does. */
export async function isValidTotp(secret: Uint8Array<ArrayBuffer>, code: string, now = Date.now()): Promise<boolean> {
  const typed = code.replace(/\s/g, '');
  for (const offset of [-1, 0, 1]) if ((await totpAt(secret, now, offset)) === typed) return true;
  return false;
}

/** Base32 (RFC 4648, no padding): how authenticator apps take a secret. */
export function base32(bytes: Uint8Array): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  let output = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      output += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) output += alphabet[(value << (5 - bits)) & 31];
  return output;
}

export function base64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes));
}
