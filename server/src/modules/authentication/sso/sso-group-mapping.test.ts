import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { trustedDomains } from '@gatehouse/testing/oauth-test-flow';
import { TestSamlIdp } from '@gatehouse/testing/saml-idp';
import { newEmail, ssoFlows } from '@gatehouse/testing/sso-test-helpers';
import { createTestContext, type TestContext, type TestProject } from '@gatehouse/testing/test-context';

/**
 * The group → team permission mapping of an SSO connection: a mapping to a permission the project does not define
 * is refused when saved (API create and update, and the self-serve setup session), and a permission deleted after
 * the mapping was saved is skipped at sign-in (with a log line) instead of refusing the team's people.
 */
let context: TestContext;
let project: TestProject;
let idp: TestSamlIdp;
let teamId: string;
const flows = ssoFlows(() => context);

beforeAll(async () => {
  context = await createTestContext();
  project = await context.createProject({ 'domains.trustedDomains': trustedDomains, 'domains.allowLocalhost': true });
  idp = await TestSamlIdp.create();
  teamId = (await context.services.teams.create(project.project, { display_name: 'Mapped' })).id;
  for (const id of ['mapped_keep', 'mapped_gone']) await context.services.permissions.createDefinition(project.project.id, 'team', { id });
});
afterAll(async () => {
  await context?.close();
});

const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
  context.request({ method, url: `/api/v1${url}`, headers: project.headers.server, ...(payload ? { payload } : {}) });
const saml = () => ({ idp_metadata_xml: idp.metadata() });
const connectionsOfTeam = async () => ((await call('GET', `/sso/connections?team_id=${teamId}`)).body.items as { id: string }[]).length;

function expectRefusedMapping(response: { status: number; text: string; body: { code?: string; details?: { reason?: string } } }) {
  expect(response.status, response.text).toBe(400);
  expect(response.body.code).toBe('SSO_CONNECTION_CONFIG_INVALID');
  expect(response.body.details?.reason).toContain('"never_defined"');
  expect(response.body.details?.reason).toContain('"Staff"');
}

describe('a group mapped to a permission the project lacks', () => {
  it('is refused when a connection is created or updated through the API; nothing is saved', async () => {
    const before = await connectionsOfTeam();
    const refused = await call('POST', '/sso/connections', {
      team_id: teamId,
      protocol: 'saml',
      display_name: 'Refused',
      saml: saml(),
      attribute_mapping: { group_permissions: { Everyone: ['mapped_keep'], Staff: ['never_defined'] } },
    });
    expectRefusedMapping(refused);
    expect(await connectionsOfTeam()).toBe(before);

    const created = await call('POST', '/sso/connections', {
      team_id: teamId,
      protocol: 'saml',
      display_name: 'Valid',
      saml: saml(),
      attribute_mapping: { group_permissions: { Staff: ['mapped_keep', 'team_admin'] } },
    });
    expect(created.status, created.text).toBe(201);
    const updated = await call('PATCH', `/sso/connections/${created.body.id}`, {
      attribute_mapping: { group_permissions: { Staff: ['never_defined'] } },
    });
    expectRefusedMapping(updated);
    const read = await call('GET', `/sso/connections/${created.body.id}`);
    expect(read.body.attribute_mapping).toEqual({ group_permissions: { Staff: ['mapped_keep', 'team_admin'] } });
  });

  it('is refused when the team admin creates the connection in a setup session', async () => {
    const link = await context.request({
      method: 'POST',
      url: `/api/v1/teams/${teamId}/sso-setup-links`,
      headers: project.headers.server,
      payload: {},
    });
    expect(link.status, link.text).toBe(201);
    const opened = await context.request({ method: 'POST', url: '/api/v1/sso-setup/sessions', payload: { token: link.body.token } });
    expect(opened.status, opened.text).toBe(201);
    const before = await connectionsOfTeam();
    const refused = await context.request({
      method: 'POST',
      url: '/api/v1/sso-setup/current/connections',
      headers: { authorization: `Bearer ${opened.body.session_token}` },
      payload: {
        protocol: 'saml',
        display_name: 'From the setup page',
        saml: saml(),
        attribute_mapping: { group_permissions: { Staff: ['never_defined'] } },
      },
    });
    expectRefusedMapping(refused);
    expect(await connectionsOfTeam()).toBe(before);
  });
});

describe('a mapped permission deleted after the mapping was saved', () => {
  it('is skipped at sign-in with a log line; the sign-in works and the other mapped permissions are granted', async () => {
    const created = await call('POST', '/sso/connections', {
      team_id: teamId,
      protocol: 'saml',
      display_name: 'Mapped, then cleaned up',
      saml: saml(),
      attribute_mapping: { group_permissions: { Staff: ['mapped_keep', 'mapped_gone'] } },
    });
    expect(created.status, created.text).toBe(201);
    const connection = created.body as { id: string; saml: { sp_entity_id: string } };
    await context.services.permissions.deleteDefinition(project.project.id, 'team', 'mapped_gone');

    const warnings = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const email = newEmail('cleaned-up');
      // No error URL: on the old code the ACS answered PERMISSION_NOT_FOUND itself, a response it does not declare.
      const { location, verifier } = await flows.authorize(project, connection.id);
      const request = TestSamlIdp.readRequest(location);
      const answer = await flows.postAcs(
        connection.id,
        await idp.response({
          acsUrl: request.acsUrl,
          audience: connection.saml.sp_entity_id,
          email,
          groups: ['Staff'],
          inResponseTo: request.id,
        }),
      );
      expect(answer.status, answer.text).toBe(303);
      const tokens = await flows.exchange(project, String(answer.headers.location), verifier);
      const me = await context.request({
        method: 'GET',
        url: '/api/v1/users/me',
        headers: { ...project.headers.client, 'x-stack-access-token': tokens.access_token },
      });
      const grants = await call('GET', `/team-permissions?team_id=${teamId}&user_id=${me.body.id}`);
      const ids = (grants.body.items as { id: string }[]).map((item) => item.id);
      expect(ids).toContain('mapped_keep');
      expect(ids).not.toContain('mapped_gone');
      expect(
        warnings.mock.calls.map((args) => String(args[0])).some((line) => line.includes(connection.id) && line.includes('mapped_gone')),
      ).toBe(true);
    } finally {
      warnings.mockRestore();
    }
  });
});
