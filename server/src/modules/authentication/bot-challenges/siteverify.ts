import type { BotChallengeProvider } from './bot-challenge-settings.ts';

/** What a provider said about a token: passed, rejected (with its error codes), or could not be asked. */
export type SiteverifyVerdict =
  | { outcome: 'passed'; score: number | null }
  | { outcome: 'rejected'; errorCodes: string[]; score: number | null }
  | { outcome: 'unavailable'; reason: string };

export type SiteverifyRequest = {
  provider: BotChallengeProvider;
  verifyUrl: string;
  secretKey: string;
  siteKey: string;
  token: string;
  remoteIp: string;
  minScore: number;
  timeoutMillis: number;
};

/**
 * One siteverify call. The three providers share the shape: a form-encoded POST of `secret`,
 * `response` and `remoteip` (hCaptcha also takes `sitekey`, checked against the token), answered
 * with JSON `{ success, "error-codes", hostname, challenge_ts, score? }`. A score (reCAPTCHA v3,
 * hCaptcha Enterprise) below `minScore` is a rejection; reCAPTCHA's score runs from 0 (bot) to 1,
 * hCaptcha's the other way round (1 is a bot), so its score is turned over first.
 */
export async function siteverify(request: SiteverifyRequest): Promise<SiteverifyVerdict> {
  const form = new URLSearchParams({ secret: request.secretKey, response: request.token, remoteip: request.remoteIp });
  if (request.provider === 'hcaptcha' && request.siteKey) form.set('sitekey', request.siteKey);
  let answer: unknown;
  try {
    const response = await fetch(request.verifyUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form,
      signal: AbortSignal.timeout(request.timeoutMillis),
      // The configured host and nothing else: a redirect is an outage, not a new destination.
      redirect: 'error',
    });
    if (!response.ok) return { outcome: 'unavailable', reason: `HTTP ${response.status}` };
    answer = await response.json();
  } catch (error) {
    return { outcome: 'unavailable', reason: (error as Error).name === 'TimeoutError' ? 'timed out' : (error as Error).message };
  }
  if (typeof answer !== 'object' || answer === null || typeof (answer as { success?: unknown }).success !== 'boolean')
    return { outcome: 'unavailable', reason: 'malformed answer' };
  const body = answer as { success: boolean; 'error-codes'?: unknown; score?: unknown };
  const errorCodes = Array.isArray(body['error-codes']) ? body['error-codes'].filter((code) => typeof code === 'string') : [];
  // The provider's own failures are outages, not the person's fault (Turnstile: internal-error; all: a bad secret).
  if (!body.success && errorCodes.some((code) => providerSideErrors.has(code)))
    return { outcome: 'unavailable', reason: `provider error ${errorCodes.join(', ')}` };
  const rawScore = typeof body.score === 'number' && Number.isFinite(body.score) ? body.score : null;
  const score = rawScore === null ? null : request.provider === 'hcaptcha' ? 1 - rawScore : rawScore;
  if (!body.success) return { outcome: 'rejected', errorCodes, score };
  if (score !== null && score < request.minScore) return { outcome: 'rejected', errorCodes: ['score-too-low'], score };
  return { outcome: 'passed', score };
}

const providerSideErrors = new Set(['internal-error', 'missing-input-secret', 'invalid-input-secret', 'sitekey-secret-mismatch']);
