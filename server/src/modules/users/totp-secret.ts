/** Secrets otplib accepts (it refuses fewer than 128 bits); Stack's SDKs send 20 bytes. */
export const minTotpSecretBytes = 16;
export const maxTotpSecretBytes = 64;

/** `totp_secret_base64` as the protocol sends it: standard base64 of 16 to 64 bytes, else undefined. */
export function decodeTotpSecret(base64: string): Buffer | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64) || base64.length % 4 === 1) return undefined;
  const secret = Buffer.from(base64, 'base64');
  return secret.length >= minTotpSecretBytes && secret.length <= maxTotpSecretBytes ? secret : undefined;
}
