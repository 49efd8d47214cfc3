import { isIP } from 'node:net';
import MailChecker from 'mailchecker';
import type { SignalKeys } from './sign-up-signal.repository.ts';

/**
 * The sign-up risk scores (Stack's `risk_scores.sign_up`, whole numbers 0-100), from four signals:
 *
 * - `disposable` (0 or 1): the email's domain, or a parent of it, is on mailchecker's list of
 *   throwaway-mail domains (a maintained list package; only its set is used, not its email regex).
 * - `velocity` (0-1): earlier attempts of the project in the last 24 hours from the same IP,
 *   `min(1, max(0, n - 2) / 8)`, or from the same /24 (IPv4) or /48 (IPv6) network,
 *   `min(1, max(0, n - 5) / 15)`, whichever is higher: two from one address are a household, ten a script.
 * - `lookalike` (0-1): earlier attempts in 24 hours whose email has the same skeleton (lower-cased
 *   local part without `+tag`, dots and digits, and the domain): `min(1, n / 4)`.
 * - `challenge` (0-1): the bot challenge failed 1, no token or provider unreachable 0.5, passed or
 *   off 0.
 *
 * Combined as a noisy OR, each signal able to raise the score but none lowering it:
 * `bot = 1 − (1 − 0.8·challenge)(1 − 0.7·velocity)(1 − 0.3·disposable)(1 − 0.4·lookalike)` and
 * `free_trial_abuse = 1 − (1 − 0.6·disposable)(1 − 0.5·velocity)(1 − 0.6·lookalike)`, times 100, rounded.
 * An ordinary first sign-up scores 0; twenty throwaway sign-ups from one address score above 80.
 */
export type SignUpRiskScores = { bot: number; free_trial_abuse: number };

export type RiskSignals = { disposable: boolean; sameIp: number; sameSubnet: number; lookalikes: number; challenge: ChallengeSignal };
export type ChallengeSignal = 'off' | 'passed' | 'failed' | 'missing' | 'unavailable';

const throwawayDomains = MailChecker.blacklist();

/** Whether the domain or any parent domain is a throwaway-mail domain. */
export function isDisposableDomain(domain: string): boolean {
  let current = domain.toLowerCase().replace(/\.$/, '');
  while (current.includes('.')) {
    if (throwawayDomains.has(current)) return true;
    current = current.slice(current.indexOf('.') + 1);
  }
  return false;
}

/** The /24 of an IPv4 address, the /48 of an IPv6 one (an IPv4-mapped IPv6 address counts as IPv4). */
export function subnetOf(ip: string): string | null {
  const plain = ip.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1');
  if (isIP(plain) === 4) return `${plain.split('.').slice(0, 3).join('.')}.0/24`;
  if (isIP(plain) !== 6) return null;
  const [head = '', tail = ''] = plain.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = plain.includes('::') ? [...left, ...new Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 3)
    .map((group) => Number.parseInt(group || '0', 16).toString(16))
    .join(':')}::/48`;
}

/** The email reduced for likeness: `j.o.h.n+x42@Mail.com` and `john7@mail.com` share `john@mail.com`. */
export function emailSkeleton(email: string): string | null {
  const at = email.lastIndexOf('@');
  if (at <= 0) return null;
  const local = email
    .slice(0, at)
    .toLowerCase()
    .split('+')[0]!
    .replace(/[.\d_-]/g, '');
  return `${local}@${email.slice(at + 1).toLowerCase()}`;
}

export function signalKeys(email: string | null, ip: string | undefined): SignalKeys {
  return { ip: ip ?? null, subnet: ip ? subnetOf(ip) : null, email_skeleton: email ? emailSkeleton(email) : null };
}

const challengeWeights: Record<ChallengeSignal, number> = { off: 0, passed: 0, failed: 1, missing: 0.5, unavailable: 0.5 };

export function riskScores(signals: RiskSignals): SignUpRiskScores {
  const velocity = Math.max(Math.min(1, Math.max(0, signals.sameIp - 2) / 8), Math.min(1, Math.max(0, signals.sameSubnet - 5) / 15));
  const lookalike = Math.min(1, signals.lookalikes / 4);
  const disposable = signals.disposable ? 1 : 0;
  const challenge = challengeWeights[signals.challenge];
  const bot = 1 - (1 - 0.8 * challenge) * (1 - 0.7 * velocity) * (1 - 0.3 * disposable) * (1 - 0.4 * lookalike);
  const trial = 1 - (1 - 0.6 * disposable) * (1 - 0.5 * velocity) * (1 - 0.6 * lookalike);
  return { bot: Math.round(bot * 100), free_trial_abuse: Math.round(trial * 100) };
}
