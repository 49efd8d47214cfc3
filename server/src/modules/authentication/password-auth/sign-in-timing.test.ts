import { describe, expect, it } from 'vitest';
import { withTestContext } from '@gatehouse/testing/test-context';
import { compareTimings } from '@gatehouse/testing/timing';

/**
 * An unknown email and a wrong password (sign-in), and a known and an unknown email (password
 * reset), must look the same: the same answer in the same time. Samples are interleaved pairs
 * (testing/timing.ts), so a busy machine slows both alike; the medians must be within the tolerance
 * and neither side may be the slower one of nearly every pair.
 */
const env = withTestContext({
  projectConfig: {
    'auth.password.allowSignIn': true,
    'domains.trustedDomains': { app: { baseUrl: 'https://app.example.com', handlerPath: '/handler' } },
  },
});

describe('password sign-in timing', () => {
  it('answers an unknown email and a wrong password with the same error in the same time', async () => {
    const { project } = env.project;
    await env.context.services.users.create(
      project,
      { primary_email: 'known@example.com', primary_email_auth_enabled: true, password: 'the right password' },
      'server',
    );
    let round = 0;
    const attempt = async (email: string) => {
      const response = await env.context.request({
        method: 'POST',
        url: '/api/v1/auth/password/sign-in',
        headers: env.project.headers.client,
        payload: { email, password: 'a wrong password' },
      });
      expect(response.body.code).toBe('EMAIL_PASSWORD_MISMATCH');
    };
    await attempt('warm-up@example.com');
    const timing = await compareTimings(
      16,
      () => attempt(`nobody-${round++}@example.com`),
      () => attempt('known@example.com'),
    );
    // Without the dummy hash an unknown email answers in a small fraction of the time.
    const ratio = timing.firstMedian / timing.secondMedian;
    expect(ratio, timing.summary).toBeGreaterThan(0.6);
    expect(ratio, timing.summary).toBeLessThan(1.6);
  }, 120_000);
});

describe('password reset timing', () => {
  it('answers a known and an unknown email alike and in the same time (the email is sent after the answer)', async () => {
    const { project } = env.project;
    await env.context.services.users.create(
      project,
      { primary_email: 'reset-known@example.com', primary_email_auth_enabled: true },
      'server',
    );
    const answers = new Set<string>();
    let round = 0;
    // Straight through inject: the measured time is the answer's, not the email's that follows it.
    const send = async (email: string) => {
      const response = await env.context.app.inject({
        method: 'POST',
        url: '/api/v1/auth/password/send-reset-code',
        headers: env.project.headers.client,
        payload: { email, callback_url: 'https://app.example.com/handler/password-reset' },
      });
      answers.add(`${response.statusCode} ${response.body}`);
    };
    await send('warm-up@example.com');
    const sentBefore = env.context.sentEmails.length;
    const measure = () =>
      compareTimings(
        40,
        () => send('reset-known@example.com'),
        () => send(`reset-nobody-${round++}@example.com`),
        // The work after the answer is finished outside the measured time, so it slows neither side.
        () => env.context.services.passwordReset.settled(),
      );
    const withinTolerance = (measured: Awaited<ReturnType<typeof measure>>) =>
      Math.abs(measured.firstMedian - measured.secondMedian) < Math.max(0.35 * Math.min(measured.firstMedian, measured.secondMedian), 0.4);
    // Medians of ~1.5 ms move by half a millisecond with the machine's noise alone (a CI run: 2.05 vs 1.42 ms with
    // the known email slower in only 55 % of the pairs); a real difference shows in a second sample too.
    let timing = await measure();
    let measurements = 1;
    if (!withinTolerance(timing)) {
      console.log(`password reset timing: measured again after ${timing.summary}`);
      timing = await measure();
      measurements = 2;
    }
    console.log(`password reset timing: known vs unknown email ${timing.summary}`);
    expect([...answers]).toEqual(['200 {"success":"maybe, only if user with e-mail exists"}']);
    // The known email did get its 40 links per measurement.
    expect(env.context.sentEmails.slice(sentBefore).filter((email) => email.to === 'reset-known@example.com')).toHaveLength(
      40 * measurements,
    );
    // Before the fix: known 3.9 ms vs unknown 2.3 ms, the known one slower in 86 % of single requests.
    expect(withinTolerance(timing), timing.summary).toBe(true);
    expect(timing.firstSlowerShare, timing.summary).toBeGreaterThan(0.2);
    expect(timing.firstSlowerShare, timing.summary).toBeLessThan(0.8);
  }, 120_000);
});
