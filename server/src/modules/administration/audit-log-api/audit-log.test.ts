import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { inTransaction } from '../../../db/handle.ts';
import type { TestProject } from '@gatehouse/testing/test-context';
import { withTestContext } from '@gatehouse/testing/test-context';
import { createScimDirectory } from '@gatehouse/testing/scim-directory';

/**
 * The audit log: one entry per listed event (actor, target, IP, user agent, time), written in the
 * transaction of its change, readable by the owner and a team admin, exported, never writable.
 */
const env = withTestContext({ projectConfig: { 'auth.password.allowSignIn': true, 'apiKeys.enabled.user': true } });
const userAgent = 'AuditTest/1.0';

type Entry = {
  id: string;
  action: string;
  actor_type: string;
  actor_id: string | null;
  target_id: string | null;
  team_id: string | null;
  ip_address: string | null;
  user_agent: string | null;
  details: Record<string, unknown>;
  occurred_at_millis: number;
};

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, headers: Record<string, string>, payload?: object) =>
  env.context.request({
    method,
    url: `/api/v1${url}`,
    headers: { ...headers, 'user-agent': userAgent },
    ...(method === 'GET' ? {} : { payload: payload ?? {} }),
  });

const entries = async (project: TestProject, query = ''): Promise<Entry[]> => {
  const response = await call('GET', `/audit-log?limit=200${query}`, project.headers.admin);
  expect(response.status, response.text).toBe(200);
  return response.body.items;
};

const newUser = async (project: TestProject = env.project) => {
  const email = `audit-${randomUUID()}@example.com`;
  const user = await env.context.services.users.create(
    project.project,
    { primary_email: email, primary_email_auth_enabled: true, password: 'a good password 1' },
    'server',
  );
  return { user, email };
};

/** The newest entry of this action about this target; fails when there is none. */
const entryOf = async (action: string, targetId: string, project: TestProject = env.project): Promise<Entry> => {
  const found = (await entries(project, `&action=${action}&target_id=${targetId}`))[0];
  expect(found, `no ${action} entry for ${targetId}`).toBeDefined();
  return found as Entry;
};

describe('one entry per event', () => {
  it('a password sign-in: the user as actor and target, with IP and user agent', async () => {
    const { user, email } = await newUser();
    const response = await call('POST', '/auth/password/sign-in', env.project.headers.client, { email, password: 'a good password 1' });
    expect(response.status).toBe(200);
    const entry = await entryOf('auth.signed_in', user.id);
    expect(entry).toMatchObject({ actor_type: 'user', actor_id: user.id, user_agent: userAgent, ip_address: '127.0.0.1' });
    expect(Date.now() - entry.occurred_at_millis).toBeLessThan(60_000);
  });

  it('a failed sign-in: anonymous actor, the attempted email, no password', async () => {
    const { user, email } = await newUser();
    const response = await call('POST', '/auth/password/sign-in', env.project.headers.client, { email, password: 'wrong password 99' });
    expect(response.body.code).toBe('EMAIL_PASSWORD_MISMATCH');
    const entry = await entryOf('auth.sign_in_failed', user.id);
    expect(entry).toMatchObject({ actor_type: 'anonymous', details: { method: 'password', email } });
    expect(JSON.stringify(entry)).not.toContain('wrong password 99');
  });

  it('impersonation: the server as actor, the user as target', async () => {
    const { user } = await newUser();
    await call('POST', '/auth/sessions', env.project.headers.server, { user_id: user.id, is_impersonation: true });
    expect(await entryOf('auth.impersonated', user.id)).toMatchObject({ actor_type: 'server' });
  });

  it('MFA turned on and off', async () => {
    const { user } = await newUser();
    await call('PATCH', `/users/${user.id}`, env.project.headers.server, { totp_secret_base64: Buffer.alloc(20, 7).toString('base64') });
    expect(await entryOf('mfa.enabled', user.id)).toMatchObject({ actor_type: 'server', details: { factor: 'totp' } });
    await call('PATCH', `/users/${user.id}`, env.project.headers.server, { totp_secret_base64: null });
    expect(await entryOf('mfa.disabled', user.id)).toMatchObject({ actor_type: 'server' });
  });

  it('an API key created and revoked (never its value)', async () => {
    const { user } = await newUser();
    const key = (await call('POST', '/user-api-keys', env.project.headers.server, { user_id: user.id, description: 'ci' })).body;
    const created = await entryOf('api_key.created', key.id);
    expect(created.details).toMatchObject({ key_type: 'user', user_id: user.id });
    expect(JSON.stringify(created)).not.toContain(key.value);
    await call('PATCH', `/user-api-keys/${key.id}?user_id=${user.id}`, env.project.headers.server, { revoked: true });
    await entryOf('api_key.revoked', key.id);
  });

  it('membership and permission changes', async () => {
    const { user } = await newUser();
    const team = (await call('POST', '/teams', env.project.headers.server, { display_name: 'Audited' })).body;
    await call('POST', `/team-memberships/${team.id}/${user.id}`, env.project.headers.server);
    expect(await entryOf('team.member_added', user.id)).toMatchObject({ team_id: team.id, actor_type: 'server' });
    await env.context.services.permissions.createDefinition(env.project.project.id, 'team', { id: `reviewer_${team.id.slice(0, 8)}` });
    await env.context.services.permissions.createDefinition(env.project.project.id, 'project', { id: `billing_${team.id.slice(0, 8)}` });
    await call('POST', `/team-permissions/${team.id}/${user.id}/reviewer_${team.id.slice(0, 8)}`, env.project.headers.server);
    expect(await entryOf('team_permission.granted', user.id)).toMatchObject({
      team_id: team.id,
      details: { permission_id: `reviewer_${team.id.slice(0, 8)}` },
    });
    await call('DELETE', `/team-permissions/${team.id}/${user.id}/reviewer_${team.id.slice(0, 8)}`, env.project.headers.server);
    await entryOf('team_permission.revoked', user.id);
    await call('POST', `/project-permissions/${user.id}/billing_${team.id.slice(0, 8)}`, env.project.headers.server);
    await entryOf('project_permission.granted', user.id);
    await call('DELETE', `/project-permissions/${user.id}/billing_${team.id.slice(0, 8)}`, env.project.headers.server);
    await entryOf('project_permission.revoked', user.id);
    await call('DELETE', `/team-memberships/${team.id}/${user.id}`, env.project.headers.server);
    expect(await entryOf('team.member_removed', user.id)).toMatchObject({ team_id: team.id });
  });

  it('a config change names the keys changed, not their values', async () => {
    const project = await env.context.createProject();
    const response = await call('PATCH', '/internal/config/override/project', project.headers.admin, {
      config_override_string: JSON.stringify({ 'auth.password.allowSignIn': true }),
    });
    expect(response.status, response.text).toBe(200);
    const entry = await entryOf('project.config_updated', project.project.id, project);
    expect(entry).toMatchObject({ actor_type: 'admin', details: { fields: [] } });
  });

  it('SCIM changes: directory, provisioning, deactivation, deprovisioning, groups; the directory as actor', async () => {
    const { scim, team, directory } = await createScimDirectory(env.context, env.project);
    expect(await entryOf('scim.directory_created', directory.id)).toMatchObject({ team_id: team.id, actor_type: 'server' });
    const user = (await scim('POST', '/Users', { userName: `scim-${randomUUID()}@example.com` })).json;
    const projectUser = (await entries(env.project, `&action=scim.user_provisioned&team_id=${team.id}`))[0];
    expect(projectUser).toMatchObject({ actor_type: 'scim_directory', actor_id: directory.id, details: { scim_user_id: user.id } });
    const userId = projectUser?.target_id as string;
    await scim('PATCH', `/Users/${user.id}`, { Operations: [{ op: 'replace', value: { active: false } }] });
    await entryOf('scim.user_deactivated', userId);
    await scim('PATCH', `/Users/${user.id}`, { Operations: [{ op: 'replace', path: 'active', value: true }] });
    await entryOf('scim.user_reactivated', userId);
    await scim('PATCH', `/Users/${user.id}`, { Operations: [{ op: 'replace', path: 'displayName', value: 'Renamed' }] });
    await entryOf('scim.user_updated', userId);
    await scim('DELETE', `/Users/${user.id}`);
    await entryOf('scim.user_deprovisioned', userId);
    const group = (await scim('POST', '/Groups', { displayName: 'Engineers' })).json;
    await entryOf('scim.group_created', group.id);
    await scim('PATCH', `/Groups/${group.id}`, { Operations: [{ op: 'replace', value: { displayName: 'Eng' } }] });
    await entryOf('scim.group_updated', group.id);
    await scim('DELETE', `/Groups/${group.id}`);
    await entryOf('scim.group_deleted', group.id);
    await call('DELETE', `/teams/${team.id}/scim-directories/${directory.id}`, env.project.headers.server);
    await entryOf('scim.directory_deleted', directory.id);
  });
});

describe('integrity', () => {
  it('leaves no entry for a change that was rolled back', async () => {
    const { user } = await newUser();
    const team = (await call('POST', '/teams', env.project.headers.server, { display_name: 'Rolled back' })).body;
    const { teams } = env.context.services;
    await expect(
      inTransaction(env.context.database.db as never, async () => {
        await teams.addMember(env.project.project, team.id, user.id);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await teams.isMember(env.project.project.id, team.id, user.id)).toBe(false);
    expect(await entries(env.project, `&action=team.member_added&target_id=${user.id}`)).toEqual([]);
    // The same change committed has its entry.
    await teams.addMember(env.project.project, team.id, user.id);
    expect(await entries(env.project, `&action=team.member_added&target_id=${user.id}`)).toHaveLength(1);
  });

  it('cannot be written, changed or deleted through the API, nor changed in the database', async () => {
    for (const method of ['POST', 'PATCH', 'DELETE', 'PUT'] as const) {
      const response = await env.context.app.inject({ method, url: '/api/v1/audit-log', headers: env.project.headers.admin, payload: {} });
      expect(response.statusCode).toBe(405);
    }
    const [entry] = await entries(env.project);
    expect(entry).toBeDefined();
    const db = env.context.database.db;
    await expect(
      db
        .updateTable('audit_log_entry')
        .set({ action: 'forged' })
        .where('id', '=', entry?.id as string)
        .execute(),
    ).rejects.toThrow(/cannot be changed/);
  });

  it('delivers each entry as an audit_log.entry_created webhook event, to endpoints that subscribe to it', async () => {
    const hooks = { ...env.project.headers.admin };
    await call('PATCH', '/internal/config/override/project', hooks, {
      config_override_string: JSON.stringify({ 'domains.allowLocalhost': true }),
    });
    const everything = (await call('POST', '/internal/webhooks/endpoints', hooks, { url: 'http://localhost:9/all' })).body;
    const audit = (
      await call('POST', '/internal/webhooks/endpoints', hooks, {
        url: 'http://localhost:9/audit',
        event_types: ['audit_log.entry_created'],
      })
    ).body;
    const { user } = await newUser();
    await call('POST', '/auth/sessions', env.project.headers.server, { user_id: user.id, is_impersonation: true });
    const entry = await entryOf('auth.impersonated', user.id);
    const events = await env.context.database.db
      .selectFrom('event')
      .select('data')
      .where('project_id', '=', env.project.project.id)
      .where('type', '=', 'audit_log.entry_created')
      .execute();
    expect(events.map((event) => event.data)).toContainEqual(entry);
    const messages = async (endpointId: string) =>
      (
        await env.context.database.db.selectFrom('webhook_message').select('event_type').where('endpoint_id', '=', endpointId).execute()
      ).map((message) => message.event_type);
    // user.created (and the rest of Stack's types) for "every type"; the audit stream only where asked for.
    expect(await messages(everything.id)).toContain('user.created');
    expect(await messages(everything.id)).not.toContain('audit_log.entry_created');
    expect(new Set(await messages(audit.id))).toEqual(new Set(['audit_log.entry_created']));
  });
});

describe('reading', () => {
  it('pages by keyset, filters, and exports NDJSON and CSV', async () => {
    const project = await env.context.createProject();
    for (let index = 0; index < 5; index += 1) {
      await call('POST', '/teams', project.headers.server, { display_name: `T${index}` }).then((team) =>
        createScimDirectory(env.context, project).then(() => team),
      );
    }
    const first = await call('GET', '/audit-log?limit=2&action=scim.directory_created', project.headers.admin);
    expect(first.body.items).toHaveLength(2);
    const second = await call(
      'GET',
      `/audit-log?limit=2&action=scim.directory_created&cursor=${first.body.pagination.next_cursor}`,
      project.headers.admin,
    );
    const third = await call(
      'GET',
      `/audit-log?limit=2&action=scim.directory_created&cursor=${second.body.pagination.next_cursor}`,
      project.headers.admin,
    );
    const ids = [...first.body.items, ...second.body.items, ...third.body.items].map((item: Entry) => item.id);
    expect(new Set(ids).size).toBe(5);
    expect(third.body.pagination.next_cursor).toBeNull();
    expect(ids.map(Number)).toEqual([...ids.map(Number)].sort((a, b) => b - a));
    const future = await call('GET', `/audit-log?since_millis=${Date.now() + 60_000}`, project.headers.admin);
    expect(future.body.items).toEqual([]);
    const past = await call('GET', '/audit-log?until_millis=1', project.headers.admin);
    expect(past.body.items).toEqual([]);
    expect((await call('GET', '/audit-log?cursor=abc', project.headers.admin)).body.code).toBe('SCHEMA_ERROR');

    const ndjson = await call('GET', '/audit-log/export?action=scim.directory_created', project.headers.admin);
    expect(ndjson.headers['content-type']).toMatch(/^application\/x-ndjson/);
    const lines = ndjson.text
      .trim()
      .split('\n')
      .map((line: string) => JSON.parse(line));
    expect(lines.map((line: Entry) => line.id)).toEqual(ids);
    const csv = await call('GET', '/audit-log/export?format=csv&action=scim.directory_created', project.headers.admin);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const rows = csv.text.trim().split('\n');
    expect(rows[0]).toBe('id,occurred_at_millis,action,team_id,actor_type,actor_id,target_type,target_id,ip_address,user_agent,details');
    expect(rows).toHaveLength(6);
    expect(rows[1]).toContain('scim.directory_created');
  });

  it('a team admin reads their team only; a plain member is refused; another project sees nothing', async () => {
    const { user: admin } = await newUser();
    const { user: member } = await newUser();
    const team = (await call('POST', '/teams', env.project.headers.server, { display_name: 'Admins', creator_user_id: admin.id })).body;
    await call('POST', `/team-memberships/${team.id}/${member.id}`, env.project.headers.server);
    const other = (await call('POST', '/teams', env.project.headers.server, { display_name: 'Other' })).body;
    await call('POST', `/team-memberships/${other.id}/${member.id}`, env.project.headers.server);
    const token = async (userId: string) =>
      (await env.context.services.signIn.signIn(env.project.project, await env.context.services.users.get(env.project.project.id, userId)))
        .access_token;
    const asAdmin = { ...env.project.headers.client, 'x-stack-access-token': await token(admin.id) };
    const mine = await call('GET', `/teams/${team.id}/audit-log`, asAdmin);
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body.items.length).toBeGreaterThan(0);
    expect(mine.body.items.every((item: Entry) => item.team_id === team.id)).toBe(true);
    const refused = await call('GET', `/teams/${other.id}/audit-log`, asAdmin);
    expect(refused.body.code).toBe('TEAM_PERMISSION_REQUIRED');
    const asMember = { ...env.project.headers.client, 'x-stack-access-token': await token(member.id) };
    expect((await call('GET', `/teams/${team.id}/audit-log`, asMember)).body.code).toBe('TEAM_PERMISSION_REQUIRED');
    expect((await call('GET', `/teams/${randomUUID()}/audit-log`, env.project.headers.server)).body.code).toBe('TEAM_NOT_FOUND');
    const stranger = await env.context.createProject();
    expect((await call('GET', `/audit-log?team_id=${team.id}`, stranger.headers.admin)).body.items).toEqual([]);
  });

  it("a team admin exports their team's entries as NDJSON and CSV; the team comes from the path, other teams and projects are refused", async () => {
    const { user: admin } = await newUser();
    const { user: member } = await newUser();
    const team = (await call('POST', '/teams', env.project.headers.server, { display_name: 'Exporters', creator_user_id: admin.id })).body;
    await call('POST', `/team-memberships/${team.id}/${member.id}`, env.project.headers.server);
    const other = (await call('POST', '/teams', env.project.headers.server, { display_name: 'Not theirs' })).body;
    await call('POST', `/team-memberships/${other.id}/${member.id}`, env.project.headers.server);
    const token = async (userId: string) =>
      (await env.context.services.signIn.signIn(env.project.project, await env.context.services.users.get(env.project.project.id, userId)))
        .access_token;
    const asAdmin = { ...env.project.headers.client, 'x-stack-access-token': await token(admin.id) };

    const ndjson = await call('GET', `/teams/${team.id}/audit-log/export`, asAdmin);
    expect(ndjson.status, ndjson.text).toBe(200);
    expect(ndjson.headers['content-type']).toMatch(/^application\/x-ndjson/);
    expect(ndjson.headers['content-disposition']).toBe(`attachment; filename="audit-log-team-${team.id}.ndjson"`);
    const lines: Entry[] = ndjson.text
      .trim()
      .split('\n')
      .map((line: string) => JSON.parse(line));
    // The same entries the team's own list shows, in the same order, and none of the other team's.
    const listed = (await call('GET', `/teams/${team.id}/audit-log?limit=200`, asAdmin)).body.items as Entry[];
    expect(lines.map((line) => line.id)).toEqual(listed.map((item) => item.id));
    expect(lines.some((line) => line.action === 'team.member_added' && line.target_id === member.id)).toBe(true);
    expect(lines.every((line) => line.team_id === team.id)).toBe(true);
    // A query cannot widen the team: a `team_id` of another team is not a parameter of this operation.
    const widened = await call('GET', `/teams/${team.id}/audit-log/export?team_id=${other.id}`, asAdmin);
    expect(widened.text).not.toContain(other.id);

    const csv = await call('GET', `/teams/${team.id}/audit-log/export?format=csv&action=team.member_added`, asAdmin);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const rows = csv.text.trim().split('\n');
    expect(rows[0]).toBe('id,occurred_at_millis,action,team_id,actor_type,actor_id,target_type,target_id,ip_address,user_agent,details');
    expect(rows.length).toBeGreaterThan(1);
    expect(rows.slice(1).every((row: string) => row.includes(`,team.member_added,${team.id},`))).toBe(true);

    expect((await call('GET', `/teams/${other.id}/audit-log/export`, asAdmin)).body.code).toBe('TEAM_PERMISSION_REQUIRED');
    const asMember = { ...env.project.headers.client, 'x-stack-access-token': await token(member.id) };
    expect((await call('GET', `/teams/${team.id}/audit-log/export`, asMember)).body.code).toBe('TEAM_PERMISSION_REQUIRED');
    expect((await call('GET', `/teams/${randomUUID()}/audit-log/export`, env.project.headers.server)).body.code).toBe('TEAM_NOT_FOUND');
    const stranger = await env.context.createProject();
    const strangers = await call('GET', `/teams/${team.id}/audit-log/export`, stranger.headers.server);
    expect(strangers.body.code).toBe('TEAM_NOT_FOUND');
  });
});
