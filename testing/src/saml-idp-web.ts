// The server's one HTML escaping (escape-html, as its hand-written pages use).
import escapeHtml from 'escape-html';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TestSamlIdp } from './saml-idp.ts';

const readForm = async (request: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
};

/** How the next answer of the IdP goes wrong (each used once). */
export type SamlIdpFault = 'unsigned' | 'expired' | 'replay';

const assertionPattern = /<saml:Assertion[\s\S]*<\/saml:Assertion>/;

/**
 * TestSamlIdp served to a browser on a free loopback port, as a real IdP's sign-in is: the
 * HTTP-Redirect AuthnRequest opens a login page, the login answers with the HTTP-POST binding (a
 * form posted to the ACS by script). `tamperNext` makes the next response's email differ from what
 * was signed (a forged assertion); `faultNext` makes it unsigned, expired (its validity window in
 * the past), or a replay (the last signed assertion this IdP issued, in a fresh response to the
 * new request: what an attacker holding a captured assertion would post).
 */
export async function startSamlIdpWeb(audience: () => string) {
  const server: Server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const idp = await TestSamlIdp.create(`${origin}/sso`);
  const state: { tamperNext: boolean; faultNext: SamlIdpFault | null } = { tamperNext: false, faultNext: null };
  let lastAssertion: string | null = null;
  server.on('request', async (request, response) => {
    const url = new URL(request.url ?? '/', origin);
    const page = (body: string) => response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html>${body}`);
    // Its metadata, published at a URL as real IdPs do (a connection may be configured from it).
    if (request.method === 'GET' && url.pathname === '/metadata') {
      return response.writeHead(200, { 'content-type': 'application/samlmetadata+xml' }).end(idp.metadata());
    }
    if (request.method === 'GET' && url.pathname === '/sso') {
      const authnRequest = TestSamlIdp.readRequest(url.href);
      return page(
        `<title>Test IdP</title><form method="post" action="/login"><input type="hidden" name="request_id" value="${escapeHtml(authnRequest.id)}"><input type="hidden" name="acs_url" value="${escapeHtml(authnRequest.acsUrl)}"><label>IdP email <input name="email" type="email"></label><button type="submit">Sign in at the IdP</button></form>`,
      );
    }
    if (request.method === 'POST' && url.pathname === '/login') {
      const form = await readForm(request);
      const email = form.get('email') ?? '';
      const fault = state.faultNext;
      state.faultNext = null;
      const hourAgo = Date.now() - 3600_000;
      let samlResponse = await idp.response({
        acsUrl: form.get('acs_url') ?? '',
        audience: audience(),
        email,
        name: `SAML ${email.split('@')[0]}`,
        inResponseTo: form.get('request_id') ?? '',
        sign: fault !== 'unsigned',
        ...(fault === 'expired' ? { notBefore: new Date(hourAgo - 600_000), notOnOrAfter: new Date(hourAgo) } : {}),
      });
      const xml = Buffer.from(samlResponse, 'base64').toString('utf8');
      if (fault === 'replay' && lastAssertion) {
        const replayed = lastAssertion;
        samlResponse = Buffer.from(
          xml.replace(assertionPattern, () => replayed),
          'utf8',
        ).toString('base64');
      } else if (!fault) lastAssertion = assertionPattern.exec(xml)?.[0] ?? null;
      if (state.tamperNext) {
        state.tamperNext = false;
        samlResponse = Buffer.from(xml.replace(/(<saml:AttributeValue>)[^<]+/, '$1ceo@forged.test'), 'utf8').toString('base64');
      }
      return page(
        `<title>Test IdP</title><form method="post" action="${escapeHtml(form.get('acs_url') ?? '')}"><input type="hidden" name="SAMLResponse" value="${escapeHtml(samlResponse)}"></form><script>document.forms[0].submit()</script>`,
      );
    }
    response.writeHead(404).end();
  });
  return {
    idp,
    state,
    metadataUrl: `${origin}/metadata`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
