import { randomUUID } from 'node:crypto';
import { beforeAll } from 'vitest';
import { type TestProject, withTestContext } from './test-context.ts';

const trustedDomains = { app: { baseUrl: 'https://app.example.com', handlerPath: '/handler' } };

/**
 * The setup the password and anonymous sign-in test files share: a project with password sign-in,
 * anonymous sign-up and a trusted app domain, three projects with one of them off, and request helpers.
 * Call once per file, at its top level (it registers beforeAll/afterAll).
 */
export function passwordAuthFixture() {
  const env = withTestContext({
    projectConfig: { 'auth.password.allowSignIn': true, 'auth.allowAnonymousSignUp': true, 'domains.trustedDomains': trustedDomains },
  });
  const password = 'correct horse battery';
  /** Projects with password sign-in, sign-up or anonymous sign-up off; read inside tests (made in beforeAll). */
  const projects = {} as { passwordOff: TestProject; signUpOff: TestProject; anonymousOff: TestProject };
  beforeAll(async () => {
    const { context } = env;
    projects.passwordOff = await context.createProject({ 'auth.password.allowSignIn': false, 'domains.trustedDomains': trustedDomains });
    projects.signUpOff = await context.createProject({ 'auth.password.allowSignIn': true, 'auth.allowSignUp': false });
    projects.anonymousOff = await context.createProject({ 'auth.allowAnonymousSignUp': false });
  });

  const newEmail = (label: string) => `${label}-${randomUUID().slice(0, 8)}@example.com`;
  const client = (project: TestProject = env.project) => project.headers.client;
  const asUser = (accessToken: string, extra: Record<string, string> = {}) => ({
    ...client(),
    'x-stack-access-token': accessToken,
    ...extra,
  });
  const post = (url: string, payload: object, headers: Record<string, string> = client()) =>
    env.context.request({ method: 'POST', url: `/api/v1/auth${url}`, headers, payload });
  const signUp = (email: string, pass = password, extra: object = {}) =>
    env.context.request({
      method: 'POST',
      url: '/api/v1/auth/password/sign-up',
      headers: client(),
      payload: { email, password: pass, ...extra },
      operation: 'signUpWithPassword',
    });
  const signIn = (email: string, pass = password) =>
    env.context.request({
      method: 'POST',
      url: '/api/v1/auth/password/sign-in',
      headers: client(),
      payload: { email, password: pass },
      operation: 'signInWithPassword',
    });
  const me = (accessToken: string, extra: Record<string, string> = {}) =>
    env.context.request({ url: '/api/v1/users/me', headers: asUser(accessToken, extra), operation: 'getCurrentUser' });
  /** The status of refreshing a session: 200 while it lives, 401 once it has ended. */
  const refreshStatus = async (refreshToken: string) =>
    (await post('/sessions/current/refresh', {}, { ...client(), 'x-stack-refresh-token': refreshToken })).status;
  const emailsTo = (address: string) => env.context.sentEmails.filter((email) => email.to === address);

  /** A user with a password, made through the service (one hash), and a session of it. */
  async function passwordUser(project: TestProject = env.project, pass: string | null = password) {
    const email = newEmail('user');
    const user = await env.context.services.users.create(
      project.project,
      { primary_email: email, primary_email_auth_enabled: true, ...(pass ? { password: pass } : {}) },
      'server',
    );
    return { email, user, tokens: await env.context.services.signIn.signIn(project.project, user) };
  }

  return {
    env,
    projects,
    password,
    callback: 'https://app.example.com/handler/callback',
    untrusted: 'https://evil.example.org/handler/callback',
    newEmail,
    client,
    asUser,
    post,
    signUp,
    signIn,
    me,
    refreshStatus,
    emailsTo,
    passwordUser,
  };
}
