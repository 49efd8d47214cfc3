import { describe, expect, it } from 'vitest';
import { expectError } from '@gatehouse/testing/expect-response';
import { testPublicUrl, withTestContext } from '@gatehouse/testing/test-context';
import { backendUrls, readMetaSettings } from './deployment-info.ts';

/** POST /check-version, GET /internal/backend-urls, GET /internal/component-versions (docs/protocol/endpoints.md §1). */
const env = withTestContext();

const checkVersion = (payload: unknown, headers: Record<string, string> = {}) =>
  env.context.request({ method: 'POST', url: '/api/v1/check-version', payload: payload as object, headers });

describe('POST /check-version', () => {
  it("finds the Stack SDK 2.8 line and this server's own packages up to date, with or without project headers", async () => {
    for (const clientVersion of ['js @stackframe/js@2.8.108', 'js @stackframe/stack@2.8.0', '2.8.12', 'js @gatehouse/client@0.1.0']) {
      const response = await checkVersion({ clientVersion });
      expect(response.status, clientVersion).toBe(200);
      expect(response.body, clientVersion).toEqual({ upToDate: true });
    }
    const withHeaders = await checkVersion({ clientVersion: 'js @stackframe/js@2.8.108' }, env.project.headers.client);
    expect(withHeaders.body).toEqual({ upToDate: true });
  });

  it('tells an older Stack SDK to update (severe), a newer line that features may be missing, another Gatehouse release to match', async () => {
    expect((await checkVersion({ clientVersion: 'js @stackframe/js@2.7.9' })).body).toEqual({
      upToDate: false,
      severe: true,
      error:
        'Your SDK (js @stackframe/js@2.7.9) is older than the protocol this Gatehouse server speaks (Stack Auth SDK 2.8). Please update it to 2.8 or newer.',
    });
    expect((await checkVersion({ clientVersion: '3.0.0-beta.1' })).body).toEqual({
      upToDate: false,
      severe: false,
      error:
        'Your SDK (3.0.0-beta.1) is newer than the protocol this Gatehouse server speaks (Stack Auth SDK 2.8); features it adds may answer that they are not supported.',
    });
    expect((await checkVersion({ clientVersion: 'js @gatehouse/client@0.2.0' })).body).toEqual({
      upToDate: false,
      severe: false,
      error:
        "Your SDK (js @gatehouse/client@0.2.0) was built for another Gatehouse version (this server is 0.1); use the packages of this server's release.",
    });
  });

  it('calls a string without a version invalid (severe), and refuses a body that does not match', async () => {
    for (const clientVersion of ['', 'latest', 'js @stackframe/js@2.8']) {
      expect((await checkVersion({ clientVersion })).body, clientVersion).toEqual({
        upToDate: false,
        severe: true,
        error: `The client version you specified (${clientVersion}) is not a valid version. Please update to the latest version as soon as possible to ensure that you get the latest feature and security updates.`,
      });
    }
    expectError(await checkVersion({}), 400, 'SCHEMA_ERROR');
    expectError(await checkVersion({ clientVersion: 2 }), 400, 'SCHEMA_ERROR');
    expectError(await checkVersion({ clientVersion: '2.8.0', extra: true }), 400, 'SCHEMA_ERROR');
    const unreadable = await env.context.request({
      method: 'POST',
      url: '/api/v1/check-version',
      headers: { 'content-type': 'application/json' },
      payload: '{"clientVersion":',
    });
    expectError(unreadable, 400, 'BODY_PARSING_ERROR');
  });
});

describe('GET /internal/backend-urls', () => {
  it('answers the public URL first, then BACKEND_FALLBACK_URLS, each once, without trailing slashes', async () => {
    const response = await env.context.request({ url: '/api/v1/internal/backend-urls' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ urls: [testPublicUrl] });
    expectError(await env.context.request({ url: '/api/v1/internal/backend-urls?all=1' }), 400, 'SCHEMA_ERROR');

    const settings = readMetaSettings({
      BACKEND_FALLBACK_URLS: ' https://eu.auth.example.com/ , http://localhost:8102,https://us.auth.example.com',
    });
    expect(backendUrls('http://localhost:8102/', settings)).toEqual([
      'http://localhost:8102',
      'https://eu.auth.example.com',
      'https://us.auth.example.com',
    ]);
    expect(readMetaSettings({}).fallbackUrls).toEqual([]);
    expect(() => readMetaSettings({ BACKEND_FALLBACK_URLS: 'eu.auth.example.com' })).toThrow('is not a URL');
    expect(() => readMetaSettings({ BACKEND_FALLBACK_URLS: 'ftp://eu.auth.example.com' })).toThrow('is not an http or https URL');
  });
});

describe('GET /internal/component-versions', () => {
  it('lists every handler page of @gatehouse/react with its version and changelogs', async () => {
    const response = await env.context.request({ url: '/api/v1/internal/component-versions' });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body.versions)).toHaveLength(13);
    expect(response.body.versions['sign-in']).toEqual({
      version: 1,
      changelogs: { '1': 'The sign-in page as first shipped by @gatehouse/react.' },
    });
    expect(response.body.versions['cli-auth-confirm'].version).toBe(1);
    expectError(await env.context.request({ url: '/api/v1/internal/component-versions?x=1' }), 400, 'SCHEMA_ERROR');
  });
});
