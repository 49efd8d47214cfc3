// #region check
import { createRemoteJWKSet, jwtVerify } from 'jose';

const issuer = 'https://auth.example.com/api/v1/projects/your-project-id/oauth';
const keys = createRemoteJWKSet(new URL(`${issuer}/jwks`));

/** Whether a machine client's access token is valid for this API and grants `invoices:read`. */
export async function mayReadInvoices(token: string): Promise<boolean> {
  try {
    const { payload } = await jwtVerify(token, keys, { issuer, audience: 'https://api.example.com/', algorithms: ['ES256'] });
    return String(payload.scope ?? '')
      .split(' ')
      .includes('invoices:read');
  } catch {
    return false;
  }
}
// #endregion check
