import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSamlIdpWeb } from '@gatehouse/testing/saml-idp-web';
import { createTestContext, type TestContext, type TestProject } from '@gatehouse/testing/test-context';

/**
 * SAML IdP metadata by URL: read once when a connection is saved, through the outbound guard, with a size
 * and a time limit; each way a URL cannot be used is SSO_IDP_METADATA_UNAVAILABLE naming why, nothing saved.
 * For the owner's create and update and for the team admin's setup session.
 */
let context: TestContext;
let project: TestProject;
let idp: Awaited<ReturnType<typeof startSamlIdpWeb>>;
let faults: Server;
let faultsOrigin: string;
let closedPort: number;

beforeAll(async () => {
  idp = await startSamlIdpWeb(() => 'unused');
  // Answers that are not usable metadata: a page, too much, a 404, and nothing at all (a hang).
  faults = createServer((request, response) => {
    if (request.url === '/page') return response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><p>Sign in</p>');
    if (request.url === '/huge') {
      response.writeHead(200, { 'content-type': 'application/xml' });
      // 300 kB in 10 kB pieces: more than the 200 000 bytes a metadata document may have.
      for (let index = 0; index < 30; index += 1) response.write(`<!-- ${'x'.repeat(10_000)} -->`);
      return response.end();
    }
    if (request.url === '/hang') return; // never answers
    response.writeHead(404).end();
  });
  await new Promise<void>((done) => faults.listen(0, '127.0.0.1', done));
  faultsOrigin = `http://127.0.0.1:${(faults.address() as AddressInfo).port}`;
  const closed = createServer();
  await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
  closedPort = (closed.address() as AddressInfo).port;
  await new Promise<void>((done) => closed.close(() => done()));
  context = await createTestContext({
    settings: {
      sso: {
        dnsServers: [],
        metadataTimeoutMillis: 1_500,
        // `idp.internal.test` stands for a name whose DNS answer is a private address (nothing is sent there).
        resolveHost: async (host) => (host === 'idp.internal.test' ? [{ address: '10.0.0.7', family: 4 }] : [{ address: host, family: 4 }]),
      },
    },
  });
  project = await context.createProject({ 'domains.allowLocalhost': true });
});
afterAll(async () => {
  faults?.closeAllConnections();
  await new Promise<void>((done) => (faults ? faults.close(() => done()) : done()));
  await idp?.close();
  await context?.close();
});

const newTeam = async (owner: TestProject = project) =>
  (await context.services.teams.create(owner.project, { display_name: 'Metadata' })).id;
const createConnection = async (saml: object, owner: TestProject = project) =>
  context.request({
    method: 'POST',
    url: '/api/v1/sso/connections',
    headers: owner.headers.server,
    payload: { team_id: await newTeam(owner), protocol: 'saml', display_name: 'By URL', saml },
  });
const refusalOf = async (url: string, owner: TestProject = project) => {
  const response = await createConnection({ idp_metadata_url: url }, owner);
  expect(response.status, response.text).toBe(400);
  expect(response.body.code).toBe('SSO_IDP_METADATA_UNAVAILABLE');
  return response.body.details as { reason: string; detail?: string };
};

describe('SAML metadata by URL', () => {
  it("stores the entity id, SSO URL and certificate read from the IdP's metadata URL, as the XML does", async () => {
    const byUrl = await createConnection({ idp_metadata_url: idp.metadataUrl });
    expect(byUrl.status, byUrl.text).toBe(201);
    const byXml = await createConnection({ idp_metadata_xml: idp.idp.metadata() });
    expect(byUrl.body.saml).toMatchObject({
      idp_entity_id: idp.idp.entityId,
      idp_sso_url: idp.metadataUrl.replace('/metadata', '/sso'),
      certificates: byXml.body.saml.certificates,
    });
    expect(byUrl.body.saml.certificates).toHaveLength(1);
  });

  it('refuses each unusable URL with its reason, and saves nothing', async () => {
    const before = (await context.request({ method: 'GET', url: '/api/v1/sso/connections', headers: project.headers.server })).body.items
      .length;
    expect(await refusalOf(`http://127.0.0.1:${closedPort}/metadata`)).toEqual({ reason: 'unreachable' });
    expect(await refusalOf(`${faultsOrigin}/missing`)).toEqual({ reason: 'unreachable', detail: 'HTTP status 404' });
    expect((await refusalOf(`${faultsOrigin}/page`)).reason).toBe('not_saml_metadata');
    expect(await refusalOf(`${faultsOrigin}/huge`)).toEqual({ reason: 'too_large', detail: 'more than 200000 bytes' });
    const started = Date.now();
    expect(await refusalOf(`${faultsOrigin}/hang`)).toEqual({ reason: 'timeout' });
    expect(Date.now() - started).toBeLessThan(10_000);
    const after = (await context.request({ method: 'GET', url: '/api/v1/sso/connections', headers: project.headers.server })).body.items
      .length;
    expect(after).toBe(before);
  });

  it('goes through the outbound guard: private and metadata-service addresses always, loopback unless the project allows localhost', async () => {
    expect(await refusalOf('http://idp.internal.test/metadata')).toEqual({ reason: 'address_not_allowed' });
    expect(await refusalOf('http://169.254.169.254/latest/meta-data')).toEqual({ reason: 'address_not_allowed' });
    const strict = await context.createProject({ 'domains.allowLocalhost': false });
    expect(await refusalOf(idp.metadataUrl, strict)).toEqual({ reason: 'address_not_allowed' });
  });

  it('takes exactly one of the XML and the URL; a URL that is not http(s) is a schema error', async () => {
    const both = await createConnection({ idp_metadata_xml: idp.idp.metadata(), idp_metadata_url: idp.metadataUrl });
    expect(both.body.code).toBe('SSO_CONNECTION_CONFIG_INVALID');
    const neither = await createConnection({ allow_idp_initiated: true });
    expect(neither.body.code).toBe('SSO_CONNECTION_CONFIG_INVALID');
    const file = await createConnection({ idp_metadata_url: 'file:///etc/passwd' });
    expect(file.status).toBe(400);
    expect(file.body.code).toBe('SCHEMA_ERROR');
  });

  it("an update re-reads the URL (the IdP's rotated certificate joins, the old one overlaps); a bad URL changes nothing", async () => {
    const created = await createConnection({ idp_metadata_url: idp.metadataUrl });
    const update = (saml: object) =>
      context.request({
        method: 'PATCH',
        url: `/api/v1/sso/connections/${created.body.id}`,
        headers: project.headers.server,
        payload: { saml },
      });
    const refused = await update({ idp_metadata_url: `${faultsOrigin}/page` });
    expect(refused.body.code).toBe('SSO_IDP_METADATA_UNAVAILABLE');
    await idp.idp.rotate();
    const updated = await update({ idp_metadata_url: idp.metadataUrl });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.saml.certificates).toHaveLength(2);
    expect(
      updated.body.saml.certificates.filter((certificate: { retires_at: string | null }) => certificate.retires_at !== null),
    ).toHaveLength(1);
  });

  it("the team admin's setup session configures SAML by URL, with the same refusals", async () => {
    const teamId = await newTeam();
    const link = await context.request({
      method: 'POST',
      url: `/api/v1/teams/${teamId}/sso-setup-links`,
      headers: project.headers.server,
      payload: {},
    });
    const opened = await context.request({ method: 'POST', url: '/api/v1/sso-setup/sessions', payload: { token: link.body.token } });
    const create = (idp_metadata_url: string) =>
      context.request({
        method: 'POST',
        url: '/api/v1/sso-setup/current/connections',
        headers: { authorization: `Bearer ${opened.body.session_token}` },
        payload: { protocol: 'saml', display_name: 'Setup by URL', saml: { idp_metadata_url } },
      });
    const refused = await create(`${faultsOrigin}/huge`);
    expect(refused.body).toMatchObject({ code: 'SSO_IDP_METADATA_UNAVAILABLE', details: { reason: 'too_large' } });
    const created = await create(idp.metadataUrl);
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ team_id: teamId, saml: { idp_entity_id: idp.idp.entityId } });
  });
});
