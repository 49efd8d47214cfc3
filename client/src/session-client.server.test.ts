import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { withTestContext } from '@gatehouse/testing/test-context';
import { createSessionClient } from './session-client.ts';
import { createMemoryTokenStore } from './token-store/memory-token-store.ts';

/** The same client against the real server over HTTP: sign-up, refresh on rejection, session end. */
const env = withTestContext({ listen: true, projectConfig: { 'auth.password.allowSignIn': true } });

describe('createSessionClient against the server', () => {
  it('signs up, repairs a rejected access token by refreshing, and ends when the session is revoked', async () => {
    const options = {
      baseUrl: env.baseUrl,
      projectId: env.project.project.id,
      accessType: 'client' as const,
      publishableClientKey: env.project.keys.publishable_client_key,
      locks: null,
      broadcastChannel: null,
    };
    const client = createSessionClient(options);
    expect(client.session.isInvalid).toBe(true);
    const email = `session-${randomUUID().slice(0, 8)}@example.com`;
    const signedUp = await client.call('signUpWithPassword', { body: { email, password: 'correct horse battery' } });
    client.session.setTokens({ accessToken: signedUp.access_token, refreshToken: signedUp.refresh_token });
    expect((await client.call('getCurrentUser')).primary_email).toBe(email);

    client.session.setTokens({ accessToken: 'not-a-jwt', refreshToken: signedUp.refresh_token });
    expect((await client.call('getCurrentUser')).primary_email).toBe(email);
    const repaired = client.session.getTokens().accessToken;
    expect(repaired).not.toBe('not-a-jwt');
    expect(repaired?.split('.')).toHaveLength(3);

    // A second client of the same session revokes it; the first finds out on its next refresh.
    const other = createSessionClient({ ...options, tokenStore: createMemoryTokenStore(client.session.getTokens()) });
    await other.call('deleteCurrentSession');
    client.session.markAccessTokenExpired(repaired!);
    expect(await client.session.refresh()).toBeUndefined();
    expect(client.session.isInvalid).toBe(true);
    expect(client.session.getTokens()).toEqual({});
  });
});
