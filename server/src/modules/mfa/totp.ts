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
