import type { AddressInfo } from 'node:net';
import { createApiClient } from '@gatehouse/client';
import { RefreshTokenNotFoundOrExpiredError, UnparsableAccessTokenError } from '@gatehouse/protocol/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CapturedEmail, type SmtpSink, startSmtpSink } from '@gatehouse/testing/smtp-sink';
import { createTestContext, type TestContext, type TestProject } from '@gatehouse/testing/test-context';

/**
 * One user's life over real HTTP, on real Postgres, with every email going through a real SMTP
 * server (the sink) and every link followed from the captured message.
 */
let context: TestContext;
let project: TestProject;
let sink: SmtpSink;
let baseUrl: string;
const callbackBase = 'http://localhost:3000/handler';
const email = 'life@example.com';

beforeAll(async () => {
  sink = await startSmtpSink();
  const smtp = sink.settings('auth@example.com');
  context = await createTestContext();
  project = await context.createProject({
    'auth.password.allowSignIn': true,
    'auth.otp.allowSignIn': true,
    'domains.allowLocalhost': true,
    'emails.server': { isShared: false, host: smtp.host, port: smtp.port, senderName: 'Life Test', senderEmail: smtp.senderEmail },
  });
  await context.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(context.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await context.close();
  await sink.close();
});

const codeIn = (message: CapturedEmail) => message.text.match(/[?&]code=([a-z2-7]{45})/)?.[1] as string;
const otpIn = (message: CapturedEmail) => message.text.match(/\b([A-Z2-7]{6})\b/)?.[1] as string;
const nextEmail = (subject: RegExp) =>
  sink.waitFor((message) => message.to.includes(email) && subject.test(message.subject) && !seen.has(message));
const seen = new Set<CapturedEmail>();

describe('one account, end to end', () => {
  it('signs up, verifies, signs out, signs in by magic link, resets the password, manages sessions, and is deleted', async () => {
    const client = (tokens: { access?: string; refresh?: string } = {}) =>
      createApiClient({
        baseUrl,
        headers: {
          ...project.headers.client,
          ...(tokens.access ? { 'x-stack-access-token': tokens.access } : {}),
          ...(tokens.refresh ? { 'x-stack-refresh-token': tokens.refresh } : {}),
        },
      });

    // Sign up; the verification email arrives through SMTP.
    const signUp = await client().call('signUpWithPassword', {
      body: { email, password: 'first password 1', verification_callback_url: `${callbackBase}/email-verification` },
    });
    const verification = await nextEmail(/verify/i);
    seen.add(verification);
    expect(verification.from).toContain('auth@example.com');
    expect((await client({ access: signUp.access_token }).call('getCurrentUser')).primary_email_verified).toBe(false);
    await client().call('verifyContactChannel', { body: { code: codeIn(verification) } });
    const verified = await client({ access: signUp.access_token }).call('getCurrentUser');
    expect(verified.primary_email_verified).toBe(true);

    // Sign out: that session's refresh token is dead.
    await client({ access: signUp.access_token }).call('deleteCurrentSession');
    await expect(client({ refresh: signUp.refresh_token }).call('refreshCurrentSession')).rejects.toBeInstanceOf(
      RefreshTokenNotFoundOrExpiredError,
    );

    // Magic-link sign-in with the code typed from the captured email.
    const { nonce } = await client().call('sendSignInCode', { body: { email, callback_url: `${callbackBase}/magic-link-callback` } });
    const signInEmail = await nextEmail(/sign-in code/i);
    seen.add(signInEmail);
    const magic = await client().call('signInWithCode', { body: { code: otpIn(signInEmail).toLowerCase() + nonce } });
    expect(magic.is_new_user).toBe(false);
    expect(magic.user_id).toBe(signUp.user_id);

    // Password reset through the emailed code; every session ends.
    await client().call('sendPasswordResetCode', { body: { email, callback_url: `${callbackBase}/password-reset` } });
    const reset = await nextEmail(/reset/i);
    seen.add(reset);
    await client().call('resetPassword', { body: { code: codeIn(reset), password: 'second password 2' } });
    await expect(client({ refresh: magic.refresh_token }).call('refreshCurrentSession')).rejects.toBeInstanceOf(
      RefreshTokenNotFoundOrExpiredError,
    );
    await expect(client().call('signInWithPassword', { body: { email, password: 'first password 1' } })).rejects.toMatchObject({
      code: 'EMAIL_PASSWORD_MISMATCH',
    });

    // Two sessions: list them and revoke the other one.
    const laptop = await client().call('signInWithPassword', { body: { email, password: 'second password 2' } });
    const phone = await client().call('signInWithPassword', { body: { email, password: 'second password 2' } });
    const sessions = await client({ access: laptop.access_token }).call('listSessions', { query: { user_id: 'me' } });
    expect(sessions.items).toHaveLength(2);
    const phoneSession = sessions.items.find((session) => !session.is_current_session);
    expect(phoneSession).toBeDefined();
    await client({ access: laptop.access_token }).call('deleteSession', {
      params: { session_id: phoneSession?.id as string },
      query: { user_id: 'me' },
    });
    await expect(client({ refresh: phone.refresh_token }).call('refreshCurrentSession')).rejects.toBeInstanceOf(
      RefreshTokenNotFoundOrExpiredError,
    );
    const refreshed = await client({ refresh: laptop.refresh_token }).call('refreshCurrentSession');

    // Delete the user: every token stops working at once.
    const server = createApiClient({ baseUrl, headers: project.headers.server });
    await server.call('deleteUser', { params: { user_id: signUp.user_id } });
    await expect(client({ access: refreshed.access_token }).call('getCurrentUser')).rejects.toBeInstanceOf(UnparsableAccessTokenError);
    await expect(client({ refresh: laptop.refresh_token }).call('refreshCurrentSession')).rejects.toBeInstanceOf(
      RefreshTokenNotFoundOrExpiredError,
    );
    const form = new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: laptop.refresh_token,
      client_id: project.project.id,
      client_secret: '__stack_public_client__',
    });
    const tokenEndpoint = await fetch(`${baseUrl}/api/v1/auth/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    });
    expect(tokenEndpoint.status).toBe(401);
    expect(tokenEndpoint.headers.get('x-stack-known-error')).toBe('REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED');
  }, 60_000);
});
