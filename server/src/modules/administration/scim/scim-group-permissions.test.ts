import { describe, expect, it } from 'vitest';
import { createScimDirectory } from '@gatehouse/testing/scim-directory';
import { withTestContext } from '@gatehouse/testing/test-context';

/**
 * SCIM groups → team permissions through the team's SSO group mapping, with Okta- and Entra-shaped requests on
 * real Postgres: joining a group grants, leaving (PATCH remove, both shapes) or the group's deletion revokes, and a
 * permission stays while another group still grants it.
 */
const env = withTestContext();
const userSchema = 'urn:ietf:params:scim:schemas:core:2.0:User';
const groupSchema = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const patchSchema = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const entraObjectId = '7d0f6a3e-5c1b-4a9e-9f0e-2b6a1c3d4e5f';

async function directoryWithMapping() {
  const directory = await createScimDirectory(env.context, env.project);
  const projectId = env.project.project.id;
  for (const id of ['deploy', 'on_call', 'audit']) {
    const existing = await env.context.services.permissions.listDefinitions(projectId, 'team');
    if (!existing.some((definition) => definition.id === id))
      await env.context.services.permissions.createDefinition(projectId, 'team', { id });
  }
  const connection = await env.context.request({
    method: 'POST',
    url: '/api/v1/sso/connections',
    headers: env.project.headers.server,
    payload: {
      team_id: directory.team.id,
      protocol: 'oidc',
      display_name: 'Company IdP',
      oidc: { issuer: 'https://idp.example.com', client_id: 'gatehouse', client_secret: 'secret' },
      attribute_mapping: { group_permissions: { Engineering: ['deploy'], Ops: ['deploy', 'on_call'], [entraObjectId]: ['audit'] } },
    },
  });
  expect(connection.status, connection.text).toBe(201);
  const grantsOf = async (userId: string) =>
    (await env.context.services.permissions.listTeamGrants(projectId, { teamId: directory.team.id, userId, recursive: false }))
      .map((grant) => grant.id)
      // `team_member` is the project's default grant to every new member, not the mapping's.
      .filter((id) => id !== 'team_member')
      .sort();
  const provision = async (userName: string) => {
    const created = await directory.scim('POST', '/Users', { schemas: [userSchema], userName, active: true });
    expect(created.status, created.text).toBe(201);
    const user = await env.context.services.users.findByAuthEmail(projectId, userName);
    return { scimId: created.json.id as string, userId: user?.id as string };
  };
  return { ...directory, grantsOf, provision };
}

describe("Okta's group pushes", () => {
  it('grants on add, keeps a permission another group grants, revokes on remove and on group deletion', async () => {
    const { scim, grantsOf, provision } = await directoryWithMapping();
    const ann = await provision('ann@okta.example');
    const engineering = await scim('POST', '/Groups', {
      schemas: [groupSchema],
      displayName: 'Engineering',
      members: [{ value: ann.scimId, display: 'ann@okta.example' }],
    });
    expect(engineering.status, engineering.text).toBe(201);
    expect(await grantsOf(ann.userId)).toEqual(['deploy']);

    const ops = await scim('POST', '/Groups', { schemas: [groupSchema], displayName: 'Ops', members: [] });
    const added = await scim('PATCH', `/Groups/${ops.json.id}`, {
      schemas: [patchSchema],
      Operations: [{ op: 'add', path: 'members', value: [{ value: ann.scimId, display: 'ann@okta.example' }] }],
    });
    expect(added.status, added.text).toBe(200);
    expect(await grantsOf(ann.userId)).toEqual(['deploy', 'on_call']);

    // Okta's removal: a value filter on members. Engineering still grants `deploy`.
    const removed = await scim('PATCH', `/Groups/${ops.json.id}`, {
      schemas: [patchSchema],
      Operations: [{ op: 'remove', path: `members[value eq "${ann.scimId}"]` }],
    });
    expect(removed.status, removed.text).toBe(200);
    expect(await grantsOf(ann.userId)).toEqual(['deploy']);

    expect((await scim('DELETE', `/Groups/${engineering.json.id}`)).status).toBe(204);
    expect(await grantsOf(ann.userId)).toEqual([]);
  });

  it('leaves a permission granted outside the directory alone, and takes back its own when the user is deactivated', async () => {
    const { scim, grantsOf, provision, team } = await directoryWithMapping();
    const bea = await provision('bea@okta.example');
    const projectId = env.project.project.id;
    // Granted by the owner by hand, and not mapped from any group of Bea's.
    await env.context.services.permissions.grantTeam(projectId, team.id, bea.userId, 'audit');
    await scim('POST', '/Groups', { schemas: [groupSchema], displayName: 'Ops', members: [{ value: bea.scimId }] });
    expect(await grantsOf(bea.userId)).toEqual(['audit', 'deploy', 'on_call']);
    const renamed = await scim('PUT', `/Groups/${(await scim('GET', '/Groups')).json.Resources[0].id}`, {
      schemas: [groupSchema],
      displayName: 'Engineering',
      members: [{ value: bea.scimId }],
    });
    expect(renamed.status, renamed.text).toBe(200);
    // Renamed to a group that maps to `deploy` only: `on_call` goes, the hand-made `audit` stays.
    expect(await grantsOf(bea.userId)).toEqual(['audit', 'deploy']);
    const deactivated = await scim('PATCH', `/Users/${bea.scimId}`, {
      schemas: [patchSchema],
      Operations: [{ op: 'replace', value: { active: false } }],
    });
    expect(deactivated.status, deactivated.text).toBe(200);
    expect(await grantsOf(bea.userId)).toEqual([]);
    const reactivated = await scim('PATCH', `/Users/${bea.scimId}`, {
      schemas: [patchSchema],
      Operations: [{ op: 'replace', value: { active: true } }],
    });
    expect(reactivated.status, reactivated.text).toBe(200);
    // Back in the team: what the groups grant comes back (the hand-made grant ended with the membership).
    expect(await grantsOf(bea.userId)).toEqual(['deploy']);
  });
});

describe("Entra ID's group pushes", () => {
  it('matches a group by its externalId (object id) and revokes on Remove with a value array', async () => {
    const { scim, grantsOf, provision } = await directoryWithMapping();
    const cal = await provision('cal@entra.example');
    const dan = await provision('dan@entra.example');
    const group = await scim('POST', '/Groups', {
      schemas: [groupSchema, 'http://schemas.microsoft.com/2006/11/ResourceManagement/ADSCIM/2.0/Group'],
      externalId: entraObjectId,
      displayName: 'Auditors',
      meta: { resourceType: 'Group' },
    });
    expect(group.status, group.text).toBe(201);
    const add = await scim('PATCH', `/Groups/${group.json.id}`, {
      schemas: [patchSchema],
      Operations: [{ op: 'Add', path: 'members', value: [{ value: cal.scimId }, { value: dan.scimId }] }],
    });
    expect(add.status, add.text).toBe(200);
    expect(await grantsOf(cal.userId)).toEqual(['audit']);
    expect(await grantsOf(dan.userId)).toEqual(['audit']);
    const remove = await scim('PATCH', `/Groups/${group.json.id}`, {
      schemas: [patchSchema],
      Operations: [{ op: 'Remove', path: 'members', value: [{ value: cal.scimId }] }],
    });
    expect(remove.status, remove.text).toBe(200);
    expect(await grantsOf(cal.userId)).toEqual([]);
    expect(await grantsOf(dan.userId)).toEqual(['audit']);
    // Entra deprovisions the user: the directory's grants end with it.
    expect((await scim('DELETE', `/Users/${dan.scimId}`)).status).toBe(204);
    expect(await grantsOf(dan.userId)).toEqual([]);
  });

  it('keeps the grants consistent when two groups of one user change at the same time', async () => {
    const { scim, grantsOf, provision } = await directoryWithMapping();
    const removeFrom = (id: string, scimId: string) =>
      scim('PATCH', `/Groups/${id}`, {
        schemas: [patchSchema],
        Operations: [{ op: 'Remove', path: 'members', value: [{ value: scimId }] }],
      });
    for (let round = 0; round < 6; round += 1) {
      const eve = await provision(`eve-${round}@entra.example`);
      const members = [{ value: eve.scimId }];
      const engineering = await scim('POST', '/Groups', { schemas: [groupSchema], displayName: `Engineering`, members });
      const ops = await scim('POST', '/Groups', { schemas: [groupSchema], displayName: 'Ops', members });
      expect(await grantsOf(eve.userId)).toEqual(['deploy', 'on_call']);
      const results = await Promise.all([removeFrom(engineering.json.id, eve.scimId), removeFrom(ops.json.id, eve.scimId)]);
      expect(results.map((result) => result.status)).toEqual([200, 200]);
      // Each change read the other's committed groups: no group grants `deploy` any more, so it is gone.
      expect(await grantsOf(eve.userId)).toEqual([]);
      await Promise.all([scim('DELETE', `/Groups/${engineering.json.id}`), scim('DELETE', `/Groups/${ops.json.id}`)]);
    }
  }, 180_000);
});
