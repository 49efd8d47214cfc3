import { describe, expect, it } from 'vitest';
import { expectError, expectPlain } from '@gatehouse/testing/expect-response';
import { readPaymentSettings } from './payment-settings.ts';
import { accountId, catalogue, context, offContext, project, standIn, useStripeMode } from '@gatehouse/testing/stripe-mode';

/**
 * Stripe mode (docs/protocol/endpoints.md §22) with the real `stripe` SDK against a local stand-in of Stripe's
 * API: a project's connected account (onboarding link, account info, embedded-component session), its
 * payment method configurations, and the settings of the browser pages. The webhook: stripe-webhook.test.ts.
 */
useStripeMode();

describe('the connected account', () => {
  it('creates the account once, answers fresh onboarding links, its info and embedded-component sessions', async () => {
    expect(standIn.calls('POST', '/v1/accounts')).toHaveLength(1);
    expect(standIn.accounts.get(accountId)?.metadata).toEqual({ gatehouse_project_id: project.project.id });
    const again = await context.request({
      method: 'POST',
      url: '/api/v1/internal/payments/setup',
      headers: project.headers.admin,
      payload: {},
    });
    expect(again.status, again.text).toBe(200);
    expect(again.body.url).toBe(`${standIn.url}/setup/${accountId}`);
    expect(standIn.calls('POST', '/v1/accounts')).toHaveLength(1);
    const link = standIn.calls('POST', '/v1/account_links').at(-1);
    expect(link?.body.get('type')).toBe('account_onboarding');
    expect(link?.body.get('return_url')).toBe(`http://localhost:8102/dashboard/projects/${project.project.id}/payments`);

    const info = await context.request({ url: '/api/v1/internal/payments/stripe/account-info', headers: project.headers.admin });
    expect(info.status, info.text).toBe(200);
    expect(info.body).toEqual({ account_id: accountId, charges_enabled: false, details_submitted: false, payouts_enabled: false });

    const session = await context.request({
      method: 'POST',
      url: '/api/v1/internal/payments/stripe-widgets/account-session',
      headers: project.headers.admin,
      payload: {},
    });
    expect(session.status, session.text).toBe(200);
    expect(session.body.client_secret).toMatch(/^accs_secret_/);
    const asked = standIn.calls('POST', '/v1/account_sessions').at(-1)?.body;
    expect(asked?.get('account')).toBe(accountId);
    // The components the dashboard mounts with it.
    for (const component of ['account_onboarding', 'account_management', 'notification_banner', 'payments', 'payouts'])
      expect(asked?.get(`components[${component}][enabled]`), component).toBe('true');
  });

  it('is STRIPE_ACCOUNT_INFO_NOT_FOUND before setup, and setup is a plain 400 on a server without a Stripe key', async () => {
    const fresh = await context.createProject({ payments: catalogue });
    expectError(
      await context.request({ url: '/api/v1/internal/payments/stripe/account-info', headers: fresh.headers.admin }),
      404,
      'STRIPE_ACCOUNT_INFO_NOT_FOUND',
    );
    expectError(
      await context.request({
        method: 'POST',
        url: '/api/v1/internal/payments/stripe-widgets/account-session',
        headers: fresh.headers.admin,
        payload: {},
      }),
      404,
      'STRIPE_ACCOUNT_INFO_NOT_FOUND',
    );
    const off = await offContext.createProject({ payments: catalogue });
    expectPlain(
      await offContext.request({ method: 'POST', url: '/api/v1/internal/payments/setup', headers: off.headers.admin, payload: {} }),
      400,
    );
    expectError(
      await offContext.request({ url: '/api/v1/internal/payments/stripe/account-info', headers: off.headers.admin }),
      404,
      'STRIPE_ACCOUNT_INFO_NOT_FOUND',
    );
  });
});

describe('GET/PATCH /internal/payments/method-configs', () => {
  const url = '/api/v1/internal/payments/method-configs';
  it("reads the connected account's default configuration and turns methods on and off there", async () => {
    const read = await context.request({ url, headers: project.headers.admin });
    expect(read.status, read.text).toBe(200);
    const configId = read.body.config_id;
    expect(configId).toMatch(/^pmc_/);
    expect(read.body.methods).toEqual([
      { id: 'card', name: 'Card', enabled: true, available: true, overridable: null },
      { id: 'link', name: 'Link', enabled: true, available: true, overridable: null },
      { id: 'klarna', name: 'Klarna', enabled: false, available: false, overridable: null },
    ]);
    expect(standIn.calls('GET', '/v1/payment_method_configurations').at(-1)?.stripeAccount).toBe(accountId);

    const patch = (payload: object) => context.request({ method: 'PATCH', url, headers: project.headers.admin, payload });
    const changed = await patch({ config_id: configId, updates: { link: 'off', klarna: 'on' } });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toEqual({ success: true });
    const call = standIn.calls('POST', `/v1/payment_method_configurations/${configId}`).at(-1);
    expect(call?.stripeAccount).toBe(accountId);
    expect(Object.fromEntries(call?.body ?? [])).toEqual({
      'link[display_preference][preference]': 'off',
      'klarna[display_preference][preference]': 'on',
    });
    const after = (await context.request({ url, headers: project.headers.admin })).body.methods;
    expect(after.map((method: { id: string; enabled: boolean }) => [method.id, method.enabled])).toEqual([
      ['card', true],
      ['link', false],
      ['klarna', true],
    ]);

    const calls = standIn.calls('POST', `/v1/payment_method_configurations/${configId}`).length;
    expectError(await patch({ config_id: configId, updates: { paypal: 'on', card: 'off' } }), 400, 'PAYMENT_METHOD_CONFIGURATION_INVALID', {
      reason: 'unknown_payment_methods',
      config_id: configId,
      payment_method_ids: ['paypal'],
    });
    expectError(await patch({ config_id: 'pmc_other', updates: { card: 'off' } }), 400, 'PAYMENT_METHOD_CONFIGURATION_INVALID', {
      reason: 'unknown_configuration',
      config_id: 'pmc_other',
    });
    expect(standIn.calls('POST', `/v1/payment_method_configurations/${configId}`)).toHaveLength(calls);
    expectError(await patch({ config_id: configId, updates: { card: 'maybe' } }), 400, 'SCHEMA_ERROR');

    // Before Stripe made the account a configuration, there is nothing to read.
    standIn.withoutMethodConfig.add(accountId);
    try {
      expectError(await context.request({ url, headers: project.headers.admin }), 400, 'PAYMENT_METHOD_CONFIGURATION_INVALID', {
        reason: 'none_yet',
      });
    } finally {
      standIn.withoutMethodConfig.delete(accountId);
    }

    const fresh = await context.createProject({ payments: catalogue });
    expectError(await context.request({ url, headers: fresh.headers.admin }), 404, 'STRIPE_ACCOUNT_INFO_NOT_FOUND');
    expectError(
      await context.request({
        method: 'PATCH',
        url,
        headers: fresh.headers.admin,
        payload: { config_id: configId, updates: { card: 'off' } },
      }),
      404,
      'STRIPE_ACCOUNT_INFO_NOT_FOUND',
    );
  });
});

describe('Stripe settings of the browser pages', () => {
  it('reads where Connect.js is (STRIPE_CONNECT_JS_URL) and refuses a URL that is not http(s)', () => {
    expect(readPaymentSettings({ STRIPE_CONNECT_JS_URL: 'http://127.0.0.1:1/connect.js' }).stripeConnectJsUrl).toBe(
      'http://127.0.0.1:1/connect.js',
    );
    expect(readPaymentSettings({}).stripeConnectJsUrl).toBeNull();
    expect(() => readPaymentSettings({ STRIPE_CONNECT_JS_URL: 'javascript:alert(1)' })).toThrow(
      'STRIPE_CONNECT_JS_URL must be an http(s) URL, not "javascript:alert(1)"',
    );
  });
});
