import { describe, expect, it } from 'vitest';
import { withTestContext } from '../../testing/test-context.ts';

/**
 * An unknown email and a wrong password must look the same: the same error, and the same time
 * (the unknown email is verified against a dummy argon2id hash). Samples alternate so load on the
 * machine hits both alike; medians must be within 20 %.
 */
const env = withTestContext({ projectConfig: { 'auth.password.allowSignIn': true } });

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

describe('password sign-in timing', () => {
  it('answers an unknown email and a wrong password with the same error in the same time', async () => {
    const { project } = env.project;
    await env.context.services.users.create(
      project,
      { primary_email: 'known@example.com', primary_email_auth_enabled: true, password: 'the right password' },
      'server',
    );
    const attempt = async (email: string) => {
      const started = performance.now();
      const response = await env.context.request({
        method: 'POST',
        url: '/api/v1/auth/password/sign-in',
        headers: env.project.headers.client,
        payload: { email, password: 'a wrong password' },
      });
      return { elapsed: performance.now() - started, body: response.body };
    };
    await attempt('warm-up@example.com');
    const unknown: number[] = [];
    const wrong: number[] = [];
    for (let round = 0; round < 15; round++) {
      const a = await attempt(`nobody-${round}@example.com`);
      const b = await attempt('known@example.com');
      unknown.push(a.elapsed);
      wrong.push(b.elapsed);
      expect({ ...a.body }).toEqual({ ...b.body });
      expect(a.body.code).toBe('EMAIL_PASSWORD_MISMATCH');
    }
    const ratio = median(unknown) / median(wrong);
    expect(ratio, `unknown ${median(unknown).toFixed(1)} ms vs wrong ${median(wrong).toFixed(1)} ms`).toBeGreaterThan(0.8);
    expect(ratio).toBeLessThan(1.2);
  }, 60_000);
});
