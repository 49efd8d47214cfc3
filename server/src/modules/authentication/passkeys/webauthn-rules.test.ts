import { describe, expect, it } from 'vitest';
import type { Project } from '../../../tenancy/project.ts';
import { isValidUserHandle, relyingPartyOf, sameBytes, userHandleOf } from './webauthn-rules.ts';

const projectWith = (domains: { allowLocalhost: boolean; trustedDomains: Record<string, { baseUrl: string; handlerPath: string }> }) =>
  ({ config: { domains } }) as unknown as Project;
const clientData = (origin: unknown) => Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge: 'x', origin })).toString('base64url');

describe('user handles', () => {
  it('are 1 to 64 bytes', () => {
    expect(isValidUserHandle('')).toBe(false);
    expect(isValidUserHandle(Buffer.alloc(1).toString('base64url'))).toBe(true);
    expect(isValidUserHandle(Buffer.alloc(64).toString('base64url'))).toBe(true);
    expect(isValidUserHandle(Buffer.alloc(65).toString('base64url'))).toBe(false);
  });

  it('of a user are its id in UTF-8 (36 bytes), compared as bytes', () => {
    const handle = userHandleOf('c17c2c63-191f-41ff-9d61-c0c8ee2ee0d4');
    expect(handle).toBe('YzE3YzJjNjMtMTkxZi00MWZmLTlkNjEtYzBjOGVlMmVlMGQ0');
    expect(isValidUserHandle(handle)).toBe(true);
    expect(sameBytes(handle, `${handle}`)).toBe(true);
    expect(sameBytes(handle, userHandleOf('c17c2c63-191f-41ff-9d61-c0c8ee2ee0d5'))).toBe(false);
  });
});

describe('the relying party of a ceremony', () => {
  const project = projectWith({
    allowLocalhost: false,
    trustedDomains: {
      app: { baseUrl: 'https://app.example.com/some/path', handlerPath: '/handler' },
      tenants: { baseUrl: 'https://*.tenants.example.com', handlerPath: '/handler' },
      dev: { baseUrl: 'http://dev.example.com:8080', handlerPath: '/handler' },
    },
  });

  it('is the origin’s hostname when the origin is a trusted domain, whatever the domain’s path', () => {
    expect(relyingPartyOf(project, clientData('https://app.example.com'))).toEqual({
      origin: 'https://app.example.com',
      rpId: 'app.example.com',
    });
    expect(relyingPartyOf(project, clientData('https://acme.tenants.example.com'))?.rpId).toBe('acme.tenants.example.com');
    expect(relyingPartyOf(project, clientData('http://dev.example.com:8080'))?.rpId).toBe('dev.example.com');
  });

  it('is none for other schemes, hosts and ports, for URLs that are not origins, and for bad client data', () => {
    for (const origin of [
      'http://app.example.com',
      'https://example.com',
      'https://app.example.com:8443',
      'http://dev.example.com',
      'https://app.example.com/some/path',
      'https://APP.example.com',
      'null',
      42,
      'http://localhost:3000',
    ]) {
      expect(relyingPartyOf(project, clientData(origin)), String(origin)).toBeUndefined();
    }
    expect(relyingPartyOf(project, 'not-base64-json')).toBeUndefined();
  });

  it('may be localhost when the project allows it', () => {
    const local = projectWith({ allowLocalhost: true, trustedDomains: {} });
    expect(relyingPartyOf(local, clientData('http://localhost:3000'))).toEqual({ origin: 'http://localhost:3000', rpId: 'localhost' });
    expect(relyingPartyOf(local, clientData('http://shop.localhost:3000'))?.rpId).toBe('shop.localhost');
  });
});
