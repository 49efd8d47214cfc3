// Served by the Stripe stand-in at /connect-js/v1.0/connect.js in place of Connect.js (the stand-in fills in its own origin).
(() => {
  const origin = '__STAND_IN_ORIGIN__';
  const titles = {
    'stripe-connect-account-onboarding': 'Account onboarding',
    'stripe-connect-account-management': 'Account management',
    'stripe-connect-notification-banner': 'Notifications',
    'stripe-connect-payments': 'Payments',
    'stripe-connect-payouts': 'Payouts',
  };
  const component = {
    'stripe-connect-account-onboarding': 'account_onboarding',
    'stripe-connect-account-management': 'account_management',
    'stripe-connect-notification-banner': 'notification_banner',
    'stripe-connect-payments': 'payments',
    'stripe-connect-payouts': 'payouts',
  };
  Object.keys(titles).forEach((tag) => {
    customElements.define(
      tag,
      class extends HTMLElement {
        setOnLoadErrorInternalOnly(listener) {
          this.onLoadError = listener;
        }
        setOnLoaderStartInternalOnly(listener) {
          this.onLoaderStart = listener;
        }
        setOnExitInternalOnly(listener) {
          this.onExit = listener;
        }
        setConnector(connect) {
          if (this.onLoaderStart) this.onLoaderStart({ elementTagName: tag });
          connect.session
            .then((session) => {
              if (session.components.indexOf(component[tag]) < 0) throw new Error('This component is not enabled for the account session');
              this.setAttribute('data-account', session.account);
              this.innerHTML = `<p>${titles[tag]} of ${session.account} (Stripe stand-in)</p>`;
            })
            .catch((error) => {
              if (this.onLoadError)
                this.onLoadError({ elementTagName: tag, error: { type: 'authentication_error', message: error.message } });
            });
        }
      },
    );
  });
  window.StripeConnect = window.StripeConnect || {};
  window.StripeConnect.init = (params) => {
    const meta = params.metaOptions || {};
    const secret = meta.eagerClientSecretPromise || params.fetchClientSecret();
    const session = Promise.resolve(secret).then((clientSecret) => {
      const query = new URLSearchParams({
        client_secret: clientSecret,
        publishable_key: params.publishableKey,
        sdk_version: meta.sdkOptions?.sdkVersion || '',
      });
      return fetch(`${origin}/stand-in/connect/claim?${query.toString()}`).then((response) =>
        response.json().then((body) => {
          if (!response.ok) throw new Error(body.error.message);
          return body;
        }),
      );
    });
    session.catch(() => {});
    return { connect: { session: session }, update: () => {}, logout: () => Promise.resolve() };
  };
})();
