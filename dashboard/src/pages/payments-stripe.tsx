import { StripeAccountInfoNotFoundError } from '@gatehouse/protocol/errors';
import { api } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { useProjectScope } from '../shell-context.ts';
import { type Translate, useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { ErrorMessage, Loading, Section } from '../ui.tsx';
import { PaymentMethods } from './payments-methods.tsx';
import { StripeComponents } from './payments-stripe-components.tsx';

const yesNo = (value: boolean, t: Translate) => (value ? t('payments.yes') : t('payments.no'));

/**
 * The project's connected Stripe account: "not connected" (the account-info 404) until the owner sets
 * it up, then what Stripe says of it; each setup answers a fresh onboarding link, opened on Stripe.
 */
export function StripeSection() {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const infoKey = api.getGetStripeAccountInfoQueryKey();
  const info = api.useGetStripeAccountInfo({ request, query: { queryKey: infoKey } });
  const setup = api.useCreateStripeOnboardingLink({
    request,
    mutation: { onSuccess: () => queryClient.invalidateQueries({ queryKey: infoKey }) },
  });
  const notConnected = info.error instanceof StripeAccountInfoNotFoundError;
  const account = info.data;
  const { t } = useDashboardTranslation();
  return (
    <Section title="Stripe" description={t('payments.stripeDescription')}>
      {info.isPending ? <Loading /> : null}
      {notConnected ? <p>{t('payments.stripeNotConnected')}</p> : <ErrorMessage error={info.error} />}
      {account ? (
        <dl className="dash-grid-2 dash-facts">
          <div>
            <dt>{t('payments.stripeAccount')}</dt>
            <dd>
              <code>{account.account_id}</code>
            </dd>
          </div>
          <div>
            <dt>{t('payments.detailsSubmitted')}</dt>
            <dd>{yesNo(account.details_submitted, t)}</dd>
          </div>
          <div>
            <dt>{t('payments.chargesEnabled')}</dt>
            <dd>{yesNo(account.charges_enabled, t)}</dd>
          </div>
          <div>
            <dt>{t('payments.payoutsEnabled')}</dt>
            <dd>{yesNo(account.payouts_enabled, t)}</dd>
          </div>
        </dl>
      ) : null}
      <div className="dash-row">
        {notConnected || (account && !account.details_submitted) ? (
          <button type="button" className="gh-primary" disabled={setup.isPending} onClick={() => setup.mutate({ data: {} })}>
            {setup.isPending ? t('common.working') : notConnected ? t('payments.setUpStripe') : t('payments.continueOnboarding')}
          </button>
        ) : null}
        {account || notConnected ? (
          <button type="button" disabled={info.isFetching} onClick={() => void info.refetch()}>
            {t('payments.refreshStatus')}
          </button>
        ) : null}
      </div>
      {setup.data ? (
        <p role="status" className="dash-success">
          {t('payments.onboardingReady')}{' '}
          <a href={setup.data.url} target="_blank" rel="noreferrer">
            {t('payments.continueOnStripe')}
          </a>
        </p>
      ) : null}
      <ErrorMessage error={setup.error} />
      {account ? <PaymentMethods /> : null}
      {account ? <StripeComponents onboarding={!account.details_submitted} /> : null}
    </Section>
  );
}
