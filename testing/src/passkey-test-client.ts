import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { type CeremonyOverrides, SoftwareAuthenticator, type StoredCredential } from './software-authenticator.ts';
import type { TestEnvironment, TestProject } from './test-context.ts';
import type { UserWrite } from '@gatehouse/server/src/modules/identity/users/user-writes.ts';

/** The page the tests' browser is on: a trusted domain whose base URL has a path (origins ignore it). */
export const hostname = 'app.example.com';
export const origin = `https://${hostname}`;
export const passkeyProjectConfig = {
  'auth.passkey.allowSignIn': true,
  'domains.trustedDomains': { app: { baseUrl: `${origin}/app`, handlerPath: '/handler' } },
};

type Options = { challenge: string; rp: { id: string; name: string }; user: { id: string } };
type CeremonyOptions = { host?: string; overrides?: CeremonyOverrides };

/** The passkey endpoints as the Stack client calls them, with a software authenticator as the browser. */
export function passkeyClient(env: TestEnvironment) {
  const post = (path: string, headers: Record<string, string>, payload: object = {}) =>
    env.context.request({ method: 'POST', url: `/api/v1/auth/passkey/${path}`, headers, payload });

  async function initiateRegistration(headers: Record<string, string>) {
    const response = await post('initiate-passkey-registration', headers);
    expect(response.status, response.text).toBe(200);
    return response.body as { options_json: Options & Record<string, unknown>; code: string };
  }

  async function initiateAuthentication(project: TestProject = env.project) {
    const response = await post('initiate-passkey-authentication', project.headers.client);
    expect(response.status, response.text).toBe(200);
    return response.body as { options_json: { challenge: string; rpId: string } & Record<string, unknown>; code: string };
  }

  return {
    post,
    initiateRegistration,
    initiateAuthentication,

    /** A user of the project and client headers carrying its access token. */
    async signedInUser(project: TestProject = env.project, write: UserWrite = {}) {
      const email = `passkey-${randomUUID().slice(0, 8)}@example.com`;
      const user = await env.context.services.users.create(
        project.project,
        { primary_email: email, primary_email_verified: true, ...write },
        'server',
      );
      const { access_token } = await env.context.services.signIn.signIn(project.project, user);
      return { user, headers: { ...project.headers.client, 'x-stack-access-token': access_token } };
    },

    /** Initiates, lets the authenticator create a credential for `host` (the client's rp id), and registers it. */
    async register(
      authenticator: SoftwareAuthenticator,
      headers: Record<string, string>,
      { host = hostname, overrides }: CeremonyOptions = {},
    ) {
      const { options_json, code } = await initiateRegistration(headers);
      const { response: credential, credential: stored } = authenticator.register(
        { ...options_json, rp: { ...options_json.rp, id: host } },
        { origin: `https://${host}`, ...overrides },
      );
      return { response: await post('register', headers, { credential, code }), credential, stored, code };
    },

    /** Initiates, lets the authenticator sign with `credential`, and signs in. */
    async signIn(
      authenticator: SoftwareAuthenticator,
      {
        credential,
        host = hostname,
        overrides,
        project = env.project,
      }: CeremonyOptions & { credential?: StoredCredential; project?: TestProject } = {},
    ) {
      const { options_json, code } = await initiateAuthentication(project);
      const assertion = authenticator.authenticate({ ...options_json, rpId: host }, credential, {
        origin: `https://${host}`,
        ...overrides,
      });
      return { response: await post('sign-in', project.headers.client, { authentication_response: assertion, code }), assertion, code };
    },
  };
}

/** A fresh authenticator holding one credential registered for a new user. */
export async function userWithPasskey(client: ReturnType<typeof passkeyClient>, project?: TestProject, write?: UserWrite) {
  const { user, headers } = await client.signedInUser(project, write);
  const authenticator = new SoftwareAuthenticator();
  const { response, stored } = await client.register(authenticator, headers);
  expect(response.status, response.text).toBe(200);
  return { user, headers, authenticator, credential: stored };
}
