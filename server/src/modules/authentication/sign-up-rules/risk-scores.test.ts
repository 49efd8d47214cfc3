import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { withTestContext } from '@gatehouse/testing/test-context';
import { emailSkeleton, isDisposableDomain, riskScores, subnetOf } from './risk-scores.ts';

/**
 * Sign-up risk scores from real signals: throwaway domains from mailchecker's list, attempts per IP
 * and per network over a day, look-alike emails, the bot challenge's result; stored on the user
 * (Stack's `risk_scores.sign_up`) and usable in sign-up rules.
 */
const restrictRiskyBots = {
  enabled: true,
  displayName: 'Risky bots',
  priority: 0,
  condition: 'riskScores.bot >= 70',
  action: { type: 'restrict' },
};
const env = withTestContext({
  projectConfig: { 'auth.password.allowSignIn': true, 'auth.signUpRules.risky-bots': restrictRiskyBots },
});

const signUpFrom = async (ip: string, email: string) => {
  const answer = await env.context.request({
    method: 'POST',
    url: '/api/v1/auth/password/sign-up',
    headers: env.project.headers.client,
    payload: { email, password: 'a-good-password-1' },
    remoteAddress: ip,
  });
  expect(answer.status, answer.text).toBe(200);
  const user = await env.context.request({
    method: 'GET',
    url: `/api/v1/users/${answer.body.user_id}`,
    headers: env.project.headers.server,
  });
  return user.body as { risk_scores: { sign_up: { bot: number; free_trial_abuse: number } }; restricted_by_admin: boolean };
};

describe('the signals', () => {
  it('knows throwaway domains (and their subdomains) from the list package, and not ordinary ones', () => {
    expect(isDisposableDomain('mailinator.com')).toBe(true);
    expect(isDisposableDomain('Inbox.Mailinator.com')).toBe(true);
    expect(isDisposableDomain('yopmail.com')).toBe(true);
    expect(isDisposableDomain('gmail.com')).toBe(false);
    expect(isDisposableDomain('example.com')).toBe(false);
  });

  it('groups addresses by network and emails by skeleton', () => {
    expect(subnetOf('198.51.100.7')).toBe('198.51.100.0/24');
    expect(subnetOf('::ffff:198.51.100.7')).toBe('198.51.100.0/24');
    expect(subnetOf('2001:db8:abcd:12::1')).toBe('2001:db8:abcd::/48');
    expect(subnetOf('2001:db8::1')).toBe('2001:db8:0::/48');
    expect(subnetOf('not an ip')).toBeNull();
    expect(emailSkeleton('J.o.h.n+promo@Mail.com')).toBe('john@mail.com');
    expect(emailSkeleton('john1987@mail.com')).toBe('john@mail.com');
  });

  it('scores nothing for nothing, and combines signals as documented', () => {
    expect(riskScores({ disposable: false, sameIp: 0, sameSubnet: 0, lookalikes: 0, challenge: 'off' })).toEqual({
      bot: 0,
      free_trial_abuse: 0,
    });
    expect(riskScores({ disposable: false, sameIp: 0, sameSubnet: 0, lookalikes: 0, challenge: 'failed' })).toEqual({
      bot: 80,
      free_trial_abuse: 0,
    });
    expect(riskScores({ disposable: true, sameIp: 19, sameSubnet: 19, lookalikes: 19, challenge: 'off' })).toEqual({
      bot: 87,
      free_trial_abuse: 92,
    });
  });
});

describe('risk at sign-up', () => {
  it('scores 20 throwaway sign-ups from one IP high and a rule on the score restricts them; an ordinary one scores 0', {
    timeout: 120_000,
  }, async () => {
    const batch = randomUUID().slice(0, 6);
    const users = [];
    for (let attempt = 1; attempt <= 20; attempt++) users.push(await signUpFrom('198.51.100.7', `trial${batch}${attempt}@mailinator.com`));
    // The first is only "throwaway domain" (0.3 / 0.6); from the 7th the address and the look-alikes push bot past 70.
    expect(users[0]?.risk_scores.sign_up).toEqual({ bot: 30, free_trial_abuse: 60 });
    expect(users.map((user) => user.restricted_by_admin)).toEqual([...new Array(6).fill(false), ...new Array(14).fill(true)]);
    expect(users[19]?.risk_scores.sign_up).toEqual({ bot: 87, free_trial_abuse: 92 });
    for (const user of users.slice(6)) expect(user.risk_scores.sign_up.bot).toBeGreaterThanOrEqual(70);

    const ordinary = await signUpFrom('203.0.113.50', `alice-${batch}@example.com`);
    expect(ordinary.risk_scores.sign_up).toEqual({ bot: 0, free_trial_abuse: 0 });
    expect(ordinary.restricted_by_admin).toBe(false);
  });

  it('counts a neighbour network: sign-ups spread over one /24 raise the score too', { timeout: 120_000 }, async () => {
    const users = [];
    for (let host = 1; host <= 12; host++)
      users.push(await signUpFrom(`192.0.2.${host}`, `person-${randomUUID().slice(0, 8)}@example.org`));
    // Different addresses and unlike emails: only the network counts (11 earlier: (11 - 5) / 15 = 0.4 → bot 28).
    expect(users[0]?.risk_scores.sign_up.bot).toBe(0);
    expect(users[11]?.risk_scores.sign_up).toEqual({ bot: 28, free_trial_abuse: 20 });
  });
});
