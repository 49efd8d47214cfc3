import { describe, expect, it } from 'vitest';
import { withTestContext } from '@gatehouse/testing/test-context';
import { ProductDoesNotExistError } from '../errors.ts';
import { createServerApp } from './server-app.ts';

/** The server app's payments against the real server over HTTP. */
const env = withTestContext({
  listen: true,
  projectConfig: {
    payments: {
      items: { credits: { displayName: 'Credits', customerType: 'custom' } },
      products: {
        starter: {
          displayName: 'Starter',
          customerType: 'custom',
          prices: { once: { USD: '5' } },
          includedItems: { credits: { quantity: 10 } },
        },
      },
    },
  },
});
const server = () =>
  createServerApp({ baseUrl: env.baseUrl, projectId: env.project.project.id, secretServerKey: env.project.keys.secret_server_key });

describe('server payments', () => {
  it('increases, tries to decrease (false when not enough, nothing changed), and reads items', async () => {
    const { payments } = server();
    const acme = { type: 'custom' as const, id: 'acme' };
    expect(await payments.getItem(acme, 'credits')).toEqual({ id: 'credits', display_name: 'Credits', quantity: 0 });
    await payments.increaseQuantity(acme, 'credits', 3, { description: 'trial' });
    expect(await payments.tryDecreaseQuantity(acme, 'credits', 2)).toBe(true);
    expect(await payments.tryDecreaseQuantity(acme, 'credits', 2)).toBe(false);
    expect((await payments.getItem(acme, 'credits')).quantity).toBe(1);
    await payments.decreaseQuantity(acme, 'credits', 3);
    expect((await payments.getItem(acme, 'credits')).quantity).toBe(-2);
  });

  it('grants, lists and cancels products, and makes checkout URLs', async () => {
    const { payments } = server();
    const globex = { type: 'custom' as const, id: 'globex' };
    const subscriptionId = await payments.grantProduct(globex, 'starter');
    const { items, nextCursor } = await payments.listProducts(globex);
    expect(items.map((item) => [item.id, item.subscription?.subscription_id])).toEqual([['starter', subscriptionId]]);
    expect(nextCursor).toBeNull();
    expect((await payments.getItem(globex, 'credits')).quantity).toBe(10);
    await payments.cancelProduct(globex, 'starter');
    expect((await payments.listProducts(globex)).items).toEqual([]);
    const url = await payments.createCheckoutUrl(globex, 'starter');
    expect(url).toMatch(/\/api\/v1\/payments\/purchases\/checkout\?code=/);
    await expect(payments.grantProduct(globex, 'nope')).rejects.toBeInstanceOf(ProductDoesNotExistError);
  });
});
