import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { withTestContext } from '@gatehouse/testing/test-context';
import { EmailPasswordMismatchError, UserAuthenticationRequiredError } from '../errors.ts';
import { createMemoryTokenStore } from '../token-store/memory-token-store.ts';
import { type ClientAppOptions, createClientApp } from './client-app.ts';

/** The client app against the real server over HTTP. */
const env = withTestContext({
  listen: true,
  projectConfig: {
    'auth.allowAnonymousSignUp': true,
    'auth.password.allowSignIn': true,
    'auth.otp.allowSignIn': true,
    'teams.allowClientTeamCreation': true,
    'apiKeys.enabled.user': true,
    'users.allowClientUserDeletion': true,
    'domains.trustedDomains': { app: { baseUrl: 'https://app.example.com', handlerPath: '/handler' } },
  },
});

const password = 'correct horse battery';
const newEmail = (label: string) => `${label}-${randomUUID().slice(0, 8)}@example.com`;
const newApp = (options: Partial<ClientAppOptions> = {}) =>
  createClientApp({
    baseUrl: env.baseUrl,
    projectId: env.project.project.id,
    publishableClientKey: env.project.keys.publishable_client_key,
    ...options,
  });

/** A fetch that counts the requests to one path. */
function countingFetch(pathSuffix: string) {
  const counter = { count: 0 };
  const fetchImpl: typeof fetch = (input, init) => {
    const request = new Request(input, init);
    if (new URL(request.url).pathname.endsWith(pathSuffix)) counter.count++;
    return fetch(request);
  };
  return { counter, fetch: fetchImpl };
}

describe('createClientApp against the server', () => {
  it('signs up, updates the user, creates and lists a team, and signs out (revoking the session)', async () => {
    const app = newApp();
    expect(await app.getUser()).toBeNull();
    const email = newEmail('ada');
    const signedUp = await app.signUpWithPassword({ email, password });

    const user = await app.getUser({ or: 'throw' });
    expect(user).toMatchObject({ id: signedUp.user_id, primary_email: email, is_anonymous: false, has_password: true });
    const renamed = await user.update({ display_name: 'Ada Lovelace' });
    expect(renamed.display_name).toBe('Ada Lovelace');
    expect(user.display_name).toBeNull();
    expect((await app.getUser())?.display_name).toBe('Ada Lovelace');

    const team = await renamed.createTeam({ display_name: 'Analytical Engines' });
    expect(team.display_name).toBe('Analytical Engines');
    expect((await renamed.listTeams()).map((listed) => listed.id)).toEqual([team.id]);
    expect((await renamed.getTeam(team.id))?.display_name).toBe('Analytical Engines');
    expect(await renamed.getTeam(randomUUID())).toBeNull();
    expect((await team.update({ display_name: 'Difference Engines' })).display_name).toBe('Difference Engines');
    expect((await renamed.setSelectedTeam(team)).selected_team_id).toBe(team.id);

    const tokens = app.getTokens();
    await app.signOut();
    expect(app.getTokens()).toEqual({});
    expect(await app.getUser()).toBeNull();
    await expect(app.getUser({ or: 'throw' })).rejects.toBeInstanceOf(UserAuthenticationRequiredError);
    await expect(app.getUser({ or: 'throw' })).rejects.toThrow("User is not signed in but getUser was called with { or: 'throw' }");
    // The server forgot the session too: its refresh token no longer brings the user back.
    const stale = newApp({ tokenStore: createMemoryTokenStore({ refreshToken: tokens.refreshToken }) });
    expect(await stale.getUser()).toBeNull();
  });

  it('raises the typed error for a wrong password or an unknown email, and stays signed out', async () => {
    const email = newEmail('wrong');
    await newApp().signUpWithPassword({ email, password });
    const app = newApp();
    const wrong = await app.signInWithPassword({ email, password: 'not the password' }).catch((error: unknown) => error);
    expect(wrong).toBeInstanceOf(EmailPasswordMismatchError);
    expect(wrong).toMatchObject({ code: 'EMAIL_PASSWORD_MISMATCH', status: 400 });
    await expect(app.signInWithPassword({ email: newEmail('nobody'), password })).rejects.toBeInstanceOf(EmailPasswordMismatchError);
    expect(app.getTokens()).toEqual({});
    await app.signInWithPassword({ email, password });
    expect((await app.getUser())?.primary_email).toBe(email);
  });

  it('signs up an anonymous user only on demand, once for 20 concurrent callers, and upgrades it in place', async () => {
    const { counter, fetch } = countingFetch('/auth/anonymous/sign-up');
    const app = newApp({ fetch });
    expect(await app.getUser()).toBeNull();
    expect(counter.count).toBe(0);

    const users = await Promise.all(Array.from({ length: 20 }, () => app.getUser({ or: 'anonymous' })));
    expect(counter.count).toBe(1);
    expect(new Set(users.map((user) => user.id)).size).toBe(1);
    expect(users[0]?.is_anonymous).toBe(true);
    // Anonymous users are nobody unless asked for.
    expect(await app.getUser()).toBeNull();
    await expect(app.getUser({ or: 'throw' })).rejects.toBeInstanceOf(UserAuthenticationRequiredError);
    expect((await app.getUser({ or: 'anonymous' })).id).toBe(users[0]?.id);
    expect(counter.count).toBe(1);

    const email = newEmail('upgraded');
    await app.signUpWithPassword({ email, password });
    expect(await app.getUser()).toMatchObject({ id: users[0]?.id, primary_email: email, is_anonymous: false });
    await app.signOut();
    await app.getUser({ or: 'anonymous' });
    expect(counter.count).toBe(2);
  });

  it('signs in with a magic link, and with the emailed code plus the nonce', async () => {
    const callbackUrl = 'https://app.example.com/handler/magic-link-callback';
    const email = newEmail('magic');
    const app = newApp();
    await app.sendMagicLink(email, { callbackUrl });
    const signedIn = await app.signInWithMagicLink(env.context.codeSentTo(email));
    expect(signedIn.is_new_user).toBe(true);
    expect((await app.getUser())?.primary_email).toBe(email);

    const other = newApp();
    const { nonce } = await other.sendMagicLink(email, { callbackUrl });
    const otp = env.context.codeSentTo(email).slice(0, 6);
    expect((await other.signInWithMagicLink(otp + nonce)).user_id).toBe(signedIn.user_id);
  });

  it("manages the user's permissions, contact channels, sessions and API keys", async () => {
    const email = newEmail('grace');
    const app = newApp();
    await app.signUpWithPassword({ email, password });
    const user = await app.getUser({ or: 'throw' });

    const team = await user.createTeam({ display_name: 'Compilers' });
    expect(await user.hasPermission(team, '$invite_members')).toBe(true);
    expect(await user.hasPermission(team.id, 'team_admin')).toBe(true);
    expect(await user.hasPermission('team_admin')).toBe(false);
    expect((await user.listPermissions(team)).map((permission) => permission.id)).toContain('$update_team');
    expect((await user.listPermissions(team, { recursive: false })).map((permission) => permission.id)).toEqual(['team_admin']);
    expect(await user.listPermissions()).toEqual([]);
    expect((await team.listMembers()).map((member) => member.user_id)).toEqual([user.id]);

    const channel = await user.createContactChannel({ value: newEmail('grace-work'), used_for_auth: false });
    expect(channel).toMatchObject({ type: 'email', is_verified: false, used_for_auth: false });
    expect((await user.listContactChannels()).map((listed) => listed.value).sort()).toEqual([email, channel.value].sort());
    expect((await channel.update({ used_for_auth: true })).used_for_auth).toBe(true);
    await channel.delete();
    expect((await user.listContactChannels()).map((listed) => listed.value)).toEqual([email]);

    const laptop = newApp();
    await laptop.signInWithPassword({ email, password });
    const sessions = await user.listSessions();
    expect(sessions).toHaveLength(2);
    const other = sessions.find((session) => !session.is_current_session)!;
    await user.revokeSession(other.id);
    expect((await user.listSessions()).map((session) => session.is_current_session)).toEqual([true]);
    // Signing out of a session the server already ended just forgets it.
    await laptop.signOut();
    expect(laptop.getTokens()).toEqual({});

    const created = await user.createApiKey({ description: 'ci' });
    expect(created.value).toMatch(/^sk_/);
    const [listed] = await user.listApiKeys();
    expect(listed).toMatchObject({ id: created.id, description: 'ci', value: { last_four: created.value.slice(-4) } });
    expect((await listed!.revoke()).manually_revoked_at_millis).toEqual(expect.any(Number));
  });

  it('updates the password keeping this session, and deletes the user', async () => {
    const email = newEmail('pw');
    const app = newApp();
    await app.signUpWithPassword({ email, password });
    const user = await app.getUser({ or: 'throw' });
    await user.updatePassword({ oldPassword: password, newPassword: 'a new horse battery' });
    await expect(newApp().signInWithPassword({ email, password })).rejects.toBeInstanceOf(EmailPasswordMismatchError);
    expect((await app.getUser())?.id).toBe(user.id);

    await user.delete();
    expect(app.getTokens()).toEqual({});
    await expect(newApp().signInWithPassword({ email, password: 'a new horse battery' })).rejects.toBeInstanceOf(
      EmailPasswordMismatchError,
    );
  });
});
