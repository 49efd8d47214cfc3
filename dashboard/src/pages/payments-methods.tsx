import { api, type GetPaymentMethodConfigs200 } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { optimisticUpdate } from '../optimistic.ts';
import { useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { useProjectScope } from '../shell-context.ts';
import { Checkbox, ErrorMessage, QueryState } from '../ui.tsx';

type MethodConfigs = GetPaymentMethodConfigs200;

/**
 * The payment methods the checkout offers (the connected account's Stripe configuration): each one's on/off
 * state, turned on or off at once (optimistic) and put back when the server refuses, with its message verbatim
 * (no connected account, a configuration Stripe no longer has).
 */
export function PaymentMethods() {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const { t } = useDashboardTranslation();
  const key = api.getGetPaymentMethodConfigsQueryKey();
  const configs = api.useGetPaymentMethodConfigs({ request, query: { queryKey: key } });
  const update = api.useUpdatePaymentMethodConfigs({
    request,
    mutation: optimisticUpdate(queryClient, key, (cached: MethodConfigs, { data }: { data: { updates: Record<string, string> } }) => ({
      ...cached,
      methods: cached.methods.map((method) =>
        data.updates[method.id] ? { ...method, enabled: data.updates[method.id] === 'on' } : method,
      ),
    })),
  });
  return (
    <section className="dash-stack" aria-label={t('paymentMethods.title')}>
      <h3>{t('paymentMethods.title')}</h3>
      <p className="dash-muted">{t('paymentMethods.description')}</p>
      <QueryState query={configs} what={t('paymentMethods.what')}>
        {configs.data ? (
          <ul className="dash-list">
            {configs.data.methods.map((method) => (
              <li key={method.id}>
                <Checkbox
                  label={method.available ? method.name : t('paymentMethods.notAvailable', { name: method.name })}
                  checked={method.enabled}
                  disabled={update.isPending}
                  onChange={(checked) =>
                    update.mutate({ data: { config_id: configs.data.config_id, updates: { [method.id]: checked ? 'on' : 'off' } } })
                  }
                />
              </li>
            ))}
          </ul>
        ) : null}
      </QueryState>
      <ErrorMessage error={update.error} />
    </section>
  );
}
