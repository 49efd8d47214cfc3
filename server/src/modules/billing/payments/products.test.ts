import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectPlain } from '@gatehouse/testing/expect-response';
import { type TestProject, withTestContext } from '@gatehouse/testing/test-context';
import { newSignedInUser } from '@gatehouse/testing/users-fixture';

/**
 * Products of a customer (docs/protocol/endpoints.md §22): the list (defaults included), server grants with the
 * line's exclusivity, cancel, switch within a line; billing reads that never fail.
 */
const catalogue = {
  items: { credits: { displayName: 'Credits', customerType: 'user' }, seats: { customerType: 'team' } },
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
      serverMetadata: { internal: 'yes' },
      clientMetadata: { tier: 2 },
    },
    max: {
      displayName: 'Max',
      customerType: 'user',
      productLineId: 'plans',
      prices: { monthly: { USD: '29', interval: [1, 'month'] }, yearly: { USD: '290', interval: [1, 'year'] } },
      includedItems: { credits: { quantity: 1000, repeat: [1, 'month'], expires: 'when-repeated' } },
    },
    boost: {
      displayName: 'Boost',
      customerType: 'user',
      productLineId: 'plans',
      isAddOnTo: { pro: true },
      stackable: true,
      prices: { once: { USD: '5' } },
      includedItems: { credits: { quantity: 50 } },
    },
    monthly_drip: {
      customerType: 'user',
      prices: { once: { USD: '1' } },
      includedItems: { credits: { quantity: 10, repeat: [1, 'month'], expires: 'never' } },
    },
    secret: { customerType: 'user', productLineId: 'plans', serverOnly: true, prices: { once: { USD: '1' } } },
    team_plan: {
      customerType: 'team',
      prices: { yearly: { USD: '100', interval: [1, 'year'] } },
      includedItems: { seats: { quantity: 5 } },
    },
  },
};
const env = withTestContext({ projectConfig: { payments: catalogue } });
let empty: TestProject;
let blocked: TestProject;
let live: TestProject;
beforeAll(async () => {
  empty = await env.context.createProject();
  blocked = await env.context.createProject({ payments: { ...catalogue, blockNewPurchases: true } });
  live = await env.context.createProject({ payments: { ...catalogue, testMode: false } });
});

type Headers = Record<string, string>;
const call = (method: 'GET' | 'POST' | 'DELETE', url: string, headers: Headers, payload?: object) =>
  env.context.request({ method, url: `/api/v1/payments${url}`, headers, ...(payload ? { payload } : {}) });

const newUser = (project: TestProject = env.project) => newSignedInUser(env.context, project, { display_name: 'Buyer' });
const grant = (userId: string, body: object, project: TestProject = env.project) =>
  call('POST', `/products/user/${userId}`, project.headers.server, body);
const productsOf = async (userId: string, headers: Headers = env.project.headers.server) => {
  const response = await call('GET', `/products/user/${userId}`, headers);
  expect(response.status, response.text).toBe(200);
  return response.body.items as Array<{
    id: string | null;
    quantity: number;
    product: Record<string, unknown>;
    subscription: { subscription_id: string } | null;
  }>;
};
const credits = async (userId: string) => (await call('GET', `/items/user/${userId}/credits`, env.project.headers.server)).body.quantity;

describe('GET /payments/products/{customer_type}/{customer_id}', () => {
  it('lists the products included by default, and pages', async () => {
    const user = await newUser();
    const products = await productsOf(user.id);
    expect(products).toEqual([
      {
        id: 'free',
        quantity: 1,
        product: {
          display_name: 'Free',
          customer_type: 'user',
          server_only: false,
          stackable: false,
          prices: 'include-by-default',
          included_items: { credits: { quantity: 5, repeat: 'never', expires: 'never' } },
          client_metadata: null,
          client_read_only_metadata: null,
          server_metadata: null,
        },
        type: 'one_time',
        subscription: null,
        switch_options: [],
      },
    ]);
    await grant(user.id, { product_id: 'monthly_drip' });
    const first = await call('GET', `/products/user/${user.id}?limit=1`, env.project.headers.server);
    expect(first.body.items.map((item: { id: string }) => item.id)).toEqual(['free']);
    expect(first.body.pagination.next_cursor).toEqual(expect.any(String));
    const second = await call(
      'GET',
      `/products/user/${user.id}?limit=1&cursor=${first.body.pagination.next_cursor}`,
      env.project.headers.server,
    );
    expect(second.body.items.map((item: { id: string }) => item.id)).toEqual(['monthly_drip']);
    expect(second.body.pagination.next_cursor).toBeNull();
  });

  it('answers an empty list, and billing without a customer, in a project that has set nothing up', async () => {
    const user = await newUser(empty);
    for (const headers of [empty.headers.server, user.client]) {
      const list = await call('GET', `/products/user/${user.id}`, headers);
      expect(list.status, list.text).toBe(200);
      expect(list.body).toEqual({ items: [], is_paginated: true, pagination: { next_cursor: null } });
      const billing = await call('GET', `/billing/user/${user.id}`, headers);
      expect(billing.status, billing.text).toBe(200);
      expect(billing.body).toEqual({ has_customer: false, default_payment_method: null });
    }
    const team = await env.context.services.teams.create(empty.project, { display_name: 'Crew' }, user.id);
    expect((await call('GET', `/billing/team/${team.id}`, user.client)).body.has_customer).toBe(false);
    expect((await call('GET', `/products/team/${team.id}`, user.client)).body.items).toEqual([]);
    expect((await call('GET', `/billing/custom/acme`, empty.headers.server)).status).toBe(200);
  });

  it('keeps other customers out for clients; hides server metadata from them', async () => {
    const user = await newUser();
    const other = await newUser();
    expectPlain(await call('GET', `/products/user/${other.id}`, user.client), 403);
    expectPlain(await call('GET', `/billing/user/${other.id}`, user.client), 403);
    expectError(await call('GET', `/billing/user/${user.id}`, env.project.headers.client), 401, 'USER_AUTHENTICATION_REQUIRED');
    expectError(await call('GET', `/products/user/${user.id}`, env.project.headers.client), 401, 'USER_AUTHENTICATION_REQUIRED');
    await grant(user.id, { product_id: 'pro' });
    const [pro] = (await productsOf(user.id, user.client)).filter((item) => item.id === 'pro');
    expect(pro?.product).not.toHaveProperty('server_metadata');
    expect(pro?.product.client_metadata).toEqual({ tier: 2 });
    const [serverView] = (await productsOf(user.id)).filter((item) => item.id === 'pro');
    expect(serverView?.product.server_metadata).toEqual({ internal: 'yes' });
  });
});

describe('POST /payments/products/{customer_type}/{customer_id}', () => {
  it('grants a product: its items count, the default of its line steps aside, add-ons stack beside it', async () => {
    const user = await newUser();
    expect(await credits(user.id)).toBe(5);
    const granted = await grant(user.id, { product_id: 'pro' });
    expect(granted.status, granted.text).toBe(200);
    expect(granted.body).toEqual({ success: true, subscription_id: expect.any(String) });
    expect(await credits(user.id)).toBe(100);
    expect((await productsOf(user.id)).map((item) => item.id)).toEqual(['pro']);
    const [pro] = await productsOf(user.id);
    expect(pro?.subscription?.subscription_id).toBe(granted.body.subscription_id);
    expect(await grant(user.id, { product_id: 'boost', quantity: 2 })).toMatchObject({ status: 200 });
    expect(await credits(user.id)).toBe(200);
    expect((await productsOf(user.id)).map((item) => [item.id, item.quantity])).toEqual([
      ['pro', 1],
      ['boost', 2],
    ]);
  });

  it('replaces what the customer owns of the same line (products of a line exclude each other)', async () => {
    const user = await newUser();
    await grant(user.id, { product_id: 'pro' });
    await grant(user.id, { product_id: 'max' });
    expect((await productsOf(user.id)).map((item) => item.id)).toEqual(['max']);
    expect(await credits(user.id)).toBe(1000);
  });

  it('counts a repeating grant that never expires once per period begun', async () => {
    const user = await newUser();
    const granted = await grant(user.id, { product_id: 'monthly_drip' });
    expect(await credits(user.id)).toBe(15);
    const fourMonthsAgo = new Date();
    fourMonthsAgo.setUTCMonth(fourMonthsAgo.getUTCMonth() - 4);
    fourMonthsAgo.setUTCDate(fourMonthsAgo.getUTCDate() - 1);
    await env.context.database.db
      .updateTable('payment_customer_product')
      .set({ created_at: fourMonthsAgo })
      .where('id', '=', granted.body.subscription_id)
      .execute();
    expect(await credits(user.id)).toBe(5 + 50);
  });

  it('grants an inline product', async () => {
    const user = await newUser();
    const response = await grant(user.id, {
      product_inline: {
        display_name: 'Gift',
        customer_type: 'user',
        included_items: { credits: { quantity: 7 } },
        prices: { gift: { USD: '0' } },
      },
    });
    expect(response.status, response.text).toBe(200);
    expect(await credits(user.id)).toBe(12);
    const [, gift] = await productsOf(user.id);
    expect(gift).toMatchObject({ id: null, product: { display_name: 'Gift', server_only: true, stackable: false } });
    const invalid = await grant(user.id, {
      product_inline: { display_name: 'Bad', customer_type: 'user', prices: { p: { USD: '1.234' } } },
    });
    expectPlain(invalid, 400);
    expect(invalid.text).toBe('product_inline.prices.p.USD: Too many decimals; USD only has 2 decimals');
  });

  it('refuses unknown products, other customer types, a second non-stackable one, missing customers', async () => {
    const user = await newUser();
    expectError(await grant(user.id, { product_id: 'gold' }), 400, 'PRODUCT_DOES_NOT_EXIST', { product_id: 'gold', context: null });
    expectError(await grant(user.id, { product_id: 'credits' }), 400, 'PRODUCT_DOES_NOT_EXIST', {
      product_id: 'credits',
      context: 'item_exists',
    });
    expectError(await grant(user.id, { product_id: 'team_plan' }), 400, 'PRODUCT_CUSTOMER_TYPE_DOES_NOT_MATCH', {
      product_id: 'team_plan',
      customer_id: user.id,
      product_customer_type: 'team',
      actual_customer_type: 'user',
    });
    await grant(user.id, { product_id: 'pro' });
    expectError(await grant(user.id, { product_id: 'pro' }), 400, 'PRODUCT_ALREADY_GRANTED', { product_id: 'pro', customer_id: user.id });
    const missing = randomUUID();
    expectError(await grant(missing, { product_id: 'pro' }), 400, 'CUSTOMER_DOES_NOT_EXIST', { customer_id: missing });
    expectPlain(await grant(user.id, {}), 400);
    expectPlain(await grant(user.id, { product_id: 'max', quantity: 2 }), 400);
    expectError(await call('POST', `/products/user/${user.id}`, user.client, { product_id: 'pro' }), 401, 'INSUFFICIENT_ACCESS_TYPE');
  });
});

describe('DELETE /payments/products/{customer_type}/{customer_id}/{product_id}', () => {
  it('cancels an owned product (its grants stop, the default comes back); a product not owned is a plain 404', async () => {
    const user = await newUser();
    await grant(user.id, { product_id: 'pro' });
    const canceled = await call('DELETE', `/products/user/${user.id}/pro`, user.client);
    expect(canceled.status, canceled.text).toBe(200);
    expect(canceled.body).toEqual({ success: true });
    expect(await credits(user.id)).toBe(5);
    expect((await productsOf(user.id)).map((item) => item.id)).toEqual(['free']);
    expectPlain(await call('DELETE', `/products/user/${user.id}/pro`, env.project.headers.server), 404);
    const other = await newUser();
    expectPlain(await call('DELETE', `/products/user/${user.id}/pro`, other.client), 403);
    expectError(await call('DELETE', `/products/user/${user.id}/pro`, env.project.headers.client), 401, 'USER_AUTHENTICATION_REQUIRED');
  });

  it('cancels the one ownership subscription_id names', async () => {
    const user = await newUser();
    const first = await grant(user.id, { product_id: 'boost' });
    await grant(user.id, { product_id: 'boost' });
    const response = await call(
      'DELETE',
      `/products/user/${user.id}/boost?subscription_id=${first.body.subscription_id}`,
      env.project.headers.server,
    );
    expect(response.status).toBe(200);
    expect((await productsOf(user.id)).filter((item) => item.id === 'boost')).toHaveLength(1);
  });
});

describe('POST /payments/products/{customer_type}/{customer_id}/switch', () => {
  it('moves a customer to another product of the line', async () => {
    const user = await newUser();
    await grant(user.id, { product_id: 'pro' });
    const response = await call('POST', `/products/user/${user.id}/switch`, user.client, {
      from_product_id: 'pro',
      to_product_id: 'max',
      price_id: 'yearly',
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ success: true });
    expect((await productsOf(user.id)).map((item) => item.id)).toEqual(['max']);
    expect(await credits(user.id)).toBe(1000);
  });

  it('refuses what the rules do not allow', async () => {
    const user = await newUser();
    const switchTo = (body: object, headers: Headers = user.client) => call('POST', `/products/user/${user.id}/switch`, headers, body);
    expectPlain(await switchTo({ from_product_id: 'pro', to_product_id: 'max' }), 404);
    await grant(user.id, { product_id: 'pro' });
    expectPlain(await switchTo({ from_product_id: 'pro', to_product_id: 'monthly_drip' }), 400);
    expectPlain(await switchTo({ from_product_id: 'pro', to_product_id: 'max', price_id: 'weekly' }), 400);
    expectError(await switchTo({ from_product_id: 'pro', to_product_id: 'secret' }), 400, 'PRODUCT_DOES_NOT_EXIST', {
      product_id: 'secret',
      context: 'server_only',
    });
    expectPlain(await switchTo({ from_product_id: 'pro', to_product_id: 'max' }, (await newUser()).client), 403);
    expectError(
      await switchTo({ from_product_id: 'pro', to_product_id: 'max' }, env.project.headers.client),
      401,
      'USER_AUTHENTICATION_REQUIRED',
    );

    const blockedUser = await newUser(blocked);
    const blockedResponse = await call('POST', `/products/user/${blockedUser.id}/switch`, blocked.headers.server, {
      from_product_id: 'pro',
      to_product_id: 'max',
    });
    expectError(blockedResponse, 403, 'NEW_PURCHASES_BLOCKED');

    const liveUser = await newUser(live);
    await grant(liveUser.id, { product_id: 'pro' }, live);
    const liveResponse = await call('POST', `/products/user/${liveUser.id}/switch`, live.headers.server, {
      from_product_id: 'pro',
      to_product_id: 'max',
    });
    expectError(liveResponse, 400, 'DEFAULT_PAYMENT_METHOD_REQUIRED', { customer_type: 'user', customer_id: liveUser.id });
  });

  it('takes no custom customer: a paid switch of one cannot be asked for (no payment method to charge)', async () => {
    const tiers = { customerType: 'custom', productLineId: 'tiers' };
    const vendors = await env.context.createProject({
      payments: {
        testMode: false,
        productLines: { tiers: { displayName: 'Tiers', customerType: 'custom' } },
        products: {
          basic: { ...tiers, prices: { monthly: { USD: '5', interval: [1, 'month'] } } },
          plus: { ...tiers, prices: { monthly: { USD: '15', interval: [1, 'month'] } } },
        },
      },
    });
    const granted = await call('POST', '/products/custom/acme', vendors.headers.server, { product_id: 'basic' });
    expect(granted.status, granted.text).toBe(200);
    const refused = await call('POST', '/products/custom/acme/switch', vendors.headers.server, {
      from_product_id: 'basic',
      to_product_id: 'plus',
    });
    expectError(refused, 400, 'SCHEMA_ERROR', { message: 'params/customer_type must be one of ["user","team"]' });
  });
});
