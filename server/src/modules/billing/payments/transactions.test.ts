import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { expectError, expectPlain } from '@gatehouse/testing/expect-response';
import { type TestProject, withTestContext } from '@gatehouse/testing/test-context';

/**
 * The admin view of payments (docs/protocol/endpoints.md §25): every purchase, grant, manual item change and refund
 * of the project, newest first with a keyset cursor and filters; refunds of test-mode purchases
 * reverse what the purchase granted, exactly once (also when two refunds race, on real Postgres).
 */
const catalogue = {
  items: { credits: { displayName: 'Credits', customerType: 'user' }, seats: { displayName: 'Seats', customerType: 'team' } },
  productLines: { plans: { displayName: 'Plans', customerType: 'user' } },
  products: {
    pro: {
      displayName: 'Pro',
      customerType: 'user',
      productLineId: 'plans',
      prices: { monthly: { USD: '9.99', interval: [1, 'month'] } },
      includedItems: { credits: { quantity: 100 } },
    },
    pack: {
      displayName: 'Credit pack',
      customerType: 'user',
      stackable: true,
      prices: { once: { USD: '5' } },
      includedItems: { credits: { quantity: 10, expires: 'never' } },
    },
    team_plan: { displayName: 'Team plan', customerType: 'team', prices: { yearly: { USD: '100' } } },
  },
};
const env = withTestContext({ projectConfig: { payments: catalogue } });

type Headers = Record<string, string>;
const request = (method: 'GET' | 'POST', url: string, headers: Headers, payload?: object) =>
  env.context.request({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
const admin = (project: TestProject = env.project) => project.headers.admin;

async function newUser(project: TestProject = env.project) {
  return env.context.services.users.create(project.project, { display_name: 'Buyer' }, 'server');
}
/** Buys a product in test mode through the checkout endpoints; answers the purchase's transaction id. */
async function buy(userId: string, productId: string, priceId: string, project: TestProject = env.project): Promise<string> {
  const created = await request('POST', '/payments/purchases/create-purchase-url', project.headers.server, {
    customer_type: 'user',
    customer_id: userId,
    product_id: productId,
  });
  expect(created.status, created.text).toBe(200);
  const code = new URL(created.body.url).searchParams.get('code') as string;
  const paid = await request('POST', '/internal/payments/test-mode-purchase-session', {}, { full_code: code, price_id: priceId });
  expect(paid.status, paid.text).toBe(200);
  const list = await request('GET', `/internal/payments/transactions?type=purchase&customer_id=${userId}&limit=1`, admin(project));
  return list.body.transactions[0].id;
}
const credits = async (userId: string) =>
  (await request('GET', `/payments/items/user/${userId}/credits`, env.project.headers.server)).body.quantity;
const refund = (body: object, project: TestProject = env.project) =>
  request('POST', '/internal/payments/transactions/refund', admin(project), body);
const list = (query: string, project: TestProject = env.project) =>
  request('GET', `/internal/payments/transactions${query}`, admin(project));

describe('GET /internal/payments/transactions', () => {
  it('lists purchases, grants, item changes and refunds newest first, each with its fields', async () => {
    const project = await env.context.createProject({ payments: catalogue });
    const user = await newUser(project);
    const purchaseId = await buy(user.id, 'pack', 'once', project);
    const granted = await request('POST', `/payments/products/user/${user.id}`, project.headers.server, { product_id: 'pro' });
    expect(granted.status, granted.text).toBe(200);
    const changed = await request(
      'POST',
      `/payments/items/user/${user.id}/credits/update-quantity?allow_negative=false`,
      project.headers.server,
      { delta: -3, description: 'used' },
    );
    expect(changed.status, changed.text).toBe(200);
    const refunded = await refund({ type: 'one-time-purchase', id: purchaseId, amount_usd: '0' }, project);
    expect(refunded.status, refunded.text).toBe(200);

    const response = await list('', project);
    expect(response.status, response.text).toBe(200);
    expect(response.body.next_cursor).toBeNull();
    const [refundTx, change, grant, purchase] = response.body.transactions;
    expect(response.body.transactions.map((tx: { type: string }) => tx.type)).toEqual([
      'refund',
      'manual-item-quantity-change',
      'product-grant',
      'purchase',
    ]);
    expect(purchase).toMatchObject({
      id: purchaseId,
      customer_type: 'user',
      customer_id: user.id,
      test_mode: true,
      product_id: 'pack',
      product_display_name: 'Credit pack',
      price_id: 'once',
      quantity: 1,
      amount: '5',
      currency: 'USD',
      status: 'refunded',
      item_id: null,
      delta: null,
      refunded_transaction_id: null,
    });
    expect(grant).toMatchObject({
      id: granted.body.subscription_id,
      test_mode: false,
      product_id: 'pro',
      status: 'active',
      amount: null,
    });
    expect(change).toMatchObject({ item_id: 'credits', delta: -3, description: 'used', product_id: null, status: null });
    expect(refundTx).toMatchObject({
      id: refunded.body.refund_transaction_id,
      test_mode: true,
      product_id: 'pack',
      amount: '0',
      currency: 'USD',
      refunded_transaction_id: purchaseId,
    });
    expect(refundTx.created_at_millis).toBeGreaterThanOrEqual(purchase.created_at_millis);
  });

  it('filters by type, customer type and customer', async () => {
    const project = await env.context.createProject({ payments: catalogue });
    const [first, second] = [await newUser(project), await newUser(project)];
    await buy(first.id, 'pack', 'once', project);
    await buy(second.id, 'pack', 'once', project);
    const team = await env.context.services.teams.create(project.project, { display_name: 'Team' });
    const teamGrant = await request('POST', `/payments/products/team/${team.id}`, project.headers.server, { product_id: 'team_plan' });
    expect(teamGrant.status, teamGrant.text).toBe(200);

    const purchases = (await list('?type=purchase', project)).body.transactions;
    expect(purchases.map((tx: { customer_id: string }) => tx.customer_id).sort()).toEqual([first.id, second.id].sort());
    expect((await list(`?customer_id=${first.id}`, project)).body.transactions).toHaveLength(1);
    const teams = (await list('?customer_type=team', project)).body.transactions;
    expect(teams).toHaveLength(1);
    expect(teams[0]).toMatchObject({ type: 'product-grant', customer_id: team.id, product_id: 'team_plan' });
    expect((await list('?type=refund', project)).body.transactions).toEqual([]);
    // Another project's transactions are never listed.
    expect((await list(`?customer_id=${first.id}`)).body.transactions).toEqual([]);
  });

  it('pages with a keyset cursor: no transaction twice or left out, also when new ones arrive between pages', async () => {
    const project = await env.context.createProject({ payments: catalogue });
    const user = await newUser(project);
    const change = (delta: number) =>
      request('POST', `/payments/items/user/${user.id}/credits/update-quantity?allow_negative=true`, project.headers.server, {
        delta,
      });
    for (let delta = 1; delta <= 7; delta += 1) expect((await change(delta)).status).toBe(200);

    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await list(`?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, project);
      expect(page.status, page.text).toBe(200);
      seen.push(...page.body.transactions.map((tx: { delta: number }) => tx.delta));
      cursor = page.body.next_cursor;
      pages += 1;
      // A change written after the first page is newer than every later page: it shifts nothing.
      if (pages === 1) expect((await change(100)).status).toBe(200);
    } while (cursor !== null);
    expect(pages).toBe(3);
    expect(seen).toEqual([7, 6, 5, 4, 3, 2, 1]);
    expect((await list('?limit=1', project)).body.transactions[0].delta).toBe(100);
  });

  it('refuses a cursor it did not give (plain 400)', async () => {
    expectPlain(await list('?cursor=not-a-cursor'), 400);
    const forged = Buffer.from(JSON.stringify(["2020-01-01'; drop table x", randomUUID()])).toString('base64url');
    expectPlain(await list(`?cursor=${forged}`), 400);
    expectError(await list('?type=gift'), 400, 'SCHEMA_ERROR');
  });
});

describe('POST /internal/payments/transactions/refund', () => {
  it('reverses a test-mode purchase once: its items stop counting, also those that never expire', async () => {
    const user = await newUser();
    const purchaseId = await buy(user.id, 'pack', 'once');
    expect(await credits(user.id)).toBe(10);
    const response = await refund({ type: 'one-time-purchase', id: purchaseId, amount_usd: '0' });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ success: true, refund_transaction_id: expect.any(String) });
    expect(await credits(user.id)).toBe(0);
    const owned = await request('GET', `/payments/products/user/${user.id}`, env.project.headers.server);
    expect(owned.body.items).toEqual([]);

    expectError(await refund({ type: 'one-time-purchase', id: purchaseId, amount_usd: '0' }), 400, 'ONE_TIME_PURCHASE_ALREADY_REFUNDED', {
      one_time_purchase_id: purchaseId,
    });
    expect(await credits(user.id)).toBe(0);
    expect((await list(`?type=refund&customer_id=${user.id}`)).body.transactions).toHaveLength(1);
  });

  it('refunds a subscription bought in test mode once', async () => {
    const user = await newUser();
    const purchaseId = await buy(user.id, 'pro', 'monthly');
    expect(await credits(user.id)).toBe(100);
    const response = await refund({ type: 'subscription', id: purchaseId, invoice_id: purchaseId, amount_usd: '0', end_action: 'now' });
    expect(response.status, response.text).toBe(200);
    expect(await credits(user.id)).toBe(0);
    expectError(await refund({ type: 'subscription', id: purchaseId, amount_usd: '0' }), 400, 'SUBSCRIPTION_ALREADY_REFUNDED', {
      subscription_id: purchaseId,
    });
  });

  it('applies one of two racing refunds of the same purchase', async () => {
    const user = await newUser();
    const purchaseId = await buy(user.id, 'pack', 'once');
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => refund({ type: 'one-time-purchase', id: purchaseId, amount_usd: '0' })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400, 400, 400, 400]);
    for (const answer of answers.filter((each) => each.status === 400)) expect(answer.body.code).toBe('ONE_TIME_PURCHASE_ALREADY_REFUNDED');
    expect((await list(`?type=refund&customer_id=${user.id}`)).body.transactions).toHaveLength(1);
    const events = await env.context.database.db
      .selectFrom('event')
      .select('data')
      .where('project_id', '=', env.project.project.id)
      .where('type', '=', 'product.refunded')
      .execute();
    expect(events.filter((event) => (event.data as { id: string }).id === purchaseId)).toHaveLength(1);
  });

  it('keeps money out of test mode: an amount is TEST_MODE_PURCHASE_NON_REFUNDABLE, at-period-end REFUND_NOT_POSSIBLE', async () => {
    const user = await newUser();
    const purchaseId = await buy(user.id, 'pro', 'monthly');
    expectError(await refund({ type: 'subscription', id: purchaseId, amount_usd: '9.99' }), 400, 'TEST_MODE_PURCHASE_NON_REFUNDABLE');
    expectError(
      await refund({ type: 'subscription', id: purchaseId, amount_usd: '0', end_action: 'at-period-end' }),
      400,
      'REFUND_NOT_POSSIBLE',
      {
        reason: 'test_mode_period_end',
      },
    );
    expect(await credits(user.id)).toBe(100);
  });

  it('finds no purchase for an unknown id, the other type, another project, or a server grant', async () => {
    const user = await newUser();
    const purchaseId = await buy(user.id, 'pack', 'once');
    const missing = randomUUID();
    expectError(await refund({ type: 'one-time-purchase', id: missing, amount_usd: '0' }), 404, 'ONE_TIME_PURCHASE_NOT_FOUND', {
      one_time_purchase_id: missing,
    });
    expectError(await refund({ type: 'one-time-purchase', id: 'not-a-uuid', amount_usd: '0' }), 404, 'ONE_TIME_PURCHASE_NOT_FOUND');
    expectError(await refund({ type: 'subscription', id: purchaseId, amount_usd: '0' }), 404, 'SUBSCRIPTION_INVOICE_NOT_FOUND', {
      subscription_invoice_id: purchaseId,
    });
    expectError(
      await refund({ type: 'one-time-purchase', id: purchaseId, invoice_id: missing, amount_usd: '0' }),
      404,
      'ONE_TIME_PURCHASE_NOT_FOUND',
    );
    const other = await env.context.createProject({ payments: catalogue });
    expectError(await refund({ type: 'one-time-purchase', id: purchaseId, amount_usd: '0' }, other), 404, 'ONE_TIME_PURCHASE_NOT_FOUND');
    const granted = await request('POST', `/payments/products/user/${user.id}`, env.project.headers.server, { product_id: 'pro' });
    expectError(
      await refund({ type: 'subscription', id: granted.body.subscription_id, amount_usd: '0' }),
      404,
      'SUBSCRIPTION_INVOICE_NOT_FOUND',
    );
    expectError(await refund({ type: 'one-time-purchase', id: purchaseId, amount_usd: '1.234' }), 400, 'SCHEMA_ERROR');
    expect(await credits(user.id)).toBe(110);
  });

  it('is for admins only', async () => {
    const body = { type: 'one-time-purchase', id: randomUUID(), amount_usd: '0' };
    const response = await request('POST', '/internal/payments/transactions/refund', env.project.headers.server, body);
    expect(response.status).toBe(401);
  });
});
