import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { CapturedEmail, SmtpSink } from './smtp-sink.ts';
import type { ServerProcess } from './server-process.ts';

/**
 * A whole account's journey against a real server process in production mode, over HTTP, with every
 * email read from the SMTP sink: sign-up and verification, OTP and magic-link sign-in, password
 * reset, a team invitation, user and project API keys, a webhook endpoint (created and rotated), the
 * project's own SMTP server with a password and an OAuth provider with a client secret. It returns
 * every secret, code and link it created or was given, by name, so a test can look for each one where
 * it must not be (the log, a database dump).
 */
export type JourneySecrets = Record<string, string>;

const callbackBase = 'http://localhost:3000/handler';
const linkCodeIn = (message: CapturedEmail) => message.text.match(/[?&]code=([a-z2-7]{45})/)?.[1];
const otpIn = (message: CapturedEmail) => message.text.match(/\b([A-Z2-7]{6})\b/)?.[1];
const secretText = (label: string) => `${label}-${randomBytes(12).toString('hex')}`;

export async function runProductionJourney(server: ServerProcess, sink: SmtpSink): Promise<JourneySecrets> {
  const demo = server.demo();
  const secrets: JourneySecrets = {
    publishable_client_key: demo.keys.publishable_client_key,
    secret_server_key: demo.keys.secret_server_key,
    super_secret_admin_key: demo.keys.super_secret_admin_key,
  };
  const headers = {
    client: {
      'x-stack-access-type': 'client',
      'x-stack-project-id': demo.id,
      'x-stack-publishable-client-key': demo.keys.publishable_client_key,
    },
    server: { 'x-stack-access-type': 'server', 'x-stack-project-id': demo.id, 'x-stack-secret-server-key': demo.keys.secret_server_key },
    admin: {
      'x-stack-access-type': 'admin',
      'x-stack-project-id': demo.id,
      'x-stack-super-secret-admin-key': demo.keys.super_secret_admin_key,
    },
  };
  const call = async (method: string, path: string, access: Record<string, string>, body?: unknown, status = 200) => {
    const response = await fetch(`${server.baseUrl}/api/v1${path}`, {
      method,
      headers: { ...access, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    expect(response.status, `${method} ${path}: ${text}`).toBe(status);
    return (text ? JSON.parse(text) : {}) as Record<string, unknown>;
  };
  const seen = new Set<CapturedEmail>();
  const nextEmail = async (to: string, subject: RegExp) => {
    const message = await sink.waitFor(
      (candidate) => candidate.to.includes(to) && subject.test(candidate.subject) && !seen.has(candidate),
      20_000,
    );
    seen.add(message);
    return message;
  };

  // The project's own mail server (with a password) and an OAuth provider (with a client secret).
  secrets.smtp_password = secretText('smtp-password');
  secrets.oauth_client_secret = secretText('oauth-client-secret');
  const smtp = sink.settings('journey@example.com');
  await call('PATCH', '/internal/config/override/project', headers.admin, {
    config_override_string: JSON.stringify({
      'auth.password.allowSignIn': true,
      'auth.otp.allowSignIn': true,
      'domains.allowLocalhost': true,
      'teams.allowClientTeamCreation': true,
      'apiKeys.enabled.user': true,
      'emails.server': {
        isShared: false,
        host: smtp.host,
        port: smtp.port,
        username: 'journey-smtp-user',
        password: secrets.smtp_password,
        senderName: 'Journey',
        senderEmail: smtp.senderEmail,
      },
      'auth.oauth.providers': {
        github: {
          type: 'github',
          isShared: false,
          clientId: 'journey-client-id',
          clientSecret: secrets.oauth_client_secret,
          allowSignIn: true,
        },
      },
    }),
  });

  // Sign up and verify the address with the emailed link's code.
  const email = `journey-${randomBytes(4).toString('hex')}@example.com`;
  secrets.first_password = secretText('first-password');
  const signUp = await call('POST', '/auth/password/sign-up', headers.client, {
    email,
    password: secrets.first_password,
    verification_callback_url: `${callbackBase}/email-verification`,
  });
  secrets.sign_up_access_token = signUp.access_token as string;
  secrets.sign_up_refresh_token = signUp.refresh_token as string;
  const verification = await nextEmail(email, /verify/i);
  secrets.verification_code = linkCodeIn(verification) as string;
  await call('POST', '/contact-channels/verify', headers.client, { code: secrets.verification_code });

  // OTP and magic link: the same email carries both.
  const { nonce } = await call('POST', '/auth/otp/send-sign-in-code', headers.client, {
    email,
    callback_url: `${callbackBase}/magic-link-callback`,
  });
  const signInEmail = await nextEmail(email, /sign-in code/i);
  secrets.otp = otpIn(signInEmail) as string;
  secrets.magic_link_code = linkCodeIn(signInEmail) as string;
  const signedIn = await call('POST', '/auth/otp/sign-in', headers.client, { code: `${secrets.otp.toLowerCase()}${nonce as string}` });
  secrets.otp_access_token = signedIn.access_token as string;
  secrets.otp_refresh_token = signedIn.refresh_token as string;

  // Password reset through the emailed link's code.
  await call('POST', '/auth/password/send-reset-code', headers.client, { email, callback_url: `${callbackBase}/password-reset` });
  secrets.reset_code = linkCodeIn(await nextEmail(email, /reset/i)) as string;
  secrets.second_password = secretText('second-password');
  await call('POST', '/auth/password/reset', headers.client, { code: secrets.reset_code, password: secrets.second_password });
  const session = await call('POST', '/auth/password/sign-in', headers.client, { email, password: secrets.second_password });
  secrets.access_token = session.access_token as string;
  secrets.refresh_token = session.refresh_token as string;
  const asUser = { ...headers.client, 'x-stack-access-token': secrets.access_token };

  // A team and an invitation to someone else.
  const team = await call('POST', '/teams', asUser, { display_name: 'Journey team', creator_user_id: 'me' }, 201);
  const invitee = `invitee-${randomBytes(4).toString('hex')}@example.com`;
  await call('POST', '/team-invitations/send-code', asUser, {
    team_id: team.id,
    email: invitee,
    callback_url: `${callbackBase}/team-invitation`,
  });
  secrets.invitation_code = linkCodeIn(await nextEmail(invitee, /invit/i)) as string;
  await call('POST', '/team-invitations/accept/check-code', headers.client, { code: secrets.invitation_code });

  // API keys: a user's, and a project key set.
  const userKey = await call('POST', '/user-api-keys', asUser, { user_id: 'me', description: 'journey key' });
  secrets.user_api_key = userKey.value as string;
  const keySet = await call('POST', '/internal/api-keys', headers.admin, {
    description: 'journey keys',
    expires_at_millis: Date.now() + 3_600_000,
    has_publishable_client_key: true,
    has_secret_server_key: true,
    has_super_secret_admin_key: true,
  });
  secrets.new_publishable_client_key = keySet.publishable_client_key as string;
  secrets.new_secret_server_key = keySet.secret_server_key as string;
  secrets.new_super_secret_admin_key = keySet.super_secret_admin_key as string;

  // A webhook endpoint, its secret rotated.
  const endpoint = await call('POST', '/internal/webhooks/endpoints', headers.admin, { url: 'http://127.0.0.1:9/journey-hook' }, 201);
  secrets.webhook_secret = endpoint.secret as string;
  const rotated = await call('POST', `/internal/webhooks/endpoints/${endpoint.id as string}/rotate-secret`, headers.admin, {});
  secrets.rotated_webhook_secret = rotated.secret as string;

  // Codes in a callback's query and in an unreadable body (both logged paths in the past).
  secrets.oauth_callback_code = secretText('oauth-callback-code');
  await fetch(`${server.baseUrl}/api/v1/auth/oauth/callback/github?code=${secrets.oauth_callback_code}&state=journey`);
  secrets.unparsable_body_password = secretText('unparsable-body-password');
  await fetch(`${server.baseUrl}/api/v1/auth/password/sign-in`, {
    method: 'POST',
    headers: { ...headers.client, 'content-type': 'application/json' },
    body: `{"email": "${email}", "password": "${secrets.unparsable_body_password}`,
  });

  for (const [name, value] of Object.entries(secrets)) expect(value, name).toMatch(/.{6,}/);
  return secrets;
}
