import type { Schema } from '@gatehouse/protocol/operation-types';
import type { DashboardTranslation, Translate } from '../i18n/dashboard-i18n.ts';

/** The transactions page's words for the server's values (types, statuses, customer types), in the active language. */
type Transaction = Schema<'Transaction'>;

/** The type filter's choices, in the active language. */
export const typeChoices = (t: Translate): Array<[Transaction['type'], string]> => [
  ['purchase', t('transactions.purchases')],
  ['product-grant', t('transactions.grants')],
  ['manual-item-quantity-change', t('transactions.itemChanges')],
  ['refund', t('transactions.refunds')],
];

/** One transaction's type in the active language. */
export function typeText(type: Transaction['type'], t: Translate): string {
  if (type === 'purchase') return t('transactions.typePurchase');
  if (type === 'product-grant') return t('transactions.typeGrant');
  if (type === 'manual-item-quantity-change') return t('transactions.typeItemChange');
  return t('transactions.typeRefund');
}

/** A purchase's or grant's ownership now, in the active language. */
export function statusText(status: NonNullable<Transaction['status']>, t: Translate): string {
  if (status === 'active') return t('transactions.statusActive');
  if (status === 'canceled') return t('transactions.statusCanceled');
  return t('transactions.statusRefunded');
}

/** The customer's type as the payments page names it. */
export function customerTypeText(type: Transaction['customer_type'], t: Translate): string {
  if (type === 'user') return t('payments.customerTypeUser');
  if (type === 'team') return t('payments.customerTypeTeam');
  return t('payments.customerTypeCustom');
}

/** What a transaction moved: an item's delta (with the server's description), the refunded product, or the product bought or granted. */
export function describe(transaction: Transaction, { t, formatNumber }: DashboardTranslation): string {
  switch (transaction.type) {
    case 'manual-item-quantity-change': {
      const delta = transaction.delta ?? 0;
      return `${delta > 0 ? '+' : ''}${formatNumber(delta)} ${transaction.item_id ?? ''}${transaction.description ? ` (${transaction.description})` : ''}`;
    }
    case 'refund':
      return transaction.product_display_name
        ? t('transactions.refundOfProduct', { product: transaction.product_display_name })
        : t('transactions.refundOfPurchase');
    default:
      return `${transaction.product_display_name ?? transaction.product_id ?? t('transactions.aProduct')}${transaction.price_id ? `, ${transaction.price_id}` : ''} × ${formatNumber(transaction.quantity ?? 1)}`;
  }
}
