import { describe, expect, it } from 'vitest';
import type { ContractResponse } from '@gatehouse/testing/contract';
import { withTestContext } from '@gatehouse/testing/test-context';

/**
 * Issue #12 on Postgres: concurrent permission-definition writes of one project answered 500
 * (duplicate key on permission_closure_pk: each rebuilt the closure from its own snapshot). Writers
 * of a project's definitions now take turns; every answer is a success or a catalogued 4xx.
 */
const env = withTestContext({ poolSize: 10 });
type Scope = 'team' | 'project';
const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  env.context.request({ method, url: `/api/v1${url}`, headers: env.project.headers.admin, ...(payload ? { payload } : {}) });
const create = (scope: Scope, body: object) => call('POST', `/${scope}-permission-definitions`, body);
const listIds = async (scope: Scope) =>
  ((await call('GET', `/${scope}-permission-definitions`)).body.items as Array<{ id: string }>).map((item) => item.id);
const serverErrors = (answers: ContractResponse[]) => answers.filter((answer) => answer.status >= 500).map((answer) => answer.text);

describe('concurrent permission-definition writes', () => {
  it('20 creates of distinct ids in both scopes all answer 201, and the closure holds them all', async () => {
    const ids = Array.from({ length: 20 }, (_, index) => ({ scope: (index % 2 ? 'team' : 'project') as Scope, id: `race_${index}` }));
    const answers = await Promise.all(ids.map(({ scope, id }) => create(scope, { id })));
    expect(serverErrors(answers)).toEqual([]);
    expect(answers.map((answer) => answer.status)).toEqual(ids.map(() => 201));
    for (const scope of ['team', 'project'] as const)
      expect(await listIds(scope)).toEqual(expect.arrayContaining(ids.filter((entry) => entry.scope === scope).map((entry) => entry.id)));

    // The closure is whole: a definition containing all of one scope's new ids implies each of them.
    const teamIds = ids.filter((entry) => entry.scope === 'team').map((entry) => entry.id);
    expect((await create('team', { id: 'race_all', contained_permission_ids: teamIds })).status).toBe(201);
    const user = await env.context.services.users.create(env.project.project, {}, 'server');
    const team = await env.context.services.teams.create(env.project.project, { display_name: 'Racers' });
    await env.context.services.teams.addMember(env.project.project, team.id, user.id);
    expect((await call('POST', `/team-permissions/${team.id}/${user.id}/race_all`, {})).status).toBe(201);
    const effective = await call('GET', `/team-permissions?team_id=${team.id}&user_id=${user.id}&recursive=true`);
    expect(effective.body.items.map((item: { id: string }) => item.id)).toEqual(expect.arrayContaining(['race_all', ...teamIds]));
  });

  it('10 creates of one id: exactly one 201, the others PERMISSION_ID_ALREADY_EXISTS', async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, index) => create(index % 2 ? 'team' : 'project', { id: 'contested' })),
    );
    expect(serverErrors(answers)).toEqual([]);
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    for (const answer of answers.filter((candidate) => candidate.status !== 201)) {
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe('PERMISSION_ID_ALREADY_EXISTS');
    }
  });

  it('creates, renames and deletes racing one another: no 5xx', async () => {
    for (const id of ['mix_a', 'mix_b', 'mix_c']) expect((await create('team', { id })).status).toBe(201);
    const answers = await Promise.all([
      create('team', { id: 'mix_d', contained_permission_ids: ['mix_a'] }),
      call('PATCH', '/team-permission-definitions/mix_b', { id: 'mix_b2', contained_permission_ids: ['mix_c'] }),
      call('DELETE', '/team-permission-definitions/mix_a'),
      create('team', { id: 'mix_e', contained_permission_ids: ['mix_b'] }),
      call('DELETE', '/team-permission-definitions/mix_c'),
      create('project', { id: 'mix_f' }),
      call('PATCH', '/team-permission-definitions/mix_a', { description: 'changed' }),
    ]);
    expect(serverErrors(answers)).toEqual([]);
    for (const answer of answers) expect(answer.status < 300 || (answer.status >= 400 && answer.status < 500)).toBe(true);
  });
});
