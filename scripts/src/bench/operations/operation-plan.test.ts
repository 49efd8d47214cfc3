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
