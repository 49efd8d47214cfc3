// Served by the Stripe stand-in at /v3/ in place of Stripe.js (the stand-in fills in its own origin).
window.Stripe = (publishableKey, options) => {
  const origin = '__STAND_IN_ORIGIN__';
  function confirm(args) {
    const query = new URLSearchParams({
      client_secret: args.elements.clientSecret,
      return_url: args.confirmParams.return_url,
      publishable_key: publishableKey,
      account: options?.stripeAccount || '',
    });
    window.location.assign(`${origin}/stand-in/confirm?${query.toString()}`);
    return new Promise(() => {});
  }
  return {
    elements: (init) => ({
      clientSecret: init.clientSecret,
      create: () => ({
        mount: (selector) => {
          const element = document.querySelector(selector);
          element.innerHTML = '<label>Card number (Stripe stand-in) <input name="stand-in-card" value="4242 4242 4242 4242"></label>';
        },
      }),
    }),
    confirmPayment: confirm,
    confirmSetup: confirm,
  };
};
