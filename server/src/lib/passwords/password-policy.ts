import { createHash } from 'node:crypto';
import { parseIntegerSetting } from '../integer-setting.ts';
import { PasswordBreachedError, PasswordTooLongError, PasswordTooShortError } from '@gatehouse/protocol/errors';

/** The defaults of `auth.passwordPolicy` (documented in the spec's `ConfigPasswordPolicy`): at least 8 characters (NIST SP 800-63B), at most 70. */
export const passwordMinLength = 8;
export const passwordMaxLength = 70;

/** Length only, with the project's bounds (the default ones when no project is at hand). */
export function assertPasswordLength(password: string, bounds: { minLength: number; maxLength: number } = defaultBounds): void {
  const length = [...password].length;
  if (length < bounds.minLength) throw new PasswordTooShortError({ min_length: bounds.minLength });
  if (length > bounds.maxLength) throw new PasswordTooLongError({ maxLength: bounds.maxLength });
}
const defaultBounds = { minLength: passwordMinLength, maxLength: passwordMaxLength };

/** The part of a project the policy reads (`auth.passwordPolicy`; lib/ stays below tenancy/). */
export type PolicyHolder = { config: { auth: { passwordPolicy: { minLength: number; maxLength: number; checkBreached: boolean } } } };

/** Whether a new password is acceptable for the project; throws the catalogue's password errors. */
export interface PasswordChecker {
  assertAcceptable(project: PolicyHolder, password: string): Promise<void>;
}

/** Where the breached-password check asks and how long it waits (PWNED_PASSWORDS_URL, PWNED_PASSWORDS_TIMEOUT_MS). */
export type BreachedPasswordSettings = { rangeUrl: string; timeoutMillis: number };

export function readBreachedPasswordSettings(environment: NodeJS.ProcessEnv): BreachedPasswordSettings {
  const rangeUrl = environment.PWNED_PASSWORDS_URL || 'https://api.pwnedpasswords.com/range/';
  if (!/^https?:\/\//.test(rangeUrl)) throw new Error(`PWNED_PASSWORDS_URL must be an http(s) URL, not ${JSON.stringify(rangeUrl)}`);
  const timeoutMillis = parseIntegerSetting(environment, 'PWNED_PASSWORDS_TIMEOUT_MS', { min: 1, expected: 'a positive integer' }) ?? 2_000;
  return { rangeUrl: rangeUrl.endsWith('/') ? rangeUrl : `${rangeUrl}/`, timeoutMillis };
}

/**
 * The project's password policy (`auth.passwordPolicy`): length bounds and, when `checkBreached` is
 * on, Have I Been Pwned's k-anonymity range API: only the first 5 hex characters of the password's
 * SHA-1 leave the server; the suffixes that come back are compared here. When the service does not
 * answer within the timeout (or answers badly) the password is accepted and a line is logged: an
 * outage must not stop sign-ups, and the length rules still hold.
 */
export class PasswordPolicy implements PasswordChecker {
  constructor(
    private readonly settings: BreachedPasswordSettings,
    private readonly log: (message: string) => void = (message) => console.warn(message),
  ) {}

  async assertAcceptable(project: PolicyHolder, password: string): Promise<void> {
    const policy = project.config.auth.passwordPolicy;
    assertPasswordLength(password, policy);
    if (policy.checkBreached && (await this.isBreached(password))) throw new PasswordBreachedError({});
  }

  /** True when the password is in the breach corpus; false when it is not or the service could not be asked. */
  async isBreached(password: string): Promise<boolean> {
    const digest = createHash('sha1').update(password, 'utf8').digest('hex').toUpperCase();
    const prefix = digest.slice(0, 5);
    const suffix = digest.slice(5);
    let body: string;
    try {
      const response = await fetch(`${this.settings.rangeUrl}${prefix}`, {
        // Padding hides which prefix was asked from anyone measuring response sizes.
        headers: { 'Add-Padding': 'true', 'User-Agent': 'Gatehouse' },
        signal: AbortSignal.timeout(this.settings.timeoutMillis),
        redirect: 'error',
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      body = await response.text();
    } catch (error) {
      this.log(`Breached-password check skipped (password accepted): the range API did not answer: ${(error as Error).message}`);
      return false;
    }
    for (const line of body.split('\n')) {
      const [candidate, count] = line.trim().split(':');
      // Padding lines carry a count of 0.
      if (candidate?.toUpperCase() === suffix && Number(count) > 0) return true;
    }
    return false;
  }
}
