import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectPlain } from '@gatehouse/testing/expect-response';
import { type TestProject, withTestContext } from '@gatehouse/testing/test-context';
import { newSignedInUser } from '@gatehouse/testing/users-fixture';

/**
 * Purchases in test mode (docs/protocol/endpoints.md §22): a purchase URL opens the hosted checkout page, the code
 * tells the page what it sells, and the test-mode endpoint completes it once, refusing what the line
 * or the project's settings do not allow.
 */
const catalogue = {
  items: { credits: { displayName: 'Credits', customerType: 'user' } },
  productLines: { plans: { displayName: 'Plans', customerType: 'user' } },
  products: {
    pro: {
      displayName: 'Pro',
      customerType: 'user',
      productLineId: 'plans',
      prices: { monthly: { USD: '9.99', interval: [1, 'month'] }, hidden: { USD: '1', serverOnly: true } },
      includedItems: { credits: { quantity: 100 } },
    },
    max: { displayName: 'Max', customerType: 'user', productLineId: 'plans', prices: { monthly: { EUR: '29', interval: [1, 'month'] } } },
    pack: {
      displayName: 'Credit pack',
      customerType: 'user',
      stackable: true,
      prices: { once: { USD: '5' } },
      includedItems: { credits: { quantity: 10 } },
    },
    secret: { customerType: 'user', serverOnly: true, prices: { once: { USD: '1' } } },
    team_plan: { customerType: 'team', prices: { yearly: { USD: '100' } } },
  },
};
const trusted = { 'domains.trustedDomains.app': { baseUrl: 'https://app.example.com', handlerPath: '/handler' } };
const env = withTestContext({ projectConfig: { payments: catalogue, ...trusted } });
let blocked: TestProject;
let live: TestProject;
beforeAll(async () => {
  blocked = await env.context.createProject({ payments: catalogue });
  live = await env.context.createProject({ payments: { ...catalogue, testMode: false } });
});

type Headers = Record<string, string>;
const post = (url: string, headers: Headers, payload: object) =>
  env.context.request({ method: 'POST', url: `/api/v1${url}`, headers, payload });
const newUser = (project: TestProject = env.project) => newSignedInUser(env.context, project, { display_name: 'Buyer' });
const createUrl = (headers: Headers, body: object) => post('/payments/purchases/create-purchase-url', headers, body);
async function codeFor(userId: string, productId: string, project: TestProject = env.project, returnUrl?: string) {
  const response = await createUrl(project.headers.server, {
    customer_type: 'user',
    customer_id: userId,
    product_id: productId,
    return_url: returnUrl,
  });
  expect(response.status, response.text).toBe(200);
  return new URL(response.body.url).searchParams.get('code') as string;
}
const pay = (fullCode: string, priceId: string, quantity?: number) =>
  post('/internal/payments/test-mode-purchase-session', {}, { full_code: fullCode, price_id: priceId, ...(quantity ? { quantity } : {}) });
const credits = async (userId: string) =>
  (await env.context.request({ url: `/api/v1/payments/items/user/${userId}/credits`, headers: env.project.headers.server })).body.quantity;

describe('POST /payments/purchases/create-purchase-url', () => {
  it('answers the URL of the checkout page, with a code of the project', async () => {
    const user = await newUser();
    const response = await createUrl(user.client, {
      customer_type: 'user',
      customer_id: user.id,
      product_id: 'pro',
      return_url: 'https://app.example.com/done',
    });
    expect(response.status, response.text).toBe(200);
    const url = new URL(response.body.url);
    expect(`${url.origin}${url.pathname}`).toBe('http://localhost:8102/api/v1/payments/purchases/checkout');
    expect(url.searchParams.get('code')).toMatch(new RegExp(`^${env.project.project.id}_[a-z2-7]{45}$`));
    const check = await env.context.request({ url: `/api/v1/payments/purchases/validate-code?full_code=${url.searchParams.get('code')}` });
    expect(check.body).toEqual({ valid: true });
    expect((await env.context.request({ url: '/api/v1/payments/purchases/validate-code?full_code=nope_abc' })).body).toEqual({
      valid: false,
    });
  });

  it('refuses what may not be bought by this caller', async () => {
    const user = await newUser();
    const body = { customer_type: 'user', customer_id: user.id };
    expectError(await createUrl(user.client, { ...body, product_id: 'secret' }), 400, 'PRODUCT_DOES_NOT_EXIST', {
      product_id: 'secret',
      context: 'server_only',
    });
    expectError(await createUrl(user.client, { ...body, product_id: 'team_plan' }), 400, 'PRODUCT_CUSTOMER_TYPE_DOES_NOT_MATCH');
    expectError(
      await createUrl(user.client, { ...body, product_id: 'pro', return_url: 'https://evil.example.org/' }),
      400,
      'REDIRECT_URL_NOT_WHITELISTED',
    );
    expectError(
      await createUrl(user.client, { ...body, product_inline: { display_name: 'Gift', customer_type: 'user' } }),
      400,
      'PURCHASE_NOT_ALLOWED',
      { reason: 'inline_product_for_client' },
    );
    await env.context.services.payments.grant(
      env.project.project,
      { type: 'user', id: user.id },
      {
        productId: 'pro',
        product: env.context.services.payments.productFor(env.project.project, 'pro', 'server'),
        quantity: 1,
        source: 'grant',
      },
    );
    expectError(await createUrl(user.client, { ...body, product_id: 'pro' }), 400, 'PRODUCT_ALREADY_GRANTED');
    const missing = randomUUID();
    expectError(
      await createUrl(env.project.headers.server, { customer_type: 'user', customer_id: missing, product_id: 'pro' }),
      400,
      'CUSTOMER_DOES_NOT_EXIST',
    );
    const other = await newUser();
    expectPlain(await createUrl(other.client, { ...body, product_id: 'pack' }), 403);
    expectError(await createUrl(env.project.headers.client, { ...body, product_id: 'pack' }), 401, 'USER_AUTHENTICATION_REQUIRED');
    const blockedUser = await newUser(blocked);
    await env.context.services.projects.update(blocked.project.id, {
      configOverride: { payments: { ...catalogue, blockNewPurchases: true } },
    });
    expectError(
      await createUrl(blocked.headers.server, { customer_type: 'user', customer_id: blockedUser.id, product_id: 'pro' }),
      403,
      'NEW_PURCHASES_BLOCKED',
    );
    await env.context.services.projects.update(blocked.project.id, { configOverride: { payments: catalogue } });
  });
});

describe('POST /payments/purchases/validate-code', () => {
  it('tells the page what the code sells and what it conflicts with', async () => {
    const user = await newUser();
    const code = await codeFor(user.id, 'max');
    const details = await post('/payments/purchases/validate-code', {}, { full_code: code, return_url: 'https://app.example.com/x' });
    expect(details.status, details.text).toBe(200);
    expect(details.body).toEqual({
      product: expect.objectContaining({ display_name: 'Max', prices: { monthly: { EUR: '29', interval: [1, 'month'] } } }),
      stripe_account_id: null,
      project_id: env.project.project.id,
      project_logo_url: null,
      already_bought_non_stackable: false,
      conflicting_products: [],
      test_mode: true,
      charges_enabled: false,
    });
    expect(details.body.product).not.toHaveProperty('server_metadata');
    const proCode = await codeFor(user.id, 'pro');
    expect((await pay(proCode, 'monthly')).status).toBe(200);
    const after = await post('/payments/purchases/validate-code', {}, { full_code: code });
    expect(after.body.conflicting_products).toEqual([{ product_id: 'pro', display_name: 'Pro' }]);
    // The server-only price is not offered.
    const third = await post('/payments/purchases/validate-code', {}, { full_code: await codeFor((await newUser()).id, 'pro') });
    expect(Object.keys(third.body.product.prices)).toEqual(['monthly']);
  });

  it('refuses unknown codes and untrusted return URLs', async () => {
    expectError(
      await post('/payments/purchases/validate-code', {}, { full_code: `${env.project.project.id}_${'a'.repeat(45)}` }),
      404,
      'VERIFICATION_CODE_NOT_FOUND',
    );
    expectError(await post('/payments/purchases/validate-code', {}, { full_code: 'garbage' }), 404, 'VERIFICATION_CODE_NOT_FOUND');
    const code = await codeFor((await newUser()).id, 'pro');
    expectError(
      await post('/payments/purchases/validate-code', {}, { full_code: code, return_url: 'https://evil.example.org/' }),
      400,
      'REDIRECT_URL_NOT_WHITELISTED',
    );
  });
});

describe('GET /payments/purchases/checkout', () => {
  it('serves the checkout page of a code, and a 404 page for an unusable one', async () => {
    const code = await codeFor((await newUser()).id, 'pro');
    const page = await env.context.request({ url: `/api/v1/payments/purchases/checkout?code=${code}` });
    expect(page.status).toBe(200);
    expect(String(page.headers['content-type'])).toMatch(/^text\/html/);
    expect(page.text).toContain('<h1>Pro</h1>');
    expect(page.text).toContain('9.99 USD every month');
    expect(page.text).not.toContain('hidden');
    const missing = await env.context.request({ url: '/api/v1/payments/purchases/checkout?code=nope' });
    expect(missing.status).toBe(404);
    expect(missing.text).toContain('cannot be used');
  });
});

describe('POST /internal/payments/test-mode-purchase-session', () => {
  it('completes a purchase once: the product is owned, its items count, the code is used up, an event is recorded', async () => {
    const user = await newUser();
    const code = await codeFor(user.id, 'pro', env.project, 'https://app.example.com/thanks');
    const response = await pay(code, 'monthly');
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ success: true, return_url: 'https://app.example.com/thanks' });
    expect(await credits(user.id)).toBe(100);
    expectError(await pay(code, 'monthly'), 404, 'VERIFICATION_CODE_NOT_FOUND');
    const events = await env.context.database.db
      .selectFrom('event')
      .select('data')
      .where('project_id', '=', env.project.project.id)
      .where('type', '=', 'product.granted')
      .execute();
    expect(events.map((event) => event.data)).toContainEqual(
      expect.objectContaining({ customer_id: user.id, product_id: 'pro', price_id: 'monthly', source: 'test_mode' }),
    );
    const row = await env.context.database.db
      .selectFrom('payment_customer_product')
      .select(['amount', 'currency', 'source', 'current_period_end'])
      .where('customer_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ amount: '9.99', currency: 'USD', source: 'test_mode' });
    expect(row.current_period_end?.getTime()).toBeGreaterThan(Date.now() + 27 * 86_400_000);
  });

  it('refuses a second product of the line, naming the conflict; a stackable one can be bought in quantity', async () => {
    const user = await newUser();
    await pay(await codeFor(user.id, 'pro'), 'monthly');
    expectError(await pay(await codeFor(user.id, 'max'), 'monthly'), 409, 'PRODUCT_LINE_CONFLICT', {
      product_id: 'max',
      conflicting_products: [{ product_id: 'pro', display_name: 'Pro' }],
    });
    expect((await pay(await codeFor(user.id, 'pack'), 'once', 3)).status).toBe(200);
    expect(await credits(user.id)).toBe(130);
  });

  it('refuses what the product, the project or the customer do not allow', async () => {
    const user = await newUser();
    const code = await codeFor(user.id, 'pro');
    expectPlain(await pay(code, 'yearly'), 400);
    expectPlain(await pay(code, 'hidden'), 400);
    expectPlain(await pay(code, 'monthly', 2), 400);
    const otherCode = await codeFor(user.id, 'pro');
    expect((await pay(code, 'monthly')).status).toBe(200);
    expectError(await pay(otherCode, 'monthly'), 400, 'PRODUCT_ALREADY_GRANTED');

    const liveUser = await newUser(live);
    expectPlain(await pay(await codeFor(liveUser.id, 'pro', live), 'monthly'), 400);

    const blockedUser = await newUser(blocked);
    const blockedCode = await codeFor(blockedUser.id, 'pro', blocked);
    await env.context.services.projects.update(blocked.project.id, {
      configOverride: { payments: { ...catalogue, blockNewPurchases: true } },
    });
    expectError(await pay(blockedCode, 'monthly'), 403, 'NEW_PURCHASES_BLOCKED');
    await env.context.services.projects.update(blocked.project.id, { configOverride: { payments: catalogue } });
  });
});
