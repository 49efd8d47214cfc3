import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { planReadOperations, type SpecDocument } from './operation-plan.ts';
import { readFloors } from './read-floors.ts';

const spec = JSON.parse(readFileSync(new URL('../../../../server/src/generated/openapi.json', import.meta.url), 'utf8')) as SpecDocument;
const fixture = { project_id: 'p1', user_id: 'u1', team_id: 't1', customer_type: 'user', customer_id: 'u1', item_id: 'credits' };

describe('the per-operation bench plan', () => {
  it('holds every GET operation of the spec, and every floor names one of them', () => {
    const plan = planReadOperations(spec, readFloors, fixture);
    const gets = Object.values(spec.paths).filter((item) => item.get).length;
    expect(plan).toHaveLength(gets);
    expect(
      plan
        .filter((operation) => operation.floor)
        .map((operation) => operation.operationId)
        .sort(),
    ).toEqual(Object.keys(readFloors).sort());
  });

  it('picks up a GET operation added to the spec, measured as "no floor" until one is defined', () => {
    const added: SpecDocument = {
      ...spec,
      paths: {
        ...spec.paths,
        '/widgets/{team_id}': {
          get: {
            operationId: 'listWidgets',
            'x-access-types': ['server', 'admin'],
            parameters: [{ name: 'user_id', in: 'query', required: true }],
          },
        },
      },
    };
    const widget = planReadOperations(added, readFloors, fixture).find((operation) => operation.operationId === 'listWidgets');
    expect(widget).toEqual({
      operationId: 'listWidgets',
      specPath: '/widgets/{team_id}',
      requestPath: '/widgets/t1?user_id=u1',
      missing: [],
      accessType: 'server',
      headers: {},
      floor: undefined,
    });
    const withFloor = planReadOperations(added, { ...readFloors, listWidgets: { statement: 'select 1' } }, fixture);
    expect(withFloor.find((operation) => operation.operationId === 'listWidgets')?.floor).toEqual({ statement: 'select 1' });
  });

  it('lists an operation whose parameters the bench cannot fill, with what it lacks', () => {
    const plan = planReadOperations(spec, readFloors, fixture);
    const outbox = plan.find((operation) => operation.operationId === 'getOutboxEmail');
    expect(outbox).toMatchObject({ requestPath: undefined, missing: ['email_id'] });
  });

  it('reads `<operationId>:<name>` before `<name>`, where one parameter name means different rows', () => {
    const plan = planReadOperations(spec, readFloors, {
      ...fixture,
      directory_id: 'd1',
      scim_token: 'secret',
      'getScimUser:resource_id': 'su1',
      'getScimGroup:resource_id': 'sg1',
    });
    const find = (operationId: string) => plan.find((operation) => operation.operationId === operationId);
    expect(find('getScimUser')?.requestPath).toBe('/scim/v2/d1/Users/su1');
    expect(find('getScimGroup')?.requestPath).toBe('/scim/v2/d1/Groups/sg1');
    // A SCIM directory's own bearer token, from its security scheme.
    expect(find('listScimUsers')?.headers).toEqual({ authorization: 'Bearer secret' });
    expect(find('getCurrentUser')?.headers).toEqual({});
  });

  it('lists a SCIM operation as lacking the token when the fixture has none', () => {
    const plan = planReadOperations(spec, readFloors, { ...fixture, directory_id: 'd1' });
    expect(plan.find((operation) => operation.operationId === 'listScimUsers')).toMatchObject({
      requestPath: undefined,
      missing: ['scim_token'],
    });
  });

  it('authenticates as a user when the operation allows client access, else with the strongest key it needs', () => {
    const plan = planReadOperations(spec, readFloors, fixture);
    const accessOf = (operationId: string) => plan.find((operation) => operation.operationId === operationId)?.accessType;
    expect([accessOf('getCurrentUser'), accessOf('listUsers'), accessOf('listWebhookEndpoints'), accessOf('getHealth')]).toEqual([
      'client',
      'server',
      'admin',
      undefined,
    ]);
  });

  it('fails loudly on a floor for an operation the spec no longer has', () => {
    expect(() => planReadOperations(spec, { ...readFloors, removedOperation: {} }, fixture)).toThrow(/removedOperation/);
  });
});
