import { createServerApp } from '@gatehouse/client';

const gatehouse = createServerApp({ baseUrl: 'http://localhost:8102', projectId: 'your-project-id', secretServerKey: 'ssk_…' });

// #region credits
/** Spends one credit of a user, or answers false when they have none left (never below zero, even under concurrency). */
export async function spendCredit(userId: string): Promise<boolean> {
  return gatehouse.payments.tryDecreaseQuantity({ type: 'user', id: userId }, 'credits', 1);
}

/** A link to the hosted checkout page selling `pro` to this user. */
export async function upgradeLink(userId: string): Promise<string> {
  return gatehouse.payments.createCheckoutUrl({ type: 'user', id: userId }, 'pro', { returnUrl: 'https://app.example.com/billing' });
}
// #endregion credits
