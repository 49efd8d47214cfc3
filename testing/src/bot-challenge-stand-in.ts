import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BotChallengeSettings } from '@gatehouse/server/src/modules/authentication/bot-challenges/index.ts';

type Provider = 'turnstile' | 'hcaptcha' | 'recaptcha';

/** One siteverify request as the stand-in received it (the form fields the provider reads). */
export type SiteverifyCall = { provider: Provider; contentType: string; form: Record<string, string> };

export type BotChallengeStandIn = {
  /** Settings pointing every provider's siteverify and widget script here. */
  settings: BotChallengeSettings;
  calls: SiteverifyCall[];
  /**
   * `ok` answers; `refuse` answers every token `invalid-input-response` (a widget's token the provider
   * does not accept); `down` drops the connection; `slow` never answers; `error` is a 503.
   */
  mode: 'ok' | 'refuse' | 'down' | 'slow' | 'error';
  /** How many times a widget script was fetched. */
  scriptLoads: number;
  close(): Promise<void>;
};

/** The secret the stand-in accepts; any other is `invalid-input-secret`, as the providers answer. */
export const standInSecret = 'stand-in-secret';

/**
 * A local stand-in for Turnstile, hCaptcha and reCAPTCHA: `POST /<provider>/siteverify` with the
 * providers' form fields and answer shapes (a token starting `pass` succeeds, `low` succeeds with a
 * reCAPTCHA-v3-style score of 0.1 (hCaptcha's inverted 0.9), anything else is
 * `invalid-input-response`), and `GET /<provider>/api.js`, a fake widget that defines the provider's
 * global with `render`/`execute`/`reset` and hands out `pass.<sitekey>.<n>` tokens.
 */
export async function startBotChallengeStandIn(timeoutMillis = 1_000): Promise<BotChallengeStandIn> {
  const state = { calls: [] as SiteverifyCall[], mode: 'ok' as BotChallengeStandIn['mode'], scriptLoads: 0 };
  const server: Server = createServer((request, response) => {
    const [, provider, file] = (request.url ?? '').split('?')[0]!.split('/') as [string, Provider, string];
    if (request.method === 'GET' && file === 'api.js') {
      state.scriptLoads += 1;
      response.writeHead(200, { 'content-type': 'text/javascript', 'access-control-allow-origin': '*' }).end(fakeWidget(provider));
      return;
    }
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(body));
      state.calls.push({ provider, contentType: String(request.headers['content-type']), form });
      if (state.mode === 'down') return request.socket.destroy();
      if (state.mode === 'slow') return;
      if (state.mode === 'error') return response.writeHead(503).end('Service Unavailable');
      const answer = state.mode === 'refuse' ? refusal : verdict(provider, form);
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const urls = (suffix: string) => ({
    turnstile: `${base}/turnstile/${suffix}`,
    hcaptcha: `${base}/hcaptcha/${suffix}`,
    recaptcha: `${base}/recaptcha/${suffix}`,
  });
  return Object.assign(state, {
    settings: { verifyUrls: urls('siteverify'), scriptUrls: urls('api.js'), timeoutMillis },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  });
}

const refusal = { success: false, 'error-codes': ['invalid-input-response'] };

function verdict(provider: Provider, form: Record<string, string>) {
  const common = { challenge_ts: new Date().toISOString(), hostname: 'localhost' };
  if (form.secret !== standInSecret) return { success: false, 'error-codes': ['invalid-input-secret'] };
  const token = form.response ?? '';
  if (!token.startsWith('pass') && !token.startsWith('low')) return refusal;
  const low = token.startsWith('low');
  if (provider === 'turnstile') return { success: true, 'error-codes': [], ...common, action: '', cdata: '' };
  if (provider === 'hcaptcha') return { success: true, ...common, credit: false, ...(low ? { score: 0.9 } : {}) };
  return { success: true, ...common, ...(low ? { score: 0.1, action: 'signup' } : {}) };
}

/** The provider's browser global, enough of it for the handler's widget: explicit render, execute, reset. */
function fakeWidget(provider: Provider): string {
  const global = { turnstile: 'turnstile', hcaptcha: 'hcaptcha', recaptcha: 'grecaptcha' }[provider];
  return `(() => {
  let issued = 0;
  const widgets = [];
  const issue = (id) => { const w = widgets[id]; issued += 1; w.options.callback('pass.' + w.options.sitekey + '.' + issued); };
  window.${global} = {
    render(container, options) {
      const element = typeof container === 'string' ? document.getElementById(container) : container;
      const box = document.createElement('div');
      box.setAttribute('data-testid', 'fake-bot-challenge');
      box.setAttribute('data-provider', '${provider}');
      box.setAttribute('data-sitekey', options.sitekey);
      box.setAttribute('data-size', options.size || options.appearance || 'normal');
      box.textContent = 'Fake ${provider} widget';
      element.appendChild(box);
      widgets.push({ options, box });
      const id = widgets.length - 1;
      // A visible widget solves itself (as Turnstile's managed mode mostly does); an invisible one waits for execute.
      if (options.size !== 'invisible') setTimeout(() => issue(id), 50);
      return id;
    },
    execute(id) { setTimeout(() => issue(id ?? 0), 50); },
    reset(id) { const w = widgets[id ?? 0]; if (w && w.options.size !== 'invisible') setTimeout(() => issue(id ?? 0), 50); },
  };
})();`;
}
