/** TOTP (RFC 6238) in one place: the secrets the protocol accepts and the codes checked against them. */

/** Secrets otplib accepts (it refuses fewer than 128 bits); Stack's SDKs send 20 bytes. */
export const minTotpSecretBytes = 16;
export const maxTotpSecretBytes = 64;

/** `totp_secret_base64` as the protocol sends it: standard base64 of 16 to 64 bytes, else undefined. */
export function decodeTotpSecret(base64: string): Buffer | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64) || base64.length % 4 === 1) return undefined;
  const secret = Buffer.from(base64, 'base64');
  return secret.length >= minTotpSecretBytes && secret.length <= maxTotpSecretBytes ? secret : undefined;
}

/** RFC 6238 as authenticator apps use it: SHA-1, 6 digits, 30-second steps. */
export const totpPeriodSeconds = 30;
/** One step of clock drift either way. */
const toleranceSeconds = totpPeriodSeconds;

export const looksLikeTotp = (input: string): boolean => /^\d{6}$/.test(input.trim());

/** The time step `token` belongs to, or null when it matches none within the drift window. */
export async function matchTotpStep(secret: Buffer, token: string, nowMillis = Date.now()): Promise<number | null> {
  if (!looksLikeTotp(token)) return null;
  // otplib loads on the first code checked, not at start-up.
  const { verify } = await import('otplib');
  try {
    const result = await verify({
      secret: new Uint8Array(secret),
      token: token.trim(),
      epoch: Math.floor(nowMillis / 1000),
      epochTolerance: toleranceSeconds,
    });
    return result.valid && 'timeStep' in result ? result.timeStep : null;
  } catch {
    // A secret stored before secrets were checked (too short or too long) matches nothing.
    return null;
  }
}
