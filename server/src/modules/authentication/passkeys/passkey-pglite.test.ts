import { describe, expect, it } from 'vitest';
import { SoftwareAuthenticator } from '@gatehouse/testing/software-authenticator';
import { withTestContext } from '@gatehouse/testing/test-context';
import { passkeyClient, passkeyProjectConfig, userWithPasskey } from '@gatehouse/testing/passkey-test-client';

/** The embedded database `pnpm start` uses by default: bytea keys, int8 counters, used-up challenge codes. */
const env = withTestContext({ database: 'pglite', projectConfig: passkeyProjectConfig });
const client = passkeyClient(env);

describe('passkeys on PGlite', () => {
  it('registers, signs in, refuses a replayed counter, and uses each challenge code once', async () => {
    const { user, headers, authenticator } = await userWithPasskey(client);
    expect((await env.context.request({ url: '/api/v1/users/me', headers })).body.passkey_auth_enabled).toBe(true);
    const first = await client.signIn(authenticator, { overrides: { counter: 7 } });
    expect(first.response.body.user_id).toBe(user.id);
    const again = await client.post('sign-in', env.project.headers.client, { authentication_response: first.assertion, code: first.code });
    expect(again.body.code).toBe('VERIFICATION_CODE_ALREADY_USED');
    expect((await client.signIn(authenticator, { overrides: { counter: 7 } })).response.body.code).toBe('PASSKEY_AUTHENTICATION_FAILED');
    expect((await client.signIn(authenticator, { overrides: { counter: 8 } })).response.status).toBe(200);
    expect((await client.register(new SoftwareAuthenticator(), headers)).response.status).toBe(200);
  });
});
