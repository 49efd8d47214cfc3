import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/**
 * A local OpenID provider (oidc-provider) on a free loopback port, with one confidential client and
 * the library's development login and consent pages (any login is an account; its claims say
 * `<login>` is the email). `signIn` walks those pages as a browser would, with a cookie jar.
 */
export async function startOidcIdp() {
  const server: Server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let provider: Provider | undefined;
  return {
    issuer,
    /** Starts answering, for a client whose callback is `redirectUri`. */
    configure(client: { clientId: string; clientSecret: string; redirectUri: string }) {
      provider = new Provider(issuer, {
        clients: [
          {
            client_id: client.clientId,
            client_secret: client.clientSecret,
            redirect_uris: [client.redirectUri],
            grant_types: ['authorization_code'],
            response_types: ['code'],
          },
        ],
        findAccount: async (_context, id) => ({
          accountId: id,
          claims: async () => ({
            sub: `sub-${id}`,
            email: id,
            email_verified: true,
            name: `OIDC ${id.split('@')[0]}`,
            groups: ['Engineers'],
          }),
        }),
        claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'groups'] },
        cookies: { keys: ['oidc test cookie key'] },
      });
      server.removeAllListeners('request');
      server.on('request', provider.callback());
    },
    /** From the IdP's authorization URL through login and consent to the redirect back (its URL). */
    async signIn(authorizationUrl: string, login: string): Promise<string> {
      const jar = new Map<string, string>();
      const send = async (url: string, init: RequestInit = {}) => {
        const response = await fetch(url, {
          ...init,
          redirect: 'manual',
          headers: { ...(init.headers as Record<string, string>), cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') },
        });
        for (const cookie of response.headers.getSetCookie()) {
          const [pair] = cookie.split(';');
          const at = (pair ?? '').indexOf('=');
          jar.set((pair ?? '').slice(0, at), (pair ?? '').slice(at + 1));
        }
        return response;
      };
      let url = authorizationUrl;
      for (let step = 0; step < 12; step += 1) {
        if (!url.startsWith(issuer)) return url;
        const response = await send(url);
        const location = response.headers.get('location');
        if (location) {
          url = new URL(location, url).href;
          continue;
        }
        const page = await response.text();
        const action = new URL(/action="([^"]+)"/.exec(page)?.[1] ?? '', url).href;
        const form = page.includes('name="login"')
          ? new URLSearchParams({ prompt: 'login', login, password: 'any' })
          : new URLSearchParams({ prompt: 'consent' });
        const submitted = await send(action, {
          method: 'POST',
          body: form,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        });
        url = new URL(submitted.headers.get('location') ?? '', action).href;
      }
      throw new Error('the OpenID provider did not redirect back');
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
