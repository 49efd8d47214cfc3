import { type IntegerRange, parseIntegerSetting } from '../lib/integer-setting.ts';
/**
 * Every environment variable the server reads, in one list: its name, its default (as it would be
 * written in the environment; null: unset) and what it does. The configuration reference of the docs
 * (`docs/reference/configuration.md`) is generated from this list (`pnpm docs:generate`), and
 * `settings.test.ts` checks that the server reads no variable missing here and that every entry is read,
 * so the table cannot drift from the code. Readers take their defaults from here (`settingNumber`).
 * A name with `<PROVIDER>` or `<BUCKET>` stands for a family of variables.
 */
export type SettingGroup =
  | 'Server'
  | 'Database'
  | 'Deployment'
  | 'Logs and secrets'
  | 'Rate limits'
  | 'Passwords'
  | 'Bot challenges'
  | 'Email'
  | 'Webhooks'
  | 'Audit log'
  | 'OAuth'
  | 'Payments (Stripe)'
  | 'AI chat'
  | 'Enterprise SSO'
  | 'Metrics';

export type Setting = {
  readonly name: string;
  readonly group: SettingGroup;
  readonly default: string | null;
  /** Markdown, one paragraph. */
  readonly description: string;
};

export const settings = [
  { name: 'PORT', group: 'Server', default: '8102', description: 'HTTP port.' },
  { name: 'HOST', group: 'Server', default: '0.0.0.0', description: 'Listen address.' },
  {
    name: 'PUBLIC_URL',
    group: 'Server',
    default: 'http://localhost:$PORT',
    description: 'Base URL clients reach the server at; token issuers and the printed URLs are built from it.',
  },
  { name: 'DATA_DIR', group: 'Server', default: './data', description: "The PGlite database and the seeded projects' key files." },
  {
    name: 'SERVER_SECRET',
    group: 'Server',
    default: null,
    description:
      'Secret the ES256 signing keys are derived from: any string of 32 characters or more, or `hex:` and 64 hex digits (the raw bytes, e.g. exported from an older database). Required with `NODE_ENV=production`, where any `server_secret` row left in the database is deleted at start. Unset in development: one is generated once and kept in the database. Set the same value on every instance sharing a database.',
  },
  {
    name: 'SERVER_SECRET_FILE',
    group: 'Server',
    default: null,
    description: 'A file holding `SERVER_SECRET` (for secret mounts); used when `SERVER_SECRET` is unset.',
  },
  {
    name: 'ENCRYPTION_KEY',
    group: 'Server',
    default: null,
    description:
      'Key (32 characters or more) that webhook signing secrets, config `password` / `clientSecret` values and the email outbox content are encrypted under at rest (AES-256-GCM). Unset: a key derived from the server secret. The database never holds either.',
  },
  {
    name: 'ENCRYPTION_KEY_FILE',
    group: 'Server',
    default: null,
    description: 'A file holding `ENCRYPTION_KEY`; used when `ENCRYPTION_KEY` is unset.',
  },
  {
    name: 'ENCRYPTION_KEYS_PREVIOUS',
    group: 'Server',
    default: null,
    description:
      'Older encryption keys, comma-separated, still accepted for reading. To rotate: move the old key here and set the new one; a background job re-encrypts stored values within a minute.',
  },
  {
    name: 'SEED_PROJECT_ID',
    group: 'Server',
    default: null,
    description: "Fix the demo project's id (random once, otherwise), for scripts.",
  },
  { name: 'SEED_PUBLISHABLE_CLIENT_KEY', group: 'Server', default: null, description: "Fix the demo project's publishable client key." },
  { name: 'SEED_SECRET_SERVER_KEY', group: 'Server', default: null, description: "Fix the demo project's secret server key." },
  { name: 'SEED_SUPER_SECRET_ADMIN_KEY', group: 'Server', default: null, description: "Fix the demo project's super secret admin key." },
  {
    name: 'EXAMPLE_APP_DIR',
    group: 'Server',
    default: null,
    description: 'A built example app to serve at `/` on the same port. `pnpm start` sets it; empty: none (API only).',
  },
  {
    name: 'DASHBOARD_DIR',
    group: 'Server',
    default: null,
    description: 'The built dashboard to serve at `/dashboard`. `pnpm start` sets it; empty: none.',
  },
  {
    name: 'DOCS_DIR',
    group: 'Server',
    default: null,
    description: 'The built documentation site to serve at `/docs`. `pnpm start` sets it; empty: none.',
  },
  {
    name: 'DATABASE_URL',
    group: 'Database',
    default: null,
    description: 'Use this Postgres server instead of the embedded PGlite (same migrations and SQL). Migrations run at every start.',
  },
  {
    name: 'DATABASE_POOL_SIZE',
    group: 'Database',
    default: '10',
    description: 'Connections to Postgres per process (PGlite has one session, used by one request at a time).',
  },
  {
    name: 'DATABASE_ACQUIRE_TIMEOUT_MS',
    group: 'Database',
    default: '5000',
    description: 'Longest wait for a free database connection; past it the request answers 503 `DATABASE_BUSY` with `Retry-After`.',
  },
  {
    name: 'DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS',
    group: 'Database',
    default: '10000',
    description:
      "Postgres' `idle_in_transaction_session_timeout` on every pooled session: a transaction idle this long is ended by Postgres and its connection replaced. `0`: off (the Postgres server's own setting applies).",
  },
  {
    name: 'PGLITE_WASM_TIERING_BUDGET',
    group: 'Database',
    default: '100000000',
    description: "V8's WebAssembly tiering budget while PGlite starts (faster start-up); empty for V8's own default.",
  },
  {
    name: 'REDIS_URL',
    group: 'Deployment',
    default: null,
    description:
      'Keep the rate-limit counters in this Redis (`redis://[user:password@]host[:port][/db]`, `rediss://` for TLS) instead of the Postgres table; every instance must name the same one. While Redis cannot answer, requests pass without the limit (fail open).',
  },
  {
    name: 'WORKERS',
    group: 'Deployment',
    default: '1',
    description:
      'Server processes sharing the port on this host (node:cluster): a number, or `auto` for one per core. Above 1 it needs `DATABASE_URL`.',
  },
  {
    name: 'TRUST_PROXY',
    group: 'Deployment',
    default: null,
    description:
      '`true`, a hop count, or a comma list of proxy addresses/CIDRs allowed to set `X-Forwarded-For` (client IPs for the rate limits). Unset: off, so a client cannot spoof its IP.',
  },
  {
    name: 'BACKEND_FALLBACK_URLS',
    group: 'Deployment',
    default: null,
    description:
      "Comma-separated http(s) base URLs of other instances, listed after `PUBLIC_URL` by `GET /api/v1/internal/backend-urls` for the SDKs' failover.",
  },
  {
    name: 'SHUTDOWN_TIMEOUT_SECONDS',
    group: 'Deployment',
    default: '10',
    description: 'On SIGTERM/SIGINT, the longest wait for in-flight requests and background jobs before the remaining connections are cut.',
  },
  {
    name: 'SHUTDOWN_DELAY_SECONDS',
    group: 'Deployment',
    default: '0',
    description:
      "On SIGTERM/SIGINT, how long `/api/v1/ready` answers 503 while the server still serves, before it stops listening: longer than your load balancer's health check takes (3 with `deploy/haproxy.cfg`).",
  },
  {
    name: 'EXPIRED_ROWS_CLEANUP_INTERVAL_SECONDS',
    group: 'Deployment',
    default: '600',
    description: 'How often expired codes, sessions, CLI logins and OAuth flows are deleted; `0`: never.',
  },
  {
    name: 'NODE_ENV',
    group: 'Logs and secrets',
    default: null,
    description: '`production` makes `pnpm start` default `DEVELOPMENT_MODE` to `false`.',
  },
  {
    name: 'DEVELOPMENT_MODE',
    group: 'Logs and secrets',
    default: 'false',
    description:
      '`true`: keys, sign-in codes and email links are written to the log in clear, to follow links without a mail server. `pnpm start` sets it to `true` unless `NODE_ENV=production`.',
  },
  { name: 'LOG_LEVEL', group: 'Logs and secrets', default: 'info', description: 'pino log level.' },
  {
    name: 'PWNED_PASSWORDS_URL',
    group: 'Passwords',
    default: 'https://api.pwnedpasswords.com/range/',
    description:
      "Have I Been Pwned's k-anonymity range API, asked when a project's `auth.passwordPolicy.checkBreached` is on; only the first 5 hex digits of the password's SHA-1 are sent.",
  },
  {
    name: 'PWNED_PASSWORDS_TIMEOUT_MS',
    group: 'Passwords',
    default: '2000',
    description:
      'How long the breached-password check waits; unreachable, slow or failing: the password is accepted (fail open) and a line is logged.',
  },
  {
    name: 'TURNSTILE_VERIFY_URL',
    group: 'Bot challenges',
    default: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
    description:
      "Cloudflare Turnstile's siteverify API, asked when a project's `auth.botChallenge.provider` is this one (an operator setting: the verifier connects to this host only).",
  },
  {
    name: 'TURNSTILE_SCRIPT_URL',
    group: 'Bot challenges',
    default: 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit',
    description: "Cloudflare Turnstile's widget script, loaded by the handler sign-up page when a project's bot challenge uses it.",
  },
  {
    name: 'HCAPTCHA_VERIFY_URL',
    group: 'Bot challenges',
    default: 'https://api.hcaptcha.com/siteverify',
    description:
      "hCaptcha's siteverify API, asked when a project's `auth.botChallenge.provider` is this one (an operator setting: the verifier connects to this host only).",
  },
  {
    name: 'HCAPTCHA_SCRIPT_URL',
    group: 'Bot challenges',
    default: 'https://js.hcaptcha.com/1/api.js?render=explicit',
    description: "hCaptcha's widget script, loaded by the handler sign-up page when a project's bot challenge uses it.",
  },
  {
    name: 'RECAPTCHA_VERIFY_URL',
    group: 'Bot challenges',
    default: 'https://www.google.com/recaptcha/api/siteverify',
    description:
      "reCAPTCHA's siteverify API, asked when a project's `auth.botChallenge.provider` is this one (an operator setting: the verifier connects to this host only).",
  },
  {
    name: 'RECAPTCHA_SCRIPT_URL',
    group: 'Bot challenges',
    default: 'https://www.google.com/recaptcha/api.js?render=explicit',
    description: "reCAPTCHA's widget script, loaded by the handler sign-up page when a project's bot challenge uses it.",
  },
  {
    name: 'BOT_CHALLENGE_TIMEOUT_MS',
    group: 'Bot challenges',
    default: '3000',
    description:
      "How long a bot challenge's verification waits; no answer in time is a provider outage, handled as the project's `auth.botChallenge.onProviderOutage` says.",
  },
  {
    name: 'GATEHOUSE_STARTUP_TRACE',
    group: 'Logs and secrets',
    default: null,
    description: '`1`: print each start-up phase on stderr with its time since the process started.',
  },
  {
    name: 'RATE_LIMITS',
    group: 'Rate limits',
    default: 'on',
    description: '`off` turns every rate limit off (load tests, a trusted network).',
  },
  {
    name: 'RATE_LIMIT_SIGN_IN',
    group: 'Rate limits',
    default: '30,10,60',
    description:
      'Sign-in: per IP, failures per email and IP pair, window in seconds. Past five times the per-email figure of failures on one address from all IPs, every attempt on it is slowed (never refused).',
  },
  { name: 'RATE_LIMIT_SIGN_UP', group: 'Rate limits', default: '20,5,60', description: 'Sign-up: per IP, per email, window in seconds.' },
  {
    name: 'RATE_LIMIT_SEND_CODE',
    group: 'Rate limits',
    default: '10,3,60',
    description: 'Sending codes and links by email: per IP, per email, window in seconds.',
  },
  {
    name: 'RATE_LIMIT_CHECK_CODE',
    group: 'Rate limits',
    default: '30,,60',
    description: 'Checking codes: per IP, (no per-email figure), window in seconds.',
  },
  {
    name: 'SMTP_HOST',
    group: 'Email',
    default: null,
    description: 'The shared mail server for projects that use it. Unset: emails reach only the outbox table and the log.',
  },
  { name: 'SMTP_PORT', group: 'Email', default: '587', description: 'Its port.' },
  { name: 'SMTP_USERNAME', group: 'Email', default: null, description: 'Its user name.' },
  { name: 'SMTP_PASSWORD', group: 'Email', default: null, description: 'Its password.' },
  {
    name: 'SMTP_SECURE',
    group: 'Email',
    default: 'false',
    description: '`true`: TLS from the first byte (port 465); otherwise STARTTLS when offered.',
  },
  { name: 'SMTP_SENDER_NAME', group: 'Email', default: 'Gatehouse', description: 'Sender name of the shared server.' },
  { name: 'SMTP_SENDER_EMAIL', group: 'Email', default: 'noreply@localhost', description: 'Sender address of the shared server.' },
  {
    name: 'EMAIL_POLL_INTERVAL_MS',
    group: 'Email',
    default: '500',
    description: 'How often the outbox worker looks for due emails; `0`: this instance delivers none.',
  },
  {
    name: 'EMAIL_LEASE_MS',
    group: 'Email',
    default: '60000',
    description: 'How long a claim holds an email before another worker may take it over.',
  },
  { name: 'EMAIL_MAX_ATTEMPTS', group: 'Email', default: '5', description: 'Attempts before an email is `failed`.' },
  {
    name: 'EMAIL_RETRY_BASE_MS',
    group: 'Email',
    default: '10000',
    description: 'Wait after the first failed attempt, doubled after each further one.',
  },
  { name: 'EMAIL_RETRY_MAX_MS', group: 'Email', default: '3600000', description: 'The longest wait between attempts.' },
  { name: 'EMAIL_BATCH_SIZE', group: 'Email', default: '64', description: 'Emails one worker claims at once.' },
  { name: 'EMAIL_SMTP_CONNECTIONS', group: 'Email', default: '8', description: 'Pooled SMTP connections per mail server.' },
  {
    name: 'EMAIL_CLAIMS_IN_FLIGHT',
    group: 'Email',
    default: '3',
    description: 'Claimed batches one instance delivers at once (the next is claimed while the others are on the wire).',
  },
  {
    name: 'EMAIL_RENDER_TIMEOUT_MS',
    group: 'Email',
    default: '1000',
    description: 'Longest a template may take to render in the sandbox.',
  },
  { name: 'EMAIL_RENDER_MEMORY_MB', group: 'Email', default: '64', description: "The sandbox's memory per render." },
  { name: 'EMAIL_RENDER_THREADS', group: 'Email', default: '2', description: 'Sandbox threads rendering emails in parallel.' },
  {
    name: 'WEBHOOK_POLL_INTERVAL_MS',
    group: 'Webhooks',
    default: '250',
    description: 'How often the delivery worker looks for due messages; `0`: this instance delivers none.',
  },
  { name: 'WEBHOOK_ATTEMPT_TIMEOUT_MS', group: 'Webhooks', default: '15000', description: 'Timeout of one delivery attempt.' },
  {
    name: 'WEBHOOK_LEASE_MS',
    group: 'Webhooks',
    default: null,
    description: 'How long a claim holds a message before another worker may take it over (default: the attempt timeout + 30 s).',
  },
  {
    name: 'WEBHOOK_RETRY_SCHEDULE_MS',
    group: 'Webhooks',
    default: '5000,300000,1800000,7200000,18000000,36000000',
    description: 'Waits after the 1st, 2nd, … failed attempt (comma-separated); the last repeats.',
  },
  { name: 'WEBHOOK_MAX_ATTEMPTS', group: 'Webhooks', default: '12', description: 'Attempts before a message is `failed`.' },
  {
    name: 'WEBHOOK_DISABLE_AFTER_MS',
    group: 'Webhooks',
    default: '432000000',
    description: 'An endpoint failing without a success this long (5 days) is disabled.',
  },
  { name: 'WEBHOOK_BATCH_SIZE', group: 'Webhooks', default: '64', description: 'Messages one worker claims and posts at once.' },
  {
    name: 'WEBHOOK_CLAIMS_IN_FLIGHT',
    group: 'Webhooks',
    default: '3',
    description: 'Claimed batches one instance posts at once (the next is claimed while the others are on the wire).',
  },
  {
    name: 'WEBHOOK_ENDPOINT_CONNECTIONS',
    group: 'Webhooks',
    default: '16',
    description: 'Kept-alive connections, and posts on their way, per webhook endpoint at most.',
  },
  {
    name: 'AUDIT_LOG_RETENTION_DAYS',
    group: 'Audit log',
    default: '365',
    description: 'Audit log entries older than this many days are removed; `0` keeps them forever.',
  },
  {
    name: 'AUDIT_LOG_RETENTION_INTERVAL_MS',
    group: 'Audit log',
    default: '3600000',
    description: 'How often this instance removes audit log entries past retention; `0`: never on this instance.',
  },
  {
    name: 'OAUTH_<PROVIDER>_ISSUER',
    group: 'OAuth',
    default: null,
    description:
      "Replace a provider's endpoints, e.g. `OAUTH_GOOGLE_TOKEN_URL` (a local OpenID server in tests); likewise `_AUTHORIZATION_URL`, `_TOKEN_URL`, `_USERINFO_URL`, `_EMAILS_URL`.",
  },
  {
    name: 'OAUTH_SHARED_<PROVIDER>_CLIENT_ID',
    group: 'OAuth',
    default: null,
    description:
      'Shared OAuth client (google, github, microsoft, spotify) for development projects; with `OAUTH_SHARED_<PROVIDER>_CLIENT_SECRET`.',
  },
  {
    name: 'OAUTH_APPLE_JWKS_URL',
    group: 'OAuth',
    default: 'https://appleid.apple.com/auth/keys',
    description: "Where native Sign in with Apple reads Apple's identity-token keys.",
  },
  {
    name: 'STRIPE_SECRET_KEY',
    group: 'Payments (Stripe)',
    default: null,
    description: "The platform's Stripe secret key. Unset: Stripe mode is off and projects stay in test mode.",
  },
  {
    name: 'STRIPE_WEBHOOK_SECRET',
    group: 'Payments (Stripe)',
    default: null,
    description: 'The secret Stripe signs the Connect webhook with.',
  },
  {
    name: 'STRIPE_PUBLISHABLE_KEY',
    group: 'Payments (Stripe)',
    default: null,
    description: "The platform's publishable key, for the checkout page's Payment Element and the dashboard's embedded components.",
  },
  {
    name: 'STRIPE_API_URL',
    group: 'Payments (Stripe)',
    default: null,
    description: "Where Stripe's API is (default Stripe's own; tests use a stand-in).",
  },
  {
    name: 'STRIPE_JS_URL',
    group: 'Payments (Stripe)',
    default: null,
    description: "Where the checkout page loads Stripe.js from (default Stripe's own).",
  },
  {
    name: 'STRIPE_CONNECT_JS_URL',
    group: 'Payments (Stripe)',
    default: null,
    description: "Where the dashboard loads Stripe's Connect.js from (default Stripe's own).",
  },
  {
    name: 'AI_PROVIDER_BASE_URL',
    group: 'AI chat',
    default: null,
    description:
      "Base URL of the OpenAI-compatible API that answers the dashboard's email AI chat (`{base}/chat/completions`); with `AI_PROVIDER_MODEL`. Without both the chat answers 400 `AI_CHAT_NOT_CONFIGURED`.",
  },
  { name: 'AI_PROVIDER_MODEL', group: 'AI chat', default: null, description: 'The model name sent with every request.' },
  {
    name: 'AI_PROVIDER_API_KEY',
    group: 'AI chat',
    default: null,
    description: "The provider's bearer key (unset for a provider that needs none).",
  },
  {
    name: 'AI_PROVIDER_TIMEOUT_MS',
    group: 'AI chat',
    default: '30000',
    description: "Longest wait for the provider's whole answer; past it 504 `AI_PROVIDER_TIMEOUT`.",
  },
  {
    name: 'DOMAIN_VERIFICATION_DNS_SERVERS',
    group: 'Enterprise SSO',
    default: null,
    description:
      "DNS servers asked for teams' domain-verification TXT records, comma-separated IP addresses with an optional port (`1.1.1.1,8.8.8.8`, `127.0.0.1:5353`). Unset: the system's resolvers.",
  },
  {
    name: 'METRICS_TOKEN',
    group: 'Metrics',
    default: null,
    description:
      'Serve Prometheus metrics at `GET /api/v1/metrics` to a scraper sending `Authorization: Bearer <token>`. Unset: 404 `METRICS_DISABLED`.',
  },
] as const satisfies readonly Setting[];

export type SettingName = (typeof settings)[number]['name'];

export type { IntegerRange };

/** The one reader of integer settings (see `parseIntegerSetting`), typed by the settings' names. */
export function readIntegerSetting(env: NodeJS.ProcessEnv, name: SettingName, range: IntegerRange): number | undefined {
  return parseIntegerSetting(env, name, range);
}

/** A setting's default as a number (for the readers of numeric settings). */
export function settingNumber(name: SettingName): number {
  const entry = settings.find((setting) => setting.name === name);
  const value = Number(entry?.default ?? Number.NaN);
  if (!Number.isFinite(value)) throw new Error(`${name} has no numeric default in config/settings.ts`);
  return value;
}

/** A setting's default as written (for the readers of text settings). */
export function settingText(name: SettingName): string {
  const value = settings.find((setting) => setting.name === name)?.default;
  if (value == null) throw new Error(`${name} has no default in config/settings.ts`);
  return value;
}
