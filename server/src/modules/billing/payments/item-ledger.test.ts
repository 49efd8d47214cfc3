import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { expectError } from '@gatehouse/testing/expect-response';
import { type TestEnvironment, withTestContext } from '@gatehouse/testing/test-context';

/**
 * The item ledger behind update-quantity and get-item (migration 0035): one database function takes
 * the customer item's lock, checks, and writes the entry, the running total of entries that never
 * expire, and the event; a read sums only the total and the unexpired entries that expire. Exact on a
 * ledger of 50 000 entries, with expiry; a checked change sees the customer's products as they are now
 * (a cancel elsewhere is not missed); the same on PGlite.
 */
const catalogue = {
  items: {
    credits: { displayName: 'Credits', customerType: 'user' },
    tokens: { customerType: 'custom' },
  },
  products: {
    pack: {
      displayName: 'Pack',
      customerType: 'user',
      stackable: true,
      prices: { once: { USD: '5' } },
      includedItems: { credits: { quantity: 10, expires: 'when-purchase-expires' } },
    },
  },
};

type Headers = Record<string, string>;
function helpers(env: TestEnvironment) {
  const server = () => env.project.headers.server as Headers;
  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    env.context.request({ method, url: `/api/v1/payments${url}`, headers: server(), ...(payload ? { payload } : {}) });
  const quantityOf = async (type: string, id: string, item: string) => {
    const response = await call('GET', `/items/${type}/${id}/${item}`);
    expect(response.status, response.text).toBe(200);
    return response.body.quantity as number;
  };
  const change = (type: string, id: string, item: string, body: object, allowNegative = false) =>
    call('POST', `/items/${type}/${id}/${item}/update-quantity?allow_negative=${allowNegative}`, body);
  /** The manual quantity the slow way: every unexpired entry of the ledger summed. */
  const bruteForce = async (id: string, item: string) => {
    const { rows } = await sql<{ total: string | null }>`
      select sum(delta) as total from payment_item_change
      where project_id = ${env.project.project.id} and customer_type = 'custom' and customer_id = ${id} and item_id = ${item}
        and (expires_at is null or expires_at > now())`.execute(env.context.database.db);
    return Number(rows[0]?.total ?? 0);
  };
  /**
   * A ledger of `count` entries: delta (i % 7) - 3; every 10th expires in an hour, every 10th (+1)
   * expired an hour ago, the rest never expire. The last `viaFunction` go through the ledger's function
   * (one statement, as update-quantity writes them); the others are inserted in bulk with their running
   * total as migration 0035 backfills it (50 000 function calls would cost a minute on this machine).
   */
  const fillLedger = async (id: string, item: string, count: number, viaFunction = 500) => {
    const projectId = env.project.project.id;
    const db = env.context.database.db;
    const bulk = count - viaFunction;
    const expiry = (i: string) =>
      sql.raw(`case when ${i} % 10 = 0 then now() + interval '1 hour' when ${i} % 10 = 1 then now() - interval '1 hour' end`);
    await sql`
      insert into payment_item_change (id, project_id, customer_type, customer_id, item_id, delta, expires_at, created_at)
      select gen_random_uuid(), ${projectId}, 'custom', ${id}, ${item}, (i % 7) - 3, ${expiry('i')}, now()
      from generate_series(1, ${bulk}::int) as i`.execute(db);
    await sql`
      insert into payment_item_total (project_id, customer_type, customer_id, item_id, total)
      select project_id, customer_type, customer_id, item_id, sum(delta) from payment_item_change
      where project_id = ${projectId} and customer_type = 'custom' and customer_id = ${id} and item_id = ${item} and expires_at is null
      group by project_id, customer_type, customer_id, item_id`.execute(db);
    const lockKey = JSON.stringify([projectId, 'custom', id, item]);
    await sql`
      select count(*) from generate_series(${bulk + 1}::int, ${count}::int) as i,
      lateral payment_item_change_apply(${lockKey}, gen_random_uuid(), ${projectId}, 'custom', ${id}, ${item}, ((i % 7) - 3)::bigint,
        ${expiry('i')}, null::text, now(), false, 0::bigint, null::text, '{}'::jsonb)`.execute(db);
    await sql`analyze payment_item_change`.execute(db);
    let expected = 0;
    for (let i = 1; i <= count; i++) if (i % 10 !== 1) expected += (i % 7) - 3;
    return expected;
  };
  return { call, quantityOf, change, bruteForce, fillLedger };
}

describe('the item ledger on Postgres', () => {
  const env = withTestContext({ projectConfig: { payments: catalogue } });

  it('reads a ledger of 50 000 entries exactly (running total + expiring entries), and checks decrements against it', async () => {
    const { quantityOf, change, bruteForce, fillLedger } = helpers(env);
    const expected = await fillLedger('whale', 'tokens', 50_000);
    expect(await bruteForce('whale', 'tokens')).toBe(expected);
    const { rows } = await sql<{ total: string }>`select total from payment_item_total
      where project_id = ${env.project.project.id} and customer_id = 'whale' and item_id = 'tokens'`.execute(env.context.database.db);
    let neverExpiring = 0;
    for (let i = 1; i <= 50_000; i++) if (i % 10 !== 0 && i % 10 !== 1) neverExpiring += (i % 7) - 3;
    expect(rows.map((row) => Number(row.total))).toEqual([neverExpiring]);

    expect(await quantityOf('custom', 'whale', 'tokens')).toBe(expected);
    const time = async (read: () => Promise<unknown>) => {
      const started = performance.now();
      for (let run = 0; run < 10; run++) await read();
      return (performance.now() - started) / 10;
    };
    const readMs = await time(() => quantityOf('custom', 'whale', 'tokens'));
    const sumMs = await time(() => bruteForce('whale', 'tokens'));
    const db = env.context.database.db;
    const projectId = env.project.project.id;
    const manualMs = await time(() =>
      sql`select coalesce((select total from payment_item_total where project_id = ${projectId} and customer_type = 'custom'
          and customer_id = 'whale' and item_id = 'tokens'), 0) + coalesce((select sum(delta) from payment_item_change
          where project_id = ${projectId} and customer_type = 'custom' and customer_id = 'whale' and item_id = 'tokens'
            and expires_at is not null and expires_at > now()), 0)`.execute(db),
    );

    // Changes through the API keep both parts exact: one that never expires, one that expires soon.
    expect((await change('custom', 'whale', 'tokens', { delta: 7 })).status).toBe(200);
    const soon = new Date(Date.now() + 1500).toISOString();
    expect((await change('custom', 'whale', 'tokens', { delta: 5, expires_at: soon })).status).toBe(200);
    expect(await quantityOf('custom', 'whale', 'tokens')).toBe(expected + 12);
    expect(await bruteForce('whale', 'tokens')).toBe(expected + 12);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(soon) - Date.now()) + 100));
    expect(await quantityOf('custom', 'whale', 'tokens')).toBe(expected + 7);

    // A checked decrement of exactly the quantity passes; one more is refused with the quantity before it.
    expect((await change('custom', 'whale', 'tokens', { delta: -(expected + 7) })).status).toBe(200);
    expectError(await change('custom', 'whale', 'tokens', { delta: -1 }), 400, 'ITEM_QUANTITY_INSUFFICIENT_AMOUNT', {
      item_id: 'tokens',
      customer_id: 'whale',
      quantity: 0,
    });
    expect(await quantityOf('custom', 'whale', 'tokens')).toBe(0);
    expect(await bruteForce('whale', 'tokens')).toBe(0);
    console.info(
      `50 000-entry ledger (5 000 unexpired expiring): get-item ${readMs.toFixed(1)} ms; manual part now ${manualMs.toFixed(1)} ms, the old sum over every unexpired entry ${sumMs.toFixed(1)} ms (means of 10)`,
    );
  }, 120_000);

  it('reads with the index of expiring entries, not the whole ledger', async () => {
    const plan = await sql<{ 'QUERY PLAN': string }>`explain select sum(c.delta) from payment_item_change c
      where c.project_id = ${env.project.project.id} and c.customer_type = 'custom' and c.customer_id = 'whale'
        and c.item_id = 'tokens' and c.expires_at is not null and c.expires_at > now()`.execute(env.context.database.db);
    expect(plan.rows.map((row) => row['QUERY PLAN']).join('\n')).toContain('payment_item_change_expiring_idx');
  });

  it('checks a decrement against the products the customer owns now, also after a change the check did not make', async () => {
    const { call, quantityOf, change } = helpers(env);
    const { users } = env.context.services;
    const user = await users.create(env.project.project, { display_name: 'Pack owner' }, 'server');
    const grant = await call('POST', `/products/user/${user.id}`, { product_id: 'pack' });
    expect(grant.status, grant.text).toBe(200);
    expect(await quantityOf('user', user.id, 'credits')).toBe(10);
    expect((await change('user', user.id, 'credits', { delta: -4 })).status).toBe(200);
    // The pack ends (a cancel: another writer than the ledger's): its 10 credits no longer count.
    expect((await call('DELETE', `/products/user/${user.id}/pack`)).status).toBe(200);
    expect(await quantityOf('user', user.id, 'credits')).toBe(-4);
    expectError(await change('user', user.id, 'credits', { delta: -1 }), 400, 'ITEM_QUANTITY_INSUFFICIENT_AMOUNT', {
      item_id: 'credits',
      customer_id: user.id,
      quantity: -4,
    });
    // Two packs now: 20 more.
    await call('POST', `/products/user/${user.id}`, { product_id: 'pack', quantity: 2 });
    expect((await change('user', user.id, 'credits', { delta: -16 })).status).toBe(200);
    expectError(await change('user', user.id, 'credits', { delta: -1 }), 400, 'ITEM_QUANTITY_INSUFFICIENT_AMOUNT', {
      item_id: 'credits',
      customer_id: user.id,
      quantity: 0,
    });
    const events = await env.context.database.db
      .selectFrom('event')
      .select('data')
      .where('project_id', '=', env.project.project.id as never)
      .where('type', '=', 'item_quantity.changed')
      .execute();
    expect(events.map((event) => event.data).filter((data) => (data as { customer_id: string }).customer_id === user.id)).toEqual([
      { customer_type: 'user', customer_id: user.id, item_id: 'credits', delta: -4, expires_at: null, description: null },
      { customer_type: 'user', customer_id: user.id, item_id: 'credits', delta: -16, expires_at: null, description: null },
    ]);
  });
});

describe('the item ledger on PGlite', () => {
  const env = withTestContext({ database: 'pglite', projectConfig: { payments: catalogue } });

  it('runs the same function: running total, expiry, checked decrements', async () => {
    expect(env.context.database.kind).toBe('pglite');
    const { quantityOf, change, bruteForce, fillLedger } = helpers(env);
    const expected = await fillLedger('small', 'tokens', 2_000);
    expect(await bruteForce('small', 'tokens')).toBe(expected);
    expect(await quantityOf('custom', 'small', 'tokens')).toBe(expected);
    expect((await change('custom', 'small', 'tokens', { delta: -expected })).status).toBe(200);
    expectError(await change('custom', 'small', 'tokens', { delta: -1 }), 400, 'ITEM_QUANTITY_INSUFFICIENT_AMOUNT', {
      item_id: 'tokens',
      customer_id: 'small',
      quantity: 0,
    });
    expect((await change('custom', 'small', 'tokens', { delta: -1 }, true)).status).toBe(200);
    expect(await quantityOf('custom', 'small', 'tokens')).toBe(-1);
  }, 60_000);
});
