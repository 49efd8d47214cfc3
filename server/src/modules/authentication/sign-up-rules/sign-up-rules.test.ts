import { randomBytes, randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContractResponse } from '@gatehouse/testing/contract';
import { expectError } from '@gatehouse/testing/expect-response';
import { type MockProvider, startMockProvider } from '@gatehouse/testing/mock-oauth-provider';
import { oauthFlows, ownKeys, trustedDomains } from '@gatehouse/testing/oauth-test-flow';
import { type TestProject, withTestContext } from '@gatehouse/testing/test-context';
import type { OAuthSettings } from '../oauth/oauth-settings.ts';

/**
 * Sign-up rules on every sign-up path (password, OTP, OAuth GET and form callbacks, an anonymous
 * user signing up), one project per action: the rule matches emails starting with `hit-`, so each
 * path shows the action taken on a hit and nothing on a miss.
 */
let mock: MockProvider;
const oauth: OAuthSettings = { endpoints: {}, sharedKeys: {} };
beforeAll(async () => {
  mock = await startMockProvider();
  oauth.endpoints = { google: mock.endpoints() };
});
afterAll(() => mock.stop());

const baseConfig = {
  'auth.password.allowSignIn': true,
  'auth.otp.allowSignIn': true,
  'auth.allowAnonymousSignUp': true,
  'auth.oauth.providers': { google: ownKeys('google') },
  'domains.trustedDomains': trustedDomains,
};
const env = withTestContext({ projectConfig: baseConfig, oauth });
const flows = oauthFlows(env);
const callbackUrl = 'https://app.example.com/handler/magic-link-callback';

// Letters only: the risk score counts earlier sign-ups whose address has the same letters once digits
// are dropped, so a hex suffix of mostly digits made two test addresses lookalikes (~1 run in 200).
const randomLetters = () => Array.from(randomBytes(12), (byte) => String.fromCharCode(97 + (byte % 26))).join('');
const newEmail = (label: string) => `${label}-${randomLetters()}@example.com`;
const rule = (action: Record<string, unknown>, condition = 'email.startsWith("hit-")', priority = 0) => ({
  enabled: true,
  displayName: `The ${action.type} rule`,
  priority,
  condition,
  action,
});
const projectWithRules = (rules: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  env.context.createProject({ ...baseConfig, 'auth.signUpRules': rules, ...extra });

type Outcome = ContractResponse & { userId?: string };
type SignUp = (project: TestProject, email: string) => Promise<Outcome>;

/** Each path signs `email` up and answers the final response and the new user's id (when there is one). */
const paths = {
  password: async (project, email) => {
    const response = await env.context.request({
      method: 'POST',
      url: '/api/v1/auth/password/sign-up',
      headers: project.headers.client,
      payload: { email, password: 'correct horse battery' },
    });
    return { ...response, userId: response.body.user_id };
  },
  otp: async (project, email) => {
    const sent = await env.context.request({
      method: 'POST',
      url: '/api/v1/auth/otp/send-sign-in-code',
      headers: project.headers.client,
      payload: { email, callback_url: callbackUrl },
    });
    expect(sent.status, sent.text).toBe(200);
    const response = await env.context.request({
      method: 'POST',
      url: '/api/v1/auth/otp/sign-in',
      headers: project.headers.client,
      payload: { code: env.context.codeSentTo(email) },
    });
    return { ...response, userId: response.body.user_id };
  },
  oauth: async (project, email) => {
    mock.state.profile = { sub: randomUUID(), email, email_verified: true, name: 'Ada' };
    const started = await flows.toProvider({ project });
    const response = await flows.callback(started.callback, started.cookie);
    if (response.status !== 303) return response;
    const code = new URL(String(response.headers.location)).searchParams.get('code') as string;
    const tokens = await flows.exchange(project, code, started.verifier);
    // The token endpoint's answer carries no user_id: the user is the access token's subject.
    return { ...tokens, userId: tokens.status === 200 ? decodeJwt(tokens.body.access_token).sub : undefined };
  },
  'oauth (form callback)': async (project, email) => {
    mock.state.profile = { sub: randomUUID(), email, email_verified: true, name: 'Ada' };
    const started = await flows.toProvider({ project });
    const response = await env.context.request({
      method: 'POST',
      url: started.callback.pathname,
      headers: { cookie: started.cookie as string, 'content-type': 'application/x-www-form-urlencoded' },
      payload: started.callback.searchParams.toString(),
    });
    return { ...response, status: response.status === 303 ? 200 : response.status };
  },
  'anonymous upgrade': async (project, email) => {
    const anonymous = await env.context.request({
      method: 'POST',
      url: '/api/v1/auth/anonymous/sign-up',
      headers: project.headers.client,
      payload: {},
    });
    const response = await env.context.request({
      method: 'POST',
      url: '/api/v1/auth/password/sign-up',
      headers: { ...project.headers.client, 'x-stack-access-token': anonymous.body.access_token, 'x-stack-allow-anonymous-user': 'true' },
      payload: { email, password: 'correct horse battery' },
    });
    if (response.status === 200) expect(response.body.user_id).toBe(anonymous.body.user_id);
    return { ...response, userId: anonymous.body.user_id };
  },
} satisfies Record<string, SignUp>;

const userOf = (project: TestProject, userId: string) => env.context.services.users.get(project.project.id, userId);
const userByEmail = (project: TestProject, email: string) => env.context.services.users.findByAuthEmail(project.project.id, email);

describe.each(Object.entries(paths) as Array<[string, SignUp]>)('sign-up rules on the %s path', (_path, signUp) => {
  it('reject: SIGN_UP_REJECTED with the rule message, no user; a miss signs up', async () => {
    const project = await projectWithRules({ block: rule({ type: 'reject', message: 'No hits here.' }) });
    const email = newEmail('hit');
    const rejected = await signUp(project, email);
    expectError(rejected, 403, 'SIGN_UP_REJECTED', { message: 'No hits here.' });
    expect(rejected.body.error).toBe('No hits here.');
    expect(await userByEmail(project, email)).toBeUndefined();
    expect((await signUp(project, newEmail('miss'))).status).toBe(200);
  });

  it('restrict: the user is created restricted by admin, the rule named in the private details', async () => {
    const project = await projectWithRules({ hold: rule({ type: 'restrict' }) });
    const email = newEmail('hit');
    expect((await signUp(project, email)).status).toBe(200);
    const user = (await userByEmail(project, email)) ?? undefined;
    expect(user?.restricted_by_admin).toBe(true);
    expect(user?.restricted_by_admin_private_details).toBe('Restricted by sign-up rule: hold (The restrict rule)');
    const other = await userByEmail(project, await signUpMiss(project, signUp));
    expect(other?.restricted_by_admin).toBe(false);
  });

  it('log: the sign-up goes through unchanged and the match is counted', async () => {
    const project = await projectWithRules({ watch: rule({ type: 'log' }) });
    const email = newEmail('hit');
    expect((await signUp(project, email)).status).toBe(200);
    expect((await userByEmail(project, email))?.restricted_by_admin).toBe(false);
    await signUpMiss(project, signUp);
    const stats = await env.context.request({ url: '/api/v1/internal/sign-up-rules-stats', headers: project.headers.admin });
    expect(stats.body).toMatchObject({ total_triggers: 1, triggers_by_action: { log: 1, allow: 0, reject: 0, restrict: 0 } });
  });

  it('rule metadata: matched rules merge their serverMetadata into the new user (restricted too); a miss gets none', async () => {
    const project = await projectWithRules({
      tag: rule({ type: 'log', serverMetadata: { cohort: 'hits', rule: 'tag' } }, 'email.startsWith("hit-")', 1),
      hold: rule({ type: 'restrict', serverMetadata: { rule: 'hold', held: true } }, 'email.startsWith("hit-")', 2),
    });
    const email = newEmail('hit');
    expect((await signUp(project, email)).status).toBe(200);
    const user = await userByEmail(project, email);
    // The earlier (higher-priority) rule keeps the key both set.
    expect(user?.server_metadata).toEqual({ cohort: 'hits', rule: 'tag', held: true });
    expect(user?.restricted_by_admin).toBe(true);
    expect((await userByEmail(project, await signUpMiss(project, signUp)))?.server_metadata ?? null).toBeNull();
  });

  it('allow: a hit passes a default of reject, a miss gets the default rejection', async () => {
    const project = await projectWithRules({ vip: rule({ type: 'allow' }) }, { 'auth.signUpRulesDefaultAction': 'reject' });
    expect((await signUp(project, newEmail('hit'))).status).toBe(200);
    const missed = await signUp(project, newEmail('miss'));
    expectError(missed, 403, 'SIGN_UP_REJECTED', { message: 'Your sign up was rejected. Please contact us for more information.' });
  });
});

async function signUpMiss(project: TestProject, signUp: SignUp): Promise<string> {
  const email = newEmail('miss');
  expect((await signUp(project, email)).status).toBe(200);
  return email;
}

describe('which sign-ups the rules judge, and how', () => {
  it('sees Stack variables: authMethod, oauthProvider, emailDomain (lower case), riskScores (0 until scored)', async () => {
    const project = await projectWithRules({
      google: rule({ type: 'reject', message: 'google' }, 'authMethod == "oauth" && oauthProvider == "google"'),
      domain: rule({ type: 'reject', message: 'domain' }, 'authMethod == "password" && emailDomain == "blocked.example"'),
      risky: rule({ type: 'reject', message: 'risky' }, 'riskScores.bot > 0 || riskScores.free_trial_abuse > 0'),
    });
    expectError(await paths.oauth(project, newEmail('any')), 403, 'SIGN_UP_REJECTED', { message: 'google' });
    const blocked = `someone-${randomUUID().slice(0, 8)}@Blocked.EXAMPLE`;
    expectError(await paths.password(project, blocked), 403, 'SIGN_UP_REJECTED', { message: 'domain' });
    expect((await paths.password(project, newEmail('any'))).status).toBe(200);
  });

  it('does not judge an anonymous sign-up or a server-side create', async () => {
    const project = await projectWithRules({ everyone: rule({ type: 'reject' }, 'true') });
    const anonymous = await env.context.request({
      method: 'POST',
      url: '/api/v1/auth/anonymous/sign-up',
      headers: project.headers.client,
      payload: {},
    });
    expect(anonymous.status).toBe(200);
    const created = await env.context.request({
      method: 'POST',
      url: '/api/v1/users',
      headers: project.headers.server,
      payload: { primary_email: newEmail('server'), primary_email_auth_enabled: true },
    });
    expect(created.status).toBe(201);
  });

  it('orders by priority (lower first), then by id; disabled rules and rules without a condition are skipped', async () => {
    const project = await projectWithRules({
      'zzz-allow': rule({ type: 'allow' }, 'true', 0),
      'aaa-reject': rule({ type: 'reject', message: 'aaa' }, 'email.startsWith("tie-")', 0),
      early: { ...rule({ type: 'reject', message: 'disabled' }, 'true', -5), enabled: false },
      empty: { ...rule({ type: 'reject', message: 'empty' }, '', -4) },
      late: rule({ type: 'reject', message: 'late' }, 'true', 10),
    });
    expectError(await paths.password(project, newEmail('tie')), 403, 'SIGN_UP_REJECTED', { message: 'aaa' });
    expect((await paths.password(project, newEmail('other'))).status).toBe(200);
  });

  it('keeps evaluating after restrict and log; a later reject still rejects and every match is counted', async () => {
    const project = await projectWithRules({
      first: rule({ type: 'restrict' }, 'true', 1),
      second: rule({ type: 'log' }, 'true', 2),
      third: rule({ type: 'reject', message: 'third' }, 'email.startsWith("hit-")', 3),
    });
    expectError(await paths.password(project, newEmail('hit')), 403, 'SIGN_UP_REJECTED', { message: 'third' });
    const email = newEmail('miss');
    expect((await paths.password(project, email)).status).toBe(200);
    expect((await userByEmail(project, email))?.restricted_by_admin).toBe(true);
    const stats = await env.context.request({ url: '/api/v1/internal/sign-up-rules-stats', headers: project.headers.admin });
    expect(stats.status).toBe(200);
    expect(stats.body.triggers_by_action).toEqual({ allow: 0, reject: 1, restrict: 2, log: 2 });
    expect(stats.body.total_triggers).toBe(5);
    const first = stats.body.rule_triggers.find((entry: { rule_id: string }) => entry.rule_id === 'first');
    expect(first.total_count).toBe(2);
    expect(first.hourly_counts).toHaveLength(48);
    expect(first.hourly_counts.at(-1)).toEqual({ hour: `${new Date().toISOString().slice(0, 13)}:00:00.000Z`, count: 2 });
    expect(stats.body.analytics_hours).toBe(48);
  });

  it('does not count a sign-up that failed for another reason (an email already taken)', async () => {
    const project = await projectWithRules({ watch: rule({ type: 'log' }, 'true') });
    const email = newEmail('taken');
    expect((await paths.password(project, email)).status).toBe(200);
    expect((await paths.password(project, email)).status).toBe(409);
    const stats = await env.context.request({ url: '/api/v1/internal/sign-up-rules-stats', headers: project.headers.admin });
    expect(stats.body.total_triggers).toBe(1);
  });

  it('userOf reads the restricted user through the API as restricted', async () => {
    const project = await projectWithRules({ hold: rule({ type: 'restrict' }, 'true') });
    const outcome = await paths.password(project, newEmail('api'));
    const user = await userOf(project, outcome.userId as string);
    const read = await env.context.request({ url: `/api/v1/users/${user.id}`, headers: project.headers.server });
    expect(read.body).toMatchObject({
      is_restricted: true,
      restricted_by_admin: true,
      restricted_reason: { type: 'restricted_by_administrator' },
    });
  });
});

describe('a sign-in code whose sign-up the rules reject', () => {
  it('is not used up: the same code signs up once the rule is turned off, and only once', async () => {
    const project = await projectWithRules({ block: rule({ type: 'reject', message: 'Not yet.' }) });
    const email = newEmail('hit');
    const sent = await env.context.request({
      method: 'POST',
      url: '/api/v1/auth/otp/send-sign-in-code',
      headers: project.headers.client,
      payload: { email, callback_url: callbackUrl },
    });
    expect(sent.status, sent.text).toBe(200);
    const code = env.context.codeSentTo(email);
    const signIn = () =>
      env.context.request({ method: 'POST', url: '/api/v1/auth/otp/sign-in', headers: project.headers.client, payload: { code } });

    expectError(await signIn(), 403, 'SIGN_UP_REJECTED', { message: 'Not yet.' });
    expectError(await signIn(), 403, 'SIGN_UP_REJECTED', { message: 'Not yet.' });
    expect(await userByEmail(project, email)).toBeUndefined();

    const { services } = env.context;
    await services.projects.replaceConfigOverride(project.project.id, { ...project.project.config_override, 'auth.signUpRules': {} });
    const admitted = await signIn();
    expect(admitted.status, admitted.text).toBe(200);
    expect(admitted.body.is_new_user).toBe(true);
    expect((await userByEmail(project, email))?.id).toBe(admitted.body.user_id);
    const again = await signIn();
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('VERIFICATION_CODE_ALREADY_USED');
  });
});
