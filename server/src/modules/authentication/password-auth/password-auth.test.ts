import { createLocalJWKSet, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { expectError } from '@gatehouse/testing/expect-response';
import { testPublicUrl } from '@gatehouse/testing/test-context';
import { passwordAuthFixture } from '@gatehouse/testing/password-auth-fixture';

/**
 * Password sign-up and sign-in (docs/protocol/endpoints.md §2): through the contract checker, with the
 * emails, tokens and sessions they leave behind. Changing, setting and resetting a password: password-change.test.ts;
 * anonymous sign-up: anonymous-sign-up.test.ts.
 */
const { env, projects, password, callback, untrusted, newEmail, client, post, signUp, signIn, me, refreshStatus, emailsTo, passwordUser } =
  passwordAuthFixture();

describe('POST /auth/password/sign-up', () => {
  it('creates the user and signs it in: working tokens with every claim, a live session', async () => {
    const email = newEmail('signup');
    const response = await signUp(email);
    expect(response.status).toBe(200);
    const { access_token: accessToken, refresh_token: refreshToken, user_id: userId } = response.body;
    expect(refreshToken).toMatch(/^[a-z2-7]{45}$/);

    const user = await me(accessToken);
    expect(user.status).toBe(200);
    expect(user.body).toMatchObject({
      id: userId,
      primary_email: email,
      primary_email_verified: false,
      has_password: true,
      auth_with_email: true,
      is_anonymous: false,
      restricted_reason: null,
    });

    const projectId = env.project.project.id;
    const jwks = await env.context.request({ url: `/api/v1/projects/${projectId}/.well-known/jwks.json` });
    const { payload } = await jwtVerify(accessToken, createLocalJWKSet(jwks.body), {
      audience: projectId,
      issuer: `${testPublicUrl}/api/v1/projects/${projectId}`,
    });
    const session = await env.context.database.db
      .selectFrom('refresh_session')
      .select('id')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    expect(payload).toMatchObject({
      sub: userId,
      project_id: projectId,
      branch_id: 'main',
      refresh_token_id: session?.id,
      role: 'authenticated',
      name: null,
      email,
      email_verified: false,
      selected_team_id: null,
      is_anonymous: false,
      is_restricted: false,
      restricted_reason: null,
      requires_totp_mfa: false,
    });
    expect(typeof payload.signed_up_at).toBe('number');
    expect((payload.exp as number) - (payload.iat as number)).toBe(600);
    expect(await refreshStatus(refreshToken)).toBe(200);
  });

  it('refuses an email that already signs in, in any case, without creating anyone', async () => {
    const email = newEmail('taken');
    expect((await signUp(email)).status).toBe(200);
    expectError(await signUp(email, 'another password'), 409, 'USER_EMAIL_ALREADY_EXISTS', {
      email,
      would_work_if_email_was_verified: false,
    });
    expectError(await signUp(email.toUpperCase()), 409, 'USER_EMAIL_ALREADY_EXISTS');
    const channels = await env.context.database.db
      .selectFrom('contact_channel')
      .select('id')
      .where('project_id', '=', env.project.project.id)
      .where('value', 'ilike', email)
      .execute();
    expect(channels).toHaveLength(1);
  });

  it('lets only one of two concurrent sign-ups with the same email through', async () => {
    const email = newEmail('race');
    const responses = await Promise.all([signUp(email), signUp(email.toUpperCase())]);
    expect(responses.map((response) => response.status).sort()).toEqual([200, 409]);
    expect(responses.find((response) => response.status === 409)?.body.code).toBe('USER_EMAIL_ALREADY_EXISTS');
  });

  it('answers the project settings: password sign-in off, sign-up off', async () => {
    expectError(
      await post('/password/sign-up', { email: newEmail('off'), password }, client(projects.passwordOff)),
      400,
      'PASSWORD_AUTHENTICATION_NOT_ENABLED',
    );
    expectError(
      await post('/password/sign-up', { email: newEmail('off'), password }, client(projects.signUpOff)),
      400,
      'SIGN_UP_NOT_ENABLED',
    );
  });

  it("enforces 8 to 70 characters, in the protocol's words", async () => {
    const short = await signUp(newEmail('short'), 'x'.repeat(7));
    expectError(short, 400, 'PASSWORD_TOO_SHORT', { min_length: 8 });
    expect(short.body.error).toBe('Password too short. Minimum length is 8.');
    const long = await signUp(newEmail('long'), 'x'.repeat(71));
    expectError(long, 400, 'PASSWORD_TOO_LONG', { maxLength: 70 });
    expect(long.body.error).toBe('Password too long. Maximum length is 70.');
    expect((await signUp(newEmail('eight'), 'x'.repeat(8))).status).toBe(200);
    expect((await signUp(newEmail('seventy'), 'x'.repeat(70))).status).toBe(200);
  });

  it('refuses an untrusted verification callback before creating the user', async () => {
    const email = newEmail('untrusted');
    expectError(await signUp(email, password, { verification_callback_url: untrusted }), 400, 'REDIRECT_URL_NOT_WHITELISTED');
    expect(emailsTo(email)).toHaveLength(0);
    expectError(await signIn(email), 400, 'EMAIL_PASSWORD_MISMATCH');
  });

  it('emails a verification link to a trusted callback; its code verifies the email', async () => {
    const email = newEmail('verify');
    const response = await signUp(email, password, { verification_callback_url: `${callback}?after=%2Fhome` });
    expect(response.status).toBe(200);
    const sent = emailsTo(email);
    expect(sent).toHaveLength(1);
    const code = env.context.codeSentTo(email);
    expect(sent[0]?.text).toContain(`${callback}?after=%2Fhome&code=${code}`);
    expect((await me(response.body.access_token)).body.primary_email_verified).toBe(false);

    const verified = await env.context.request({
      method: 'POST',
      url: '/api/v1/contact-channels/verify',
      headers: client(),
      payload: { code },
    });
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({ success: true });
    expect((await me(response.body.access_token)).body.primary_email_verified).toBe(true);
  });
});

describe('POST /auth/password/sign-in', () => {
  it('signs in with the right password, the email in any case, into a new session', async () => {
    const email = newEmail('MixedCase');
    const { body: created } = await signUp(email);
    for (const candidate of [email, email.toUpperCase()]) {
      const response = await signIn(candidate);
      expect(response.status).toBe(200);
      expect(response.body.user_id).toBe(created.user_id);
      expect(response.body.refresh_token).not.toBe(created.refresh_token);
      expect((await me(response.body.access_token)).body.id).toBe(created.user_id);
    }
  });

  it('answers a wrong password and an unknown email with the same error', async () => {
    const { email } = await passwordUser();
    const wrong = await signIn(email, 'not the password');
    const unknown = await signIn(newEmail('nobody'));
    expectError(wrong, 400, 'EMAIL_PASSWORD_MISMATCH');
    expectError(unknown, 400, 'EMAIL_PASSWORD_MISMATCH');
    // The protocol's words, the same for a wrong password and an unknown email.
    expect(wrong.body.error).toBe('Wrong e-mail or password.');
    expect(unknown.body.error).toBe('Wrong e-mail or password.');
    expect(unknown.body).toEqual(wrong.body);
  });

  it('refuses an email that is not used for auth, and a project without password sign-in', async () => {
    const email = newEmail('notauth');
    await env.context.services.users.create(
      env.project.project,
      { primary_email: email, primary_email_auth_enabled: false, password },
      'server',
    );
    expectError(await signIn(email), 400, 'EMAIL_PASSWORD_MISMATCH');
    const disabled = await post('/password/sign-in', { email, password }, client(projects.passwordOff));
    expectError(disabled, 400, 'PASSWORD_AUTHENTICATION_NOT_ENABLED');
    expect(disabled.body.error).toBe('Password sign-in is disabled for the project.');
  });
});
