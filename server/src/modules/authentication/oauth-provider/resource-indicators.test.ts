import { createLocalJWKSet, errors, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { testPublicUrl, withTestContext } from '@gatehouse/testing/test-context';
import { authorize, createApplication, oauthPath, pkcePair, publicHost, signedInUser } from '@gatehouse/testing/oauth-provider-testing';

/**
 * Resource indicators (RFC 8707) in the authorization code flow, as MCP clients use them: the `resource` named at
 * the authorization request is the audience of the JWT access token, so resource server X accepts it and Y refuses it.
 */
const env = withTestContext();
const redirectUri = 'https://rp.example.com/callback';
const resourceX = 'https://mcp-x.example.com/mcp';
const resourceY = 'https://mcp-y.example.com/mcp';

const token = (form: Record<string, string>) =>
  env.context.request({
    method: 'POST',
    url: oauthPath(env.project.project.id, '/token'),
    headers: { ...publicHost, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(form).toString(),
  });

async function codeFor(clientId: string, resource: string, scope = 'openid files:read') {
  const { headers } = await signedInUser(env.context, env.project);
  const pkce = pkcePair();
  const back = await authorize(
    env.context,
    env.project,
    {
      client_id: clientId,
      response_type: 'code',
      redirect_uri: redirectUri,
      ...(scope ? { scope } : {}),
      resource,
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
    },
    headers,
  );
  return { code: back.searchParams.get('code') as string, verifier: pkce.verifier };
}

/** A resource server's check, as `jose` users write it: the project's keys, its issuer, this server's own audience. */
async function resourceServerAccepts(accessToken: string, audience: string): Promise<boolean> {
  const jwks = JSON.parse(
    (await env.context.request({ method: 'GET', url: oauthPath(env.project.project.id, '/jwks'), headers: publicHost })).text,
  );
  try {
    await jwtVerify(accessToken, createLocalJWKSet(jwks), {
      issuer: `${testPublicUrl}/api/v1/projects/${env.project.project.id}/oauth`,
      audience,
      algorithms: ['ES256'],
    });
    return true;
  } catch (error) {
    if (error instanceof errors.JOSEError) return false;
    throw error;
  }
}

describe('resource indicators in the code flow', () => {
  it('issues a JWT for the resource named at authorization, accepted by that resource server and refused by another', async () => {
    const app = await createApplication(env.context, env.project, {
      name: 'Agent',
      type: 'public',
      redirect_uris: [redirectUri],
      scopes: ['openid', 'offline_access', 'files:read'],
    });
    const { code, verifier } = await codeFor(app.client_id, resourceX);
    // The MCP client names the resource again at the token endpoint (RFC 8707 §2.2).
    const tokens = await token({
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      redirect_uri: redirectUri,
      client_id: app.client_id,
      resource: resourceX,
    });
    expect(tokens.status, tokens.text).toBe(200);
    const accessToken = tokens.body.access_token as string;
    const claims = JSON.parse(Buffer.from(accessToken.split('.')[1] as string, 'base64url').toString());
    expect(claims).toMatchObject({ aud: resourceX, client_id: app.client_id, scope: 'files:read' });
    expect(await resourceServerAccepts(accessToken, resourceX)).toBe(true);
    expect(await resourceServerAccepts(accessToken, resourceY)).toBe(false);
  });

  it('uses the granted resource when the token request names none, and refuses one that was not granted', async () => {
    const app = await createApplication(env.context, env.project, {
      name: 'Agent 2',
      type: 'public',
      redirect_uris: [redirectUri],
      scopes: ['openid', 'files:read'],
    });
    const granted = await codeFor(app.client_id, resourceX);
    const implicitResource = await token({
      grant_type: 'authorization_code',
      code: granted.code,
      code_verifier: granted.verifier,
      redirect_uri: redirectUri,
      client_id: app.client_id,
    });
    expect(implicitResource.status, implicitResource.text).toBe(200);
    expect(await resourceServerAccepts(implicitResource.body.access_token, resourceX)).toBe(true);

    const other = await codeFor(app.client_id, resourceX);
    const wrongResource = await token({
      grant_type: 'authorization_code',
      code: other.code,
      code_verifier: other.verifier,
      redirect_uri: redirectUri,
      client_id: app.client_id,
      resource: resourceY,
    });
    expect(wrongResource.status).toBe(400);
    expect(wrongResource.body.error).toBe('invalid_target');
  });

  it('asks for openid when the authorization request names no scope, as MCP clients may send it', async () => {
    const app = await createApplication(env.context, env.project, { name: 'Agent 3', type: 'public', redirect_uris: [redirectUri] });
    const { code, verifier } = await codeFor(app.client_id, resourceX, '');
    expect(code).toBeTruthy();
    const tokens = await token({
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      redirect_uri: redirectUri,
      client_id: app.client_id,
      resource: resourceX,
    });
    expect(tokens.status, tokens.text).toBe(200);
    expect(await resourceServerAccepts(tokens.body.access_token, resourceX)).toBe(true);
  });
});
