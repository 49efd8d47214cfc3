import { describe, expect, it } from 'vitest';
import { withTestContext } from '@gatehouse/testing/test-context';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import { schemaErrors } from '@gatehouse/testing/contract';

/** Team, membership and permission changes are recorded as events (webhook delivery reads them). */
const env = withTestContext();

const eventsOf = async (projectId: ProjectId) =>
  env.context.database.db.selectFrom('event').select(['type', 'data']).where('project_id', '=', projectId).orderBy('id').execute();

describe('events', () => {
  it('records team, membership and permission changes in order, with their payloads', async () => {
    const { project, headers } = env.project;
    const call = (method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
      env.context.request({ method, url: `/api/v1${url}`, headers: headers.server, payload: payload ?? {} });
    const user = await env.context.services.users.create(project, { display_name: 'Eve' }, 'server');
    const team = (await call('POST', '/teams', { display_name: 'Blue' })).body;
    await call('PATCH', `/teams/${team.id}`, { display_name: 'Green' });
    await call('POST', `/team-memberships/${team.id}/${user.id}`);
    await env.context.services.permissions.createDefinition(project.id, 'team', { id: 'reviewer' });
    await env.context.services.permissions.createDefinition(project.id, 'project', { id: 'billing' });
    await call('POST', `/team-permissions/${team.id}/${user.id}/reviewer`);
    await call('DELETE', `/team-permissions/${team.id}/${user.id}/reviewer`);
    await call('POST', `/project-permissions/${user.id}/billing`);
    await call('DELETE', `/project-permissions/${user.id}/billing`);
    await call('DELETE', `/team-memberships/${team.id}/${user.id}`);
    await call('DELETE', `/teams/${team.id}`);

    // The audit stream (audit_log.entry_created, one per membership and permission change) has its own tests.
    const events = (await eventsOf(project.id)).filter(
      (event) => event.type !== 'user.created' && event.type !== 'audit_log.entry_created',
    );
    expect(events.map((event) => event.type)).toEqual([
      'team.created',
      'team.updated',
      'team_membership.created',
      'team_permission.created',
      'team_permission.deleted',
      'project_permission.created',
      'project_permission.deleted',
      'team_membership.deleted',
      'team.deleted',
    ]);
    expect(events[1]?.data).toMatchObject({ id: team.id, display_name: 'Green' });
    expect(events[2]?.data).toEqual({ team_id: team.id, user_id: user.id });
    expect(events[3]?.data).toEqual({ id: 'reviewer', user_id: user.id, team_id: team.id });
    expect(events[5]?.data).toEqual({ id: 'billing', user_id: user.id });
    expect(events[8]?.data).toEqual({ id: team.id });
  });

  it("records every payload in the shape of the spec's WebhookEvent (user, team, membership and permission events)", async () => {
    const { project, headers } = env.project;
    const call = (method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
      env.context.request({ method, url: `/api/v1${url}`, headers: headers.server, payload: payload ?? {} });
    const user = (await call('POST', '/users', { display_name: 'Mallory', primary_email: 'mallory@example.com' })).body;
    await call('PATCH', `/users/${user.id}`, { display_name: 'Mal' });
    const team = (await call('POST', '/teams', { display_name: 'Red' })).body;
    await call('POST', `/team-memberships/${team.id}/${user.id}`);
    await env.context.services.permissions.createDefinition(project.id, 'team', { id: 'auditor' });
    await call('POST', `/team-permissions/${team.id}/${user.id}/auditor`);
    await call('DELETE', `/users/${user.id}`);

    const events = await eventsOf(project.id);
    const seen = new Set(events.map((event) => event.type));
    for (const type of [
      'user.created',
      'user.updated',
      'user.deleted',
      'team.created',
      'team_membership.created',
      'team_permission.created',
    ]) {
      expect(seen).toContain(type);
    }
    for (const event of events) expect(schemaErrors('WebhookEvent', { type: event.type, data: event.data }), event.type).toBe('');
    expect(schemaErrors('WebhookEvent', { type: 'user.deleted', data: { id: user.id } })).not.toBe('');
  });
});
