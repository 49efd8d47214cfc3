import { api } from '@gatehouse/react';
import type { StripeConnectInstance } from '@stripe/connect-js/pure';
import { useEffect, useRef, useState } from 'react';
import { useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
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
  const { t } = useDashboardTranslation();

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
    return <p className="dash-muted">{t('stripeComponents.needsKey', { setting: 'STRIPE_PUBLISHABLE_KEY' })}</p>;
  }
  const components: Array<[ComponentName, string]> = onboarding
    ? [['account-onboarding', t('stripeComponents.onboarding')]]
    : [
        ['notification-banner', t('stripeComponents.notifications')],
        ['payments', t('stripeComponents.payments')],
        ['payouts', t('stripeComponents.payouts')],
      ];
  return (
    <section className="dash-stack" aria-label={t('stripeComponents.label')}>
      {error ? (
        <div role="alert" className="dash-error dash-stack">
          <span>{errorText(error)}</span>
          <span>
            <button type="button" onClick={() => setAttempt((count) => count + 1)}>
              {t('common.tryAgain')}
            </button>
          </span>
        </div>
      ) : null}
      {!instance && !error ? <Loading label={t('stripeComponents.loading')} /> : null}
      {instance
        ? components.map(([name, title]) => (
            <ConnectComponent
              key={`${attempt}-${name}`}
              instance={instance}
              name={name}
              title={title}
              onError={setError}
              loadError={(reason) => t('stripeComponents.loadError', { title, reason })}
            />
          ))
        : null}
    </section>
  );
}

/** One embedded component (Stripe's custom element), mounted into its own box. */
function ConnectComponent(props: {
  instance: StripeConnectInstance;
  name: ComponentName;
  title: string;
  onError: (error: Error) => void;
  loadError: (reason: string) => string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const onError = useRef(props.onError);
  onError.current = props.onError;
  const loadError = useRef(props.loadError);
  loadError.current = props.loadError;
  useEffect(() => {
    const element = props.instance.create(props.name);
    element.setOnLoadError(({ error }) => onError.current(new Error(loadError.current(error.message ?? error.type))));
    box.current?.appendChild(element);
    return () => element.remove();
  }, [props.instance, props.name]);
  return (
    <section className="dash-stripe-component" aria-label={props.title}>
      <h3>{props.title}</h3>
      <div ref={box} />
    </section>
  );
}
