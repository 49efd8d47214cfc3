import { describe, expect, it } from 'vitest';
import { withTestContext } from '@gatehouse/testing/test-context';

/**
 * URL fields: up to 1,000,000 characters; a malformed one is SCHEMA_ERROR in the protocol's words
 * (`{field} contains spaces`, `{field} is not a valid URL`); a local host (`localhost`, `*.localhost`,
 * any `127.x.x.x`) is trusted only while the project allows localhost.
 */
const env = withTestContext();

const sendResetCode = (headers: Record<string, string>, callbackUrl: string) =>
  env.context.request({
    method: 'POST',
    url: '/api/v1/auth/password/send-reset-code',
    headers,
    payload: { email: 'nobody-url-fields@example.com', callback_url: callbackUrl },
  });

describe('URL fields', () => {
  it("refuses a URL with a space or a malformed one, in the protocol's words", async () => {
    const project = await env.context.createProject({ 'auth.password.allowSignIn': true, 'domains.allowLocalhost': true });
    const spaced = await sendResetCode(project.headers.client, 'http://localhost:3000/reset password');
    expect(spaced.status).toBe(400);
    expect(spaced.body.code).toBe('SCHEMA_ERROR');
    expect(spaced.body.details.message).toBe('body/callback_url contains spaces');
    const malformed = await sendResetCode(project.headers.client, 'not-a-url');
    expect(malformed.body.code).toBe('SCHEMA_ERROR');
    expect(malformed.body.details.message).toBe('body/callback_url is not a valid URL');
  });

  it('accepts a URL of 1,000,000 characters and refuses one longer', async () => {
    const project = await env.context.createProject({ 'auth.password.allowSignIn': true, 'domains.allowLocalhost': true });
    const base = 'http://localhost:3000/reset?state=';
    const longest = base + 'a'.repeat(1_000_000 - base.length);
    const accepted = await sendResetCode(project.headers.client, longest);
    expect(accepted.status, accepted.text.slice(0, 300)).toBe(200);
    const tooLong = await sendResetCode(project.headers.client, `${longest}a`);
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.code).toBe('SCHEMA_ERROR');
  });

  it('trusts localhost, *.localhost and any 127.x.x.x only while the project allows localhost', async () => {
    const allowed = await env.context.createProject({ 'auth.password.allowSignIn': true, 'domains.allowLocalhost': true });
    const refused = await env.context.createProject({ 'auth.password.allowSignIn': true, 'domains.allowLocalhost': false });
    for (const url of ['http://localhost:3000/cb', 'http://app.localhost/cb', 'http://127.0.0.1/cb', 'http://127.42.1.9:8080/cb']) {
      expect((await sendResetCode(allowed.headers.client, url)).status, url).toBe(200);
      const answer = await sendResetCode(refused.headers.client, url);
      expect(answer.body.code, url).toBe('REDIRECT_URL_NOT_WHITELISTED');
    }
    for (const url of ['http://localhost.example.com/cb', 'http://128.0.0.1/cb']) {
      expect((await sendResetCode(allowed.headers.client, url)).body.code, url).toBe('REDIRECT_URL_NOT_WHITELISTED');
    }
  });
});
