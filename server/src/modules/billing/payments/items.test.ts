import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { expectError, expectPlain } from '@gatehouse/testing/expect-response';
import { type TestProject, withTestContext } from '@gatehouse/testing/test-context';
import { newSignedInUser } from '@gatehouse/testing/users-fixture';

/**
 * Items and their ledger (docs/protocol/endpoints.md §22): the quantity is the unexpired manual changes plus the
 * grants of the customer's products; a decrease below zero is refused atomically, also when a
 * hundred arrive at once (real Postgres); client access reaches only the user and its teams.
 */
const catalogue = {
  items: {
    credits: { displayName: 'Credits', customerType: 'user' },
    seats: { displayName: 'Seats', customerType: 'team' },
    tokens: { customerType: 'custom' },
  },
  productLines: { plans: { displayName: 'Plans', customerType: 'user' } },
  products: {
    free: {
      displayName: 'Free',
      customerType: 'user',
      productLineId: 'plans',
      prices: 'include-by-default',
      includedItems: { credits: { quantity: 5 } },
    },
    pro: {
      displayName: 'Pro',
      customerType: 'user',
      productLineId: 'plans',
      prices: { monthly: { USD: '9.99', interval: [1, 'month'] } },
      includedItems: { credits: { quantity: 100, repeat: [1, 'month'], expires: 'when-repeated' } },
    },
  },
};
const env = withTestContext({ projectConfig: { payments: catalogue } });

type Headers = Record<string, string>;
const call = (method: 'GET' | 'POST', url: string, headers: Headers, payload?: object) =>
  env.context.request({ method, url: `/api/v1/payments${url}`, headers, ...(payload ? { payload } : {}) });
const server = () => env.project.headers.server;

const newUser = (project: TestProject = env.project) => newSignedInUser(env.context, project, { display_name: 'Buyer' });
const itemUrl = (type: string, id: string, item: string) => `/items/${type}/${id}/${item}`;
const quantityOf = async (type: string, id: string, item: string) => {
  const response = await call('GET', itemUrl(type, id, item), server());
  expect(response.status, response.text).toBe(200);
  return response.body.quantity as number;
};
const change = (type: string, id: string, item: string, body: object, allowNegative = false) =>
  call('POST', `${itemUrl(type, id, item)}/update-quantity?allow_negative=${allowNegative}`, server(), body);

let user: Awaited<ReturnType<typeof newUser>>;
beforeAll(async () => {
  user = await newUser();
});

describe('GET /payments/items/{customer_type}/{customer_id}/{item_id}', () => {
  it('answers the item with the quantity products included by default grant', async () => {
    const response = await call('GET', itemUrl('user', user.id, 'credits'), server());
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ id: 'credits', display_name: 'Credits', quantity: 5 });
    expect((await call('GET', itemUrl('custom', 'acme-42', 'tokens'), server())).body).toEqual({
      id: 'tokens',
      display_name: 'tokens',
      quantity: 0,
    });
  });

  it('refuses an unknown item, an item of another customer type, and customers that do not exist', async () => {
    expectError(await call('GET', itemUrl('user', user.id, 'gems'), server()), 404, 'ITEM_NOT_FOUND', { item_id: 'gems' });
    expectError(await call('GET', itemUrl('team', user.id, 'credits'), server()), 400, 'ITEM_CUSTOMER_TYPE_DOES_NOT_MATCH', {
      item_id: 'credits',
      customer_id: user.id,
      item_customer_type: 'user',
      actual_customer_type: 'team',
    });
    const missing = randomUUID();
    expectError(await call('GET', itemUrl('user', missing, 'credits'), server()), 400, 'CUSTOMER_DOES_NOT_EXIST', { customer_id: missing });
    expectError(await call('GET', itemUrl('team', missing, 'seats'), server()), 400, 'CUSTOMER_DOES_NOT_EXIST', { customer_id: missing });
    expectError(await call('GET', itemUrl('user', 'not-a-uuid', 'credits'), server()), 400, 'CUSTOMER_DOES_NOT_EXIST');
  });

  it('lets a client read its own items and those of its teams, nobody else’s', async () => {
    const own = await call('GET', itemUrl('user', user.id, 'credits'), user.client);
    expect(own.status, own.text).toBe(200);
    const other = await newUser();
    expectPlain(await call('GET', itemUrl('user', other.id, 'credits'), user.client), 403);
    expectPlain(await call('GET', itemUrl('custom', 'acme', 'tokens'), user.client), 403);
    expectError(await call('GET', itemUrl('user', user.id, 'credits'), env.project.headers.client), 401, 'USER_AUTHENTICATION_REQUIRED');

    const team = await env.context.services.teams.create(env.project.project, { display_name: 'Crew' }, user.id);
    const mine = await call('GET', itemUrl('team', team.id, 'seats'), user.client);
    expect(mine.body).toEqual({ id: 'seats', display_name: 'Seats', quantity: 0 });
    expectPlain(await call('GET', itemUrl('team', team.id, 'seats'), other.client), 403);
    expectPlain(await call('GET', itemUrl('team', 'not-a-uuid', 'seats'), other.client), 403);
  });

  it("reads a signed-in user's own item in one statement, and still refuses the token once the user is deleted", async () => {
    const reader = await newUser();
    const { users } = env.context.services;
    // Authentication's user read went through users.find; the item's statement now confirms the user instead.
    const userReads = vi.spyOn(users, 'find');
    try {
      const own = await call('GET', itemUrl('user', reader.id, 'credits'), reader.client);
      expect(own.body).toEqual({ id: 'credits', display_name: 'Credits', quantity: 5 });
      expect(userReads).not.toHaveBeenCalled();
    } finally {
      userReads.mockRestore();
    }
    const team = await env.context.services.teams.create(env.project.project, { display_name: 'Readers' }, reader.id);
    await users.delete(env.project.project, reader.id);
    expectError(await call('GET', itemUrl('user', reader.id, 'credits'), reader.client), 401, 'UNPARSABLE_ACCESS_TOKEN');
    expectError(await call('GET', itemUrl('team', team.id, 'seats'), reader.client), 401, 'UNPARSABLE_ACCESS_TOKEN');
    // With server access too, a deleted user's token does not authenticate.
    const serverWithToken = { ...server(), 'x-stack-access-token': reader.client['x-stack-access-token'] as string };
    expectError(await call('GET', itemUrl('user', user.id, 'credits'), serverWithToken), 401, 'UNPARSABLE_ACCESS_TOKEN');
  });
});

describe('POST /payments/items/{customer_type}/{customer_id}/{item_id}/update-quantity', () => {
  it('adds and removes quantity; expired changes stop counting; each change is an event', async () => {
    const buyer = await newUser();
    const added = await change('user', buyer.id, 'credits', { delta: 10, description: 'welcome bonus' });
    expect(added.status, added.text).toBe(200);
    expect(added.body).toEqual({});
    expect(await quantityOf('user', buyer.id, 'credits')).toBe(15);
    await change('user', buyer.id, 'credits', { delta: 20, expires_at: new Date(Date.now() + 60_000).toISOString() });
    await change('user', buyer.id, 'credits', { delta: 1000, expires_at: new Date(Date.now() - 1000).toISOString() });
    expect(await quantityOf('user', buyer.id, 'credits')).toBe(35);
    expect((await change('user', buyer.id, 'credits', { delta: -35 })).status).toBe(200);
    expect(await quantityOf('user', buyer.id, 'credits')).toBe(0);

    const events = await env.context.database.db
      .selectFrom('event')
      .select(['type', 'data'])
      .where('project_id', '=', env.project.project.id)
      .where('type', '=', 'item_quantity.changed')
      .execute();
    expect(events.map((event) => event.data)).toContainEqual({
      customer_type: 'user',
      customer_id: buyer.id,
      item_id: 'credits',
      delta: 10,
      expires_at: null,
      description: 'welcome bonus',
    });
  });

  it('refuses going below zero without allow_negative and changes nothing; allows it with', async () => {
    const buyer = await newUser();
    expectError(await change('user', buyer.id, 'credits', { delta: -6 }), 400, 'ITEM_QUANTITY_INSUFFICIENT_AMOUNT', {
      item_id: 'credits',
      customer_id: buyer.id,
      quantity: 5,
    });
    expect(await quantityOf('user', buyer.id, 'credits')).toBe(5);
    expect((await change('user', buyer.id, 'credits', { delta: -6 }, true)).status).toBe(200);
    expect(await quantityOf('user', buyer.id, 'credits')).toBe(-1);
  });

  it('refuses unknown items, other customer types, missing customers, and client access', async () => {
    expectError(await change('user', user.id, 'gems', { delta: 1 }), 404, 'ITEM_NOT_FOUND');
    expectError(await change('custom', 'acme', 'credits', { delta: 1 }), 400, 'ITEM_CUSTOMER_TYPE_DOES_NOT_MATCH');
    expectError(await change('user', randomUUID(), 'credits', { delta: 1 }), 400, 'CUSTOMER_DOES_NOT_EXIST');
    const response = await call('POST', `${itemUrl('user', user.id, 'credits')}/update-quantity?allow_negative=false`, user.client, {
      delta: 1,
    });
    expectError(response, 401, 'INSUFFICIENT_ACCESS_TYPE');
    expectError(await call('POST', `${itemUrl('user', user.id, 'credits')}/update-quantity`, server(), { delta: 1 }), 400, 'SCHEMA_ERROR');
  });

  it('checks the customer in the change itself: no separate read, and users or teams of another project do not exist', async () => {
    const { users, teams } = env.context.services;
    const userReads = vi.spyOn(users, 'find');
    const teamReads = vi.spyOn(teams, 'getMany');
    try {
      const team = await teams.create(env.project.project, { display_name: 'Seat holders' });
      expect((await change('user', user.id, 'credits', { delta: 2 })).status).toBe(200);
      expect((await change('team', team.id, 'seats', { delta: 3 })).status).toBe(200);
      expect([userReads.mock.calls.length, teamReads.mock.calls.length]).toEqual([0, 0]);
    } finally {
      userReads.mockRestore();
      teamReads.mockRestore();
    }
    const other = await env.context.createProject({ payments: catalogue });
    const stranger = await env.context.services.users.create(other.project, { display_name: 'Stranger' }, 'server');
    const strangerTeam = await env.context.services.teams.create(other.project, { display_name: 'Elsewhere' });
    expectError(await change('user', stranger.id, 'credits', { delta: 1 }), 400, 'CUSTOMER_DOES_NOT_EXIST', { customer_id: stranger.id });
    expectError(await change('team', strangerTeam.id, 'seats', { delta: 1 }), 400, 'CUSTOMER_DOES_NOT_EXIST');
    expectError(await change('user', 'not-a-uuid', 'credits', { delta: 1 }), 400, 'CUSTOMER_DOES_NOT_EXIST');
    const ledger = await sql<{
      count: string;
    }>`select count(*) from payment_item_change where customer_id in (${stranger.id}, ${strangerTeam.id})`.execute(env.context.database.db);
    expect(Number(ledger.rows[0]?.count)).toBe(0);
  });

  it('lets exactly 50 of 100 concurrent decrements of 1 on a quantity of 50 succeed, ending at 0', async () => {
    await change('custom', 'race', 'tokens', { delta: 50 });
    const results = await Promise.all(Array.from({ length: 100 }, () => change('custom', 'race', 'tokens', { delta: -1 })));
    const statuses = results.map((result) => result.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(50);
    expect(statuses.filter((status) => status === 400)).toHaveLength(50);
    for (const refused of results.filter((result) => result.status === 400))
      expect(refused.body.code).toBe('ITEM_QUANTITY_INSUFFICIENT_AMOUNT');
    expect(await quantityOf('custom', 'race', 'tokens')).toBe(0);
  });
});

describe('the quantity bound (issue #30)', () => {
  const limit = 1_000_000_000_000_000;
  /** Sets the customer item's running total as stacked changes would have left it (without its thousands of ledger rows). */
  const setTotal = (customerId: string, total: string) =>
    sql`insert into payment_item_total (project_id, customer_type, customer_id, item_id, total)
        values (${env.project.project.id}, 'user', ${customerId}, 'credits', ${total}::bigint)
        on conflict (project_id, customer_type, customer_id, item_id) do update set total = excluded.total`.execute(
      env.context.database.db,
    );

  it('refuses with ITEM_QUANTITY_OUT_OF_RANGE, not 500, a change past what bigint holds', async () => {
    const owner = await newUser();
    // What ten million stacked +10^12 changes reach: the old code answered 500 ("out of range for type bigint").
    await setTotal(owner.id, '9223372036854775000');
    const refused = await change('user', owner.id, 'credits', { delta: 1_000_000_000_000 });
    expectError(refused, 400, 'ITEM_QUANTITY_OUT_OF_RANGE');
    expect(refused.body.details).toMatchObject({ item_id: 'credits', customer_id: owner.id, limit });
    // A read of the stored value still answers.
    expect((await call('GET', itemUrl('user', owner.id, 'credits'), server())).status).toBe(200);
  });

  it('lets concurrent increments fill the bound exactly and refuses the rest (real Postgres)', async () => {
    const owner = await newUser();
    await setTotal(owner.id, String(limit - 5 * 100_000_000_000));
    const results = await Promise.all(Array.from({ length: 12 }, () => change('user', owner.id, 'credits', { delta: 100_000_000_000 })));
    expect(results.filter((result) => result.status === 200)).toHaveLength(5);
    for (const refused of results.filter((result) => result.status !== 200)) expectError(refused, 400, 'ITEM_QUANTITY_OUT_OF_RANGE');
    // The free plan's 5 credits come on top of the manual part.
    expect(await quantityOf('user', owner.id, 'credits')).toBe(limit + 5);
    // Expiring changes count too, and so does the way down.
    expectError(
      await change('user', owner.id, 'credits', { delta: 1, expires_at: new Date(Date.now() + 60_000).toISOString() }),
      400,
      'ITEM_QUANTITY_OUT_OF_RANGE',
    );
    await setTotal(owner.id, String(-limit));
    expectError(await change('user', owner.id, 'credits', { delta: -1 }, true), 400, 'ITEM_QUANTITY_OUT_OF_RANGE');
  });
});
