// Express's HTML escaping (&amp; &lt; &gt; &quot; &#39;): one escaping for every page the server writes by hand.
import escapeHtml from 'escape-html';
import type { components } from '@gatehouse/protocol/api-types';

type PurchaseCodeDetails = components['schemas']['PurchaseCodeDetails'];
type Price = { interval?: [number, string]; free_trial?: [number, string]; [currency: string]: unknown };

/** JSON safe inside a <script> element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

const intervalText = ([count, unit]: [number, string]) => (count === 1 ? unit : `${count} ${unit}s`);

function priceText(price: Price): string {
  const amounts = Object.entries(price)
    .filter(([key]) => /^[A-Z]{3}$/.test(key))
    .map(([currency, amount]) => `${amount} ${currency}`)
    .join(' or ');
  const every = price.interval ? ` every ${intervalText(price.interval)}` : ' once';
  const trial = price.free_trial ? ` (${intervalText(price.free_trial)} free trial)` : '';
  return `${amounts}${every}${trial}`;
}

const style = `
  body { font-family: system-ui, sans-serif; background: #f4f4f7; color: #1b1b23; margin: 0; }
  main { max-width: 28rem; margin: 3rem auto; background: #fff; border-radius: 12px; padding: 2rem; box-shadow: 0 2px 12px #0001; }
  h1 { margin-top: 0; font-size: 1.5rem; }
  fieldset { border: 1px solid #ddd; border-radius: 8px; margin: 1rem 0; }
  label { display: block; margin: 0.5rem 0; }
  input[type=text], input[type=number] { width: 100%; box-sizing: border-box; padding: 0.4rem; }
  button { width: 100%; padding: 0.7rem; font-size: 1rem; border: 0; border-radius: 8px; background: #3346d3; color: #fff; cursor: pointer; }
  button:disabled { background: #999; cursor: not-allowed; }
  .mode { background: #fff4d6; border-radius: 6px; padding: 0.5rem; font-size: 0.9rem; }
  .problem { background: #fde2e2; border-radius: 6px; padding: 0.5rem; }
  .done { background: #dcf5e3; border-radius: 6px; padding: 0.5rem; }
`;

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>${style}</style></head>
<body><main>${body}</main></body></html>`;
}

/** The page for a code that is unknown, used or expired. */
export const unusableCodePage = () =>
  layout('Checkout', '<h1>This purchase link cannot be used</h1><p class="problem">It is unknown, has expired, or was used already.</p>');

/** What the page's Stripe.js needs in Stripe mode. */
export type CheckoutStripe = { publishableKey: string; jsUrl: string };

/**
 * The hosted checkout page: the product, its prices, what it conflicts with, and a payment form: in
 * test mode a test card form that completes the purchase through the test-mode endpoint; in Stripe
 * mode Stripe's Payment Element (Stripe.js on the connected account) for the client secret of a
 * purchase session, confirmed with Stripe, which then returns the buyer to the return URL.
 */
export function checkoutPage(
  fullCode: string,
  details: PurchaseCodeDetails,
  returnUrl: string | null,
  stripe: CheckoutStripe | null = null,
): string {
  const { product } = details;
  const stripeMode = !details.test_mode && stripe !== null && details.stripe_account_id !== null;
  if (stripeMode) return stripeCheckoutPage(fullCode, details, returnUrl, stripe);
  const prices = product.prices === 'include-by-default' ? [] : Object.entries(product.prices as Record<string, Price>);
  const conflicts = details.conflicting_products;
  const blocked = details.already_bought_non_stackable || conflicts.length > 0 || prices.length === 0 || !details.test_mode;
  const problems = [
    details.already_bought_non_stackable ? `<p class="problem" role="alert">You already own ${escapeHtml(product.display_name)}.</p>` : '',
    conflicts.length > 0
      ? `<p class="problem" role="alert" id="conflict">You already own ${conflicts.map((other) => `<strong>${escapeHtml(other.display_name)}</strong>`).join(', ')} of the same product line, which ${escapeHtml(product.display_name)} would replace: switch plans instead of buying it.</p>`
      : '',
    !details.test_mode ? '<p class="problem" role="alert">Card payments are not available for this project yet.</p>' : '',
  ].join('');
  const priceInputs = priceRadios(details);
  const items = includedItems(details);
  const body = `
<h1>${escapeHtml(product.display_name)}</h1>
${details.test_mode ? '<p class="mode">Test mode: no real payment is taken.</p>' : ''}
${items ? `<p>Includes:</p><ul>${items}</ul>` : ''}
${problems}
<form id="checkout">
  <fieldset><legend>Price</legend>${priceInputs || '<p>Nothing to buy.</p>'}</fieldset>
  ${product.stackable ? '<label>Quantity <input type="number" name="quantity" min="1" value="1"></label>' : ''}
  <fieldset><legend>Test card</legend>
    <label>Card number <input type="text" name="card" value="4242 4242 4242 4242" autocomplete="off"></label>
    <label>Expiry <input type="text" name="expiry" value="12 / 34" autocomplete="off"></label>
    <label>CVC <input type="text" name="cvc" value="123" autocomplete="off"></label>
  </fieldset>
  <button type="submit"${blocked ? ' disabled' : ''}>Pay (test mode)</button>
  <p id="result" role="status"></p>
</form>
<script>
const fullCode = ${scriptJson(fullCode)};
const returnUrl = ${scriptJson(returnUrl)};
const form = document.getElementById('checkout');
const result = document.getElementById('result');
form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const data = new FormData(form);
  const button = form.querySelector('button');
  button.disabled = true;
  result.className = '';
  result.textContent = 'Paying…';
  const response = await fetch('/api/v1/internal/payments/test-mode-purchase-session', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ full_code: fullCode, price_id: data.get('price'), quantity: Number(data.get('quantity') || 1) }),
  });
  const text = await response.text();
  let body = null;
  try { body = JSON.parse(text); } catch {}
  if (response.ok) {
    result.className = 'done';
    result.textContent = 'Payment complete.';
    if (returnUrl) window.location.assign(returnUrl);
    return;
  }
  result.className = 'problem';
  if (body && body.code === 'PRODUCT_LINE_CONFLICT') {
    result.textContent = 'You already own ' + body.details.conflicting_products.map((other) => other.display_name).join(', ') + ' of the same product line.';
  } else {
    result.textContent = (body && body.error) || text || 'The payment failed.';
    button.disabled = false;
  }
});
</script>`;
  return layout(`Checkout – ${product.display_name}`, body);
}

function priceRadios(details: PurchaseCodeDetails): string {
  const prices = details.product.prices === 'include-by-default' ? [] : Object.entries(details.product.prices as Record<string, Price>);
  return prices
    .map(
      ([id, price], index) =>
        `<label><input type="radio" name="price" value="${escapeHtml(id)}"${index === 0 ? ' checked' : ''}> ${escapeHtml(priceText(price))}</label>`,
    )
    .join('');
}

function includedItems(details: PurchaseCodeDetails): string {
  return Object.entries(details.product.included_items)
    .map(([id, included]) => `<li>${included.quantity ?? 0} × ${escapeHtml(id)}</li>`)
    .join('');
}

/**
 * Stripe mode: the buyer picks a price, the page asks the purchase session for a client secret
 * (a payment intent, or a subscription's invoice or trial setup intent), mounts Stripe's Payment
 * Element for it on the connected account, and confirms it with Stripe, which sends the buyer to the
 * return URL. The product is granted when Stripe's webhook reports the payment.
 */
function stripeCheckoutPage(fullCode: string, details: PurchaseCodeDetails, returnUrl: string | null, stripe: CheckoutStripe): string {
  const { product } = details;
  const conflicts = details.conflicting_products;
  const hasPrices = product.prices !== 'include-by-default' && Object.keys(product.prices).length > 0;
  const blocked = details.already_bought_non_stackable || conflicts.length > 0 || !hasPrices;
  const items = includedItems(details);
  const body = `
<h1>${escapeHtml(product.display_name)}</h1>
${items ? `<p>Includes:</p><ul>${items}</ul>` : ''}
${details.already_bought_non_stackable ? `<p class="problem" role="alert">You already own ${escapeHtml(product.display_name)}.</p>` : ''}
${
  conflicts.length > 0
    ? `<p class="problem" role="alert" id="conflict">You already own ${conflicts.map((other) => `<strong>${escapeHtml(other.display_name)}</strong>`).join(', ')} of the same product line, which ${escapeHtml(product.display_name)} would replace: switch plans instead of buying it.</p>`
    : ''
}
<form id="checkout">
  <fieldset><legend>Price</legend>${priceRadios(details) || '<p>Nothing to buy.</p>'}</fieldset>
  ${product.stackable ? '<label>Quantity <input type="number" name="quantity" min="1" value="1"></label>' : ''}
  <div id="payment-element"></div>
  <button type="submit" id="pay"${blocked ? ' disabled' : ''}>Continue to payment</button>
  <p id="result" role="status"></p>
</form>
<script src="${escapeHtml(stripe.jsUrl)}"></script>
<script>
const fullCode = ${scriptJson(fullCode)};
const returnUrl = ${scriptJson(returnUrl)};
const stripe = Stripe(${scriptJson(stripe.publishableKey)}, { stripeAccount: ${scriptJson(details.stripe_account_id)} });
const form = document.getElementById('checkout');
const result = document.getElementById('result');
const button = document.getElementById('pay');
let elements = null;
let clientSecret = null;
function problem(text) {
  result.className = 'problem';
  result.textContent = text;
}
form.addEventListener('submit', async (event) => {
  event.preventDefault();
  button.disabled = true;
  result.className = '';
  if (!elements) {
    const data = new FormData(form);
    const response = await fetch('/api/v1/payments/purchases/purchase-session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ full_code: fullCode, price_id: data.get('price'), quantity: Number(data.get('quantity') || 1) }),
    });
    const text = await response.text();
    let body = null;
    try { body = JSON.parse(text); } catch {}
    if (!response.ok) {
      if (body && body.code === 'PRODUCT_LINE_CONFLICT') {
        problem('You already own ' + body.details.conflicting_products.map((other) => other.display_name).join(', ') + ' of the same product line.');
      } else {
        problem((body && body.error) || text || 'The payment could not start.');
        button.disabled = false;
      }
      return;
    }
    clientSecret = body.client_secret;
    elements = stripe.elements({ clientSecret });
    elements.create('payment').mount('#payment-element');
    for (const input of form.querySelectorAll('fieldset input, input[name=quantity]')) input.disabled = true;
    button.textContent = 'Pay';
    button.disabled = false;
    return;
  }
  result.textContent = 'Paying…';
  const confirmParams = { return_url: returnUrl || window.location.href };
  const { error } = clientSecret.startsWith('seti_')
    ? await stripe.confirmSetup({ elements, confirmParams })
    : await stripe.confirmPayment({ elements, confirmParams });
  if (error) {
    problem(error.message || 'The payment failed.');
    button.disabled = false;
  }
});
</script>`;
  return layout(`Checkout – ${product.display_name}`, body);
}
