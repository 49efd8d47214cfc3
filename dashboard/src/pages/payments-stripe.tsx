import { StripeAccountInfoNotFoundError } from '@gatehouse/protocol/errors';
import { api } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { useProjectScope } from '../shell-context.ts';
import { ErrorMessage, Loading, Section } from '../ui.tsx';
import { PaymentMethods } from './payments-methods.tsx';
import { StripeComponents } from './payments-stripe-components.tsx';

const yesNo = (value: boolean) => (value ? 'yes' : 'no');

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
  return (
    <Section
      title="Stripe"
      description="Outside test mode customers pay through the project's own Stripe account, connected here with Stripe's onboarding."
    >
      {info.isPending ? <Loading /> : null}
      {notConnected ? <p>Not connected: no Stripe account is connected to this project yet.</p> : <ErrorMessage error={info.error} />}
      {account ? (
        <dl className="dash-grid-2 dash-facts">
          <div>
            <dt>Account</dt>
            <dd>
              <code>{account.account_id}</code>
            </dd>
          </div>
          <div>
            <dt>Details submitted</dt>
            <dd>{yesNo(account.details_submitted)}</dd>
          </div>
          <div>
            <dt>Charges enabled</dt>
            <dd>{yesNo(account.charges_enabled)}</dd>
          </div>
          <div>
            <dt>Payouts enabled</dt>
            <dd>{yesNo(account.payouts_enabled)}</dd>
          </div>
        </dl>
      ) : null}
      <div className="dash-row">
        {notConnected || (account && !account.details_submitted) ? (
          <button type="button" className="gh-primary" disabled={setup.isPending} onClick={() => setup.mutate({ data: {} })}>
            {setup.isPending ? 'Working…' : notConnected ? 'Set up Stripe' : 'Continue onboarding'}
          </button>
        ) : null}
        {account || notConnected ? (
          <button type="button" disabled={info.isFetching} onClick={() => void info.refetch()}>
            Refresh status
          </button>
        ) : null}
      </div>
      {setup.data ? (
        <p role="status" className="dash-success">
          Onboarding link ready:{' '}
          <a href={setup.data.url} target="_blank" rel="noreferrer">
            continue on Stripe
          </a>
        </p>
      ) : null}
      <ErrorMessage error={setup.error} />
      {account ? <PaymentMethods /> : null}
      {account ? <StripeComponents onboarding={!account.details_submitted} /> : null}
    </Section>
  );
}
