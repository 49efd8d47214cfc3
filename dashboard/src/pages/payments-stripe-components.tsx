import { api } from '@gatehouse/react';
import type { StripeConnectInstance } from '@stripe/connect-js/pure';
import { useEffect, useRef, useState } from 'react';
import { useProjectScope } from '../shell-context.ts';
import { type StripeConnectSettings, startStripeConnect } from '../stripe-connect.ts';
import { errorText, Loading } from '../ui.tsx';

type ComponentName = 'account-onboarding' | 'notification-banner' | 'payments' | 'payouts';

/**
 * Stripe's embedded Connect components for the project's connected account: onboarding until its details are
 * submitted, then its notifications, payments and payouts. They load Connect.js from the platform's config and
 * an account session (POST /internal/payments/stripe-widgets/account-session) the platform creates for them;
 * a Connect.js that cannot be loaded, a refused session or a component's load error is shown with a retry.
 */
export function StripeComponents({ onboarding }: { onboarding: boolean }) {
  const settings = window.GATEHOUSE_CONFIG.stripe;
  const { request } = useProjectScope();
  const session = api.useCreateStripeAccountSession({ request });
  const createSession = useRef(session.mutateAsync);
  createSession.current = session.mutateAsync;
  const [instance, setInstance] = useState<StripeConnectInstance | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the retry: a new one starts Connect again
  useEffect(() => {
    if (!settings) return;
    let current = true;
    setInstance(null);
    setError(null);
    const fetchClientSecret = async () => {
      try {
        return (await createSession.current({ data: {} })).client_secret;
      } catch (failure) {
        if (current) setError(failure);
        throw failure;
      }
    };
    startStripeConnect(settings as StripeConnectSettings, fetchClientSecret).then(
      (started) => current && setInstance(started),
      (failure: unknown) => current && setError(failure),
    );
    return () => {
      current = false;
    };
  }, [settings, attempt]);

  if (!settings) {
    return (
      <p className="dash-muted">
        Stripe's embedded components (onboarding, payments, payouts) show here once the server has its publishable key
        (STRIPE_PUBLISHABLE_KEY).
      </p>
    );
  }
  const components: Array<[ComponentName, string]> = onboarding
    ? [['account-onboarding', 'Onboarding']]
    : [
        ['notification-banner', 'Notifications'],
        ['payments', 'Payments on Stripe'],
        ['payouts', 'Payouts'],
      ];
  return (
    <section className="dash-stack" aria-label="Stripe components">
      {error ? (
        <div role="alert" className="dash-error dash-stack">
          <span>{errorText(error)}</span>
          <span>
            <button type="button" onClick={() => setAttempt((count) => count + 1)}>
              Try again
            </button>
          </span>
        </div>
      ) : null}
      {!instance && !error ? <Loading label="Loading Stripe’s components…" /> : null}
      {instance
        ? components.map(([name, title]) => (
            <ConnectComponent key={`${attempt}-${name}`} instance={instance} name={name} title={title} onError={setError} />
          ))
        : null}
    </section>
  );
}

/** One embedded component (Stripe's custom element), mounted into its own box. */
function ConnectComponent(props: { instance: StripeConnectInstance; name: ComponentName; title: string; onError: (error: Error) => void }) {
  const box = useRef<HTMLDivElement>(null);
  const onError = useRef(props.onError);
  onError.current = props.onError;
  useEffect(() => {
    const element = props.instance.create(props.name);
    element.setOnLoadError(({ error }) =>
      onError.current(new Error(`Stripe could not show ${props.title}: ${error.message ?? error.type}`)),
    );
    box.current?.appendChild(element);
    return () => element.remove();
  }, [props.instance, props.name, props.title]);
  return (
    <section className="dash-stripe-component" aria-label={props.title}>
      <h3>{props.title}</h3>
      <div ref={box} />
    </section>
  );
}
