import { describe, expect, it } from 'vitest';
import { withTestContext } from '@gatehouse/testing/test-context';

/**
 * A setup link's capability is one team of one project: its session cannot see or change another team's domains,
 * connections or directories, nor another project's; another team or project cannot list or revoke its link.
 */
const env = withTestContext();

const server = () => env.project.headers.server;
const newTeam = async (name: string) =>
  (await env.context.request({ method: 'POST', url: '/api/v1/teams', headers: server(), payload: { display_name: name } })).body
    .id as string;
const openSession = async (teamId: string, headers: Record<string, string> = server()) => {
  const link = await env.context.request({ method: 'POST', url: `/api/v1/teams/${teamId}/sso-setup-links`, headers, payload: {} });
  const opened = await env.context.request({ method: 'POST', url: '/api/v1/sso-setup/sessions', payload: { token: link.body.token } });
  return { linkId: link.body.id as string, session: opened.body.session_token as string };
};
const asAdmin = (session: string, method: 'GET' | 'POST', path: string, payload?: object) =>
  env.context.request({
    method,
    url: `/api/v1/sso-setup/current${path}`,
    headers: { authorization: `Bearer ${session}` },
    ...(payload ? { payload } : {}),
  });

describe('setup link isolation', () => {
  it("cannot reach another team's or project's domains, connections and directories", async () => {
    const teamA = await newTeam('A');
    const teamB = await newTeam('B');
    const domainB = await env.context.request({
      method: 'POST',
      url: '/api/v1/sso/domains',
      headers: server(),
      payload: { team_id: teamB, domain: `b-${Date.now()}.test` },
    });
    await env.context.request({ method: 'POST', url: `/api/v1/teams/${teamB}/scim-directories`, headers: server(), payload: {} });
    const other = await env.context.createProject();
    const teamC = (
      await env.context.request({ method: 'POST', url: '/api/v1/teams', headers: other.headers.server, payload: { display_name: 'C' } })
    ).body.id as string;
    const domainC = await env.context.request({
      method: 'POST',
      url: '/api/v1/sso/domains',
      headers: other.headers.server,
      payload: { team_id: teamC, domain: `c-${Date.now()}.test` },
    });

    const { session } = await openSession(teamA);
    for (const id of [domainB.body.id, domainC.body.id]) {
      const verify = await asAdmin(session, 'POST', `/domains/${id}/verify`);
      expect(verify.status).toBe(404);
      expect(verify.body.code).toBe('TEAM_DOMAIN_NOT_FOUND');
    }
    const overview = await asAdmin(session, 'GET', '');
    expect(overview.body).toMatchObject({ team_id: teamA, connections: [], domains: [], scim_directories: [] });
    // What the session creates is team A's, never B's.
    const directory = await asAdmin(session, 'POST', '/scim-directories', {});
    expect(directory.body.team_id).toBe(teamA);
    const listB = await env.context.request({ method: 'GET', url: `/api/v1/teams/${teamB}/scim-directories`, headers: server() });
    expect(listB.body.items.map((item: { id: string }) => item.id)).not.toContain(directory.body.id);
    // The session token is not a project credential: the owner's API refuses it.
    const asProject = await env.context.request({
      method: 'GET',
      url: `/api/v1/teams/${teamA}/sso-setup-links`,
      headers: { authorization: `Bearer ${session}` },
    });
    expect(asProject.status).toBeGreaterThanOrEqual(400);
    expect(asProject.status).toBeLessThan(500);
  });

  it("cannot be listed or revoked through another team's or project's path", async () => {
    const teamA = await newTeam('A2');
    const teamB = await newTeam('B2');
    const { linkId, session } = await openSession(teamA);
    const revokeVia = (teamId: string, headers: Record<string, string>) =>
      env.context.request({ method: 'DELETE', url: `/api/v1/teams/${teamId}/sso-setup-links/${linkId}`, headers, payload: {} });
    const viaTeamB = await revokeVia(teamB, server());
    expect(viaTeamB.status).toBe(404);
    expect(viaTeamB.body.code).toBe('SSO_SETUP_LINK_NOT_FOUND');
    const other = await env.context.createProject();
    const viaOtherProject = await revokeVia(teamA, other.headers.admin);
    expect(viaOtherProject.status).toBe(404);
    const listOther = await env.context.request({
      method: 'GET',
      url: `/api/v1/teams/${teamA}/sso-setup-links`,
      headers: other.headers.server,
    });
    expect(listOther.body.code).toBe('TEAM_NOT_FOUND');
    expect(
      (await env.context.request({ method: 'GET', url: `/api/v1/teams/${teamB}/sso-setup-links`, headers: server() })).body.items,
    ).toEqual([]);
    // Still working: nothing above touched it.
    expect((await asAdmin(session, 'GET', '')).status).toBe(200);
  });
});
