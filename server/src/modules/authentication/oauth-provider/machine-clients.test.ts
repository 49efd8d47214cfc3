import { createRemoteJWKSet, errors, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { withTestContext } from '@gatehouse/testing/test-context';
import { basicAuth, createApplication, oauthPath } from '@gatehouse/testing/oauth-provider-testing';

/**
 * Machine-to-machine: a confidential application gets a JWT access token with client credentials over real HTTP,
 * and an API (a few lines of `jose`, as a customer would write it) checks it against the project's JWKS, its
 * audience and its scopes.
 */
const env = withTestContext({ listen: true });
const api = 'https://api.example.com/';

/** The customer's API: verifies the bearer token and requires a scope. */
function protectedApi(issuer: string, jwksUri: string) {
  const keys = createRemoteJWKSet(new URL(jwksUri));
  return async (authorization: string | undefined, requiredScope: string): Promise<number> => {
    if (!authorization?.startsWith('Bearer ')) return 401;
    try {
      const { payload } = await jwtVerify(authorization.slice(7), keys, { issuer, audience: api, algorithms: ['ES256'] });
      return String(payload.scope ?? '')
        .split(' ')
        .includes(requiredScope)
        ? 200
        : 403;
    } catch (error) {
      if (error instanceof errors.JOSEError) return 401;
      throw error;
    }
  };
}

async function clientCredentials(baseUrl: string, projectId: string, clientId: string, secret: string, form: Record<string, string>) {
  const response = await fetch(`${baseUrl}${oauthPath(projectId, '/token')}`, {
    method: 'POST',
    headers: { authorization: basicAuth(clientId, secret), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', ...form }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

describe('client credentials', () => {
  it('issues a JWT an API verifies with jose against the JWKS; scopes are enforced', async () => {
    const projectId = env.project.project.id;
    const discovery = (await (await fetch(`${env.baseUrl}${oauthPath(projectId, '/.well-known/openid-configuration')}`)).json()) as {
      issuer: string;
      jwks_uri: string;
    };
    const machine = await createApplication(env.context, env.project, {
      name: 'Billing worker',
      type: 'confidential',
      grant_types: ['client_credentials'],
      scopes: ['invoices:read', 'invoices:write'],
    });
    const secret = machine.client_secret as string;
    const check = protectedApi(discovery.issuer, discovery.jwks_uri);

    const readOnly = await clientCredentials(env.baseUrl, projectId, machine.client_id, secret, { scope: 'invoices:read', resource: api });
    expect(readOnly.status, JSON.stringify(readOnly.body)).toBe(200);
    expect(await check(`Bearer ${readOnly.body.access_token}`, 'invoices:read')).toBe(200);
    expect(await check(`Bearer ${readOnly.body.access_token}`, 'invoices:write')).toBe(403);
    expect(await check(undefined, 'invoices:read')).toBe(401);
    expect(await check(`Bearer ${readOnly.body.access_token}x`, 'invoices:read')).toBe(401);

    // A scope of another application of the project is refused to this one; an unknown scope is never granted.
    await createApplication(env.context, env.project, {
      name: 'Admin tool',
      type: 'confidential',
      grant_types: ['client_credentials'],
      scopes: ['admin'],
    });
    const unknown = await clientCredentials(env.baseUrl, projectId, machine.client_id, secret, {
      scope: 'invoices:read nonsense',
      resource: api,
    });
    expect(await check(`Bearer ${unknown.body.access_token}`, 'nonsense')).toBe(403);
    const tooMuch = await clientCredentials(env.baseUrl, projectId, machine.client_id, secret, { scope: 'admin', resource: api });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.error).toBe('invalid_scope');
    // A wrong secret is an unauthenticated client.
    const wrongSecret = await clientCredentials(env.baseUrl, projectId, machine.client_id, `${secret}x`, {
      scope: 'invoices:read',
      resource: api,
    });
    expect(wrongSecret.status).toBe(401);
    expect(wrongSecret.body.error).toBe('invalid_client');
  });

  it('refuses client credentials to a public application, and a public application with them at creation', async () => {
    const refused = await env.context.request({
      method: 'POST',
      url: '/api/v1/internal/oauth-applications',
      headers: env.project.headers.admin,
      payload: { name: 'SPA', type: 'public', grant_types: ['client_credentials'] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('INVALID_OAUTH_APPLICATION');
  });
});
