import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { TestContext, TestProject } from './test-context.ts';
import { testPublicUrl } from './test-context.ts';

/** Requests as a browser at the server's public URL would send them (the provider builds its URLs from the host). */
export const publicHost = { host: new URL(testPublicUrl).host };
export const oauthPath = (projectId: string, rest: string) => `/api/v1/projects/${projectId}/oauth${rest}`;

export function pkcePair() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export const basicAuth = (clientId: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`;

export async function createApplication(context: TestContext, project: TestProject, body: Record<string, unknown>) {
  const response = await context.request({
    method: 'POST',
    url: '/api/v1/internal/oauth-applications',
    headers: project.headers.admin,
    payload: body,
  });
  expect(response.status, response.text).toBe(201);
  return response.body as { client_id: string; client_secret: string | null };
}

export async function signedInUser(context: TestContext, project: TestProject) {
  const user = await context.services.users.create(
    project.project,
    { primary_email: `idp-${randomUUID().slice(0, 8)}@example.com`, primary_email_verified: true, display_name: 'Ada' },
    'server',
  );
  const tokens = await context.services.signIn.signIn(project.project, user);
  return { user, headers: { ...project.headers.client, 'x-stack-access-token': tokens.access_token } };
}

/** A cookie jar for `app.inject`: what the provider set, sent back on every later request. */
export function cookieJar() {
  const cookies = new Map<string, string>();
  return {
    storeSetCookie(header: string | string[] | number | undefined) {
      for (const line of [header ?? []].flat()) {
        const [pair = ''] = String(line).split(';');
        const separator = pair.indexOf('=');
        cookies.set(pair.slice(0, separator), pair.slice(separator + 1));
      }
    },
    header: () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
  };
}

/**
 * The authorization code flow through the consent API, as the handler's page runs it: the authorization request,
 * the consent answered by the signed-in user, the browser's return; answers the redirect to the application.
 */
export async function authorize(
  context: TestContext,
  project: TestProject,
  params: Record<string, string>,
  userHeaders: Record<string, string>,
  allow = true,
): Promise<URL> {
  const jar = cookieJar();
  const start = await context.request({
    method: 'GET',
    url: `${oauthPath(project.project.id, '/auth')}?${new URLSearchParams(params)}`,
    headers: publicHost,
  });
  expect(start.status, start.text).toBe(303);
  jar.storeSetCookie(start.headers['set-cookie']);
  const interaction = new URL(start.headers.location as string).searchParams.get('interaction') as string;
  const answer = await context.request({
    method: 'POST',
    url: `/api/v1/oauth-provider/interactions/${interaction}`,
    headers: userHeaders,
    payload: { allow },
  });
  expect(answer.status, answer.text).toBe(200);
  const resume = await context.request({
    method: 'GET',
    url: ((next) => next.pathname + next.search)(new URL(answer.body.redirect_to)),
    headers: { ...publicHost, cookie: jar.header() },
  });
  expect(resume.status, resume.text).toBe(303);
  return new URL(resume.headers.location as string);
}
