// #region verify
import { createRemoteJWKSet, jwtVerify } from 'jose';

const baseUrl = 'https://auth.example.com'; // the server's PUBLIC_URL
const projectId = 'your-project-id';

// The project's public keys; jose caches them and fetches again when it meets an unknown `kid`.
const keys = createRemoteJWKSet(new URL(`${baseUrl}/api/v1/projects/${projectId}/.well-known/jwks.json`));

/** The signed-in user's id, or null when the token is missing, expired, forged or for another project. */
export async function userIdFrom(authorization: string | undefined): Promise<string | null> {
  const token = authorization?.replace(/^Bearer /i, '');
  if (!token) return null;
  try {
    const { payload } = await jwtVerify(token, keys, {
      algorithms: ['ES256'],
      issuer: `${baseUrl}/api/v1/projects/${projectId}`,
      audience: projectId,
    });
    return payload.sub ?? null;
  } catch {
    return null;
  }
}
// #endregion verify

// #region http
import { createServer } from 'node:http';

createServer(async (request, response) => {
  const userId = await userIdFrom(request.headers.authorization);
  response.writeHead(userId ? 200 : 401, { 'content-type': 'application/json' });
  response.end(JSON.stringify(userId ? { userId } : { error: 'sign in first' }));
}).listen(3000);
// #endregion http
