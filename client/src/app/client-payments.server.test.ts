import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { withTestContext } from '@gatehouse/testing/test-context';
import { ItemNotFoundError, RedirectUrlNotWhitelistedError } from '../errors.ts';
import { createClientApp } from './client-app.ts';
import { createServerApp } from './server-app.ts';

/** The signed-in user's payments in the client app against the real server over HTTP: items and checkout URLs. */
const env = withTestContext({
  listen: true,
  projectConfig: {
    'auth.password.allowSignIn': true,
    'domains.trustedDomains': { app: { baseUrl: 'https://app.example.com', handlerPath: '/handler' } },
    payments: {
      items: { credits: { displayName: 'Credits', customerType: 'user' } },
      products: {
        pack: { displayName: 'Pack', customerType: 'user', prices: { once: { USD: '5' } }, includedItems: { credits: { quantity: 10 } } },
      },
    },
  },
});

describe('client payments', () => {
  it("reads the user's items and makes checkout URLs for it", async () => {
    const app = createClientApp({
      baseUrl: env.baseUrl,
      projectId: env.project.project.id,
      publishableClientKey: env.project.keys.publishable_client_key,
    });
    await app.signUpWithPassword({ email: `buyer-${randomUUID().slice(0, 8)}@example.com`, password: 'correct horse battery' });
    const user = await app.getUser({ or: 'throw' });
    expect(await user.getItem('credits')).toEqual({ id: 'credits', display_name: 'Credits', quantity: 0 });
    const server = createServerApp({
      baseUrl: env.baseUrl,
      projectId: env.project.project.id,
      secretServerKey: env.project.keys.secret_server_key,
    });
    await server.payments.increaseQuantity({ type: 'user', id: user.id }, 'credits', 4);
    expect((await user.getItem('credits')).quantity).toBe(4);
    await expect(user.getItem('gems')).rejects.toBeInstanceOf(ItemNotFoundError);

    const url = await user.createCheckoutUrl('pack', { returnUrl: 'https://app.example.com/shop' });
    expect(new URL(url).pathname).toBe('/api/v1/payments/purchases/checkout');
    expect(new URL(url).searchParams.get('code')).toMatch(new RegExp(`^${env.project.project.id}_[a-z2-7]{45}$`));
    const code = new URL(url).searchParams.get('code') as string;
    const check = await fetch(`${env.baseUrl}/api/v1/payments/purchases/validate-code?full_code=${encodeURIComponent(code)}`);
    expect(await check.json()).toEqual({ valid: true });
    await expect(user.createCheckoutUrl('pack', { returnUrl: 'https://evil.example.net/' })).rejects.toBeInstanceOf(
      RedirectUrlNotWhitelistedError,
    );
  });
});
