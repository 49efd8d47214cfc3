import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../../app.ts';
import { placeOfIp } from '../../../lib/place/ip-place.ts';
import { contractRequest } from '@gatehouse/testing/contract';
import { type SmtpSink, startSmtpSink } from '@gatehouse/testing/smtp-sink';
import { type TestProject, withTestContext } from '@gatehouse/testing/test-context';
import { signInAlertsCategoryId } from '../../messaging/notification-preferences/index.ts';

/**
 * The new-device sign-in email against a real SMTP sink and Postgres: sent once for a device (browser
 * and OS family, country) the user never signed in from, never for a known one, nor on the first
 * sign-in (sign-up), nor when the user turned Sign-in alerts off, nor to an unverified address; each
 * project knows only its own users' devices; concurrent sign-ins from one new device send one email.
 */
const env = withTestContext();
let sink: SmtpSink;
let behindProxy: FastifyInstance;
let project: TestProject;
let otherProject: TestProject;

const chromeOnWindows = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const safariOnIphone =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1';
const firefoxOnLinux = 'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0';
/** Public addresses the bundled DB-IP database places in London and in Frankfurt am Main. */
const londonIp = '81.2.69.160';
const frankfurtIp = '2a00:1450:4001:82a::200e';
const password = 'correct horse battery';

const sinkConfig = (port: number) => ({
  'auth.password.allowSignIn': true,
  'auth.otp.allowSignIn': true,
  'domains.trustedDomains': { app: { baseUrl: 'https://app.example.com', handlerPath: '/handler' } },
  // The sink listens on loopback: a project's own SMTP server may be there only when it allows localhost.
  'domains.allowLocalhost': true,
  'emails.server': {
    isShared: false,
    host: '127.0.0.1',
    port,
    username: 'u',
    password: 'p',
    senderName: 'Acme',
    senderEmail: 'no-reply@acme.test',
  },
});

beforeAll(async () => {
  sink = await startSmtpSink();
  project = await env.context.createProject(sinkConfig(sink.port));
  otherProject = await env.context.createProject(sinkConfig(sink.port));
  // The app as `TRUST_PROXY=127.0.0.1` builds it: injected requests come from 127.0.0.1, the proxy.
  behindProxy = await buildApp({ server: env.context.server, rateLimits: null, trustProxy: '127.0.0.1' });
  await behindProxy.ready();
  // Both IP databases read once here (~130 MB), not inside the first test's time limit on a loaded machine.
  expect((await placeOfIp(londonIp))?.countryCode).toBe('GB');
  expect((await placeOfIp(frankfurtIp))?.countryCode).toBe('DE');
});
afterAll(async () => {
  await behindProxy?.close();
  await sink?.close();
});

type Device = { userAgent: string; ip: string };
const office: Device = { userAgent: chromeOnWindows, ip: londonIp };
const phoneAbroad: Device = { userAgent: safariOnIphone, ip: frankfurtIp };

/** A request from `device`, through the trusted proxy; the sign-in's alert work is finished when it returns. */
async function fromDevice(target: TestProject, device: Device, url: string, payload: object, headers: Record<string, string> = {}) {
  const response = await contractRequest(behindProxy, {
    method: 'POST',
    url,
    headers: { ...target.headers.client, ...headers, 'user-agent': device.userAgent, 'x-forwarded-for': device.ip },
    payload,
  });
  await env.context.services.signInAlerts.settled();
  return response;
}

async function signIn(target: TestProject, email: string, device: Device) {
  const response = await fromDevice(target, device, '/api/v1/auth/password/sign-in', { email, password });
  expect(response.status, response.text).toBe(200);
  return response.body as { access_token: string; refresh_token: string };
}

/** A user of `target` with a password and a verified (or not) primary email, who never signed in. */
async function newUser(target: TestProject, options: { email?: string; verified?: boolean; language?: 'de' } = {}) {
  const email = options.email ?? `alert-${randomUUID().slice(0, 8)}@example.com`;
  await env.context.services.users.create(
    target.project,
    {
      primary_email: email,
      primary_email_verified: options.verified ?? true,
      primary_email_auth_enabled: true,
      password,
      ...(options.language ? { language: options.language } : {}),
    },
    'server',
  );
  return email;
}

/** The project's new-device emails to `email` in its outbox (sent, or skipped with the reason). */
async function alertsInOutbox(target: TestProject, email: string) {
  const rows = await env.context.services.email.listOutbox(target.project.id, 200);
  return rows.filter((row) => row.to_address === email && row.kind === 'new_device_sign_in');
}
const alertsDelivered = (email: string) =>
  sink.messages.filter((message) => message.to.includes(email) && message.subject.startsWith('New sign-in'));

// Five password sign-ins (argon2id) and a render per test: generous under a loaded CI machine.
describe('the new-device sign-in email', { timeout: 120_000 }, () => {
  it('is sent once for a new device, with its device, place and time and nothing that signs in', async () => {
    const email = await newUser(project);
    await signIn(project, email, office);
    await signIn(project, email, office);
    expect(await alertsInOutbox(project, email)).toEqual([]);

    const before = Date.now();
    const tokens = await signIn(project, email, phoneAbroad);
    const alert = await sink.waitFor((message) => message.to.includes(email) && message.subject.startsWith('New sign-in'));
    expect(alert.subject).toBe('New sign-in to your Test project account');
    expect(alert.text).toContain('Device: Mobile Safari 17 on iOS 17.1');
    expect(alert.text).toContain('Place: Frankfurt am Main, Hesse, DE');
    const time = alert.text.match(/Time: (\d{4}-\d\d-\d\d \d\d:\d\d) UTC/)?.[1];
    expect(Math.abs(Date.parse(`${time?.replace(' ', 'T')}:00Z`) - before)).toBeLessThan(5 * 60_000);
    expect(alert.text).toContain('Not you? Secure your account');
    // Nothing that lets its reader in: no link at all (the doctype names its DTD), no token, no password.
    for (const content of [alert.text, alert.html]) {
      expect(content).not.toMatch(/https?:\/\/(?!www\.w3\.org\/TR\/)|href=/);
      expect(content).not.toContain(tokens.refresh_token);
      expect(content).not.toContain(tokens.access_token);
      expect(content).not.toContain(password);
    }

    // Known now, as the first one is: no second email, whichever of them signs in.
    await signIn(project, email, phoneAbroad);
    await signIn(project, email, office);
    expect(alertsDelivered(email)).toHaveLength(1);
    expect((await alertsInOutbox(project, email)).map((row) => row.status)).toEqual(['sent']);
  });

  it("is written in the recipient's language", async () => {
    const email = await newUser(project, { language: 'de' });
    await signIn(project, email, office);
    await signIn(project, email, phoneAbroad);
    const alert = await sink.waitFor((message) => message.to.includes(email) && message.subject.startsWith('Neue Anmeldung'));
    expect(alert.subject).toBe('Neue Anmeldung bei Ihrem Konto bei Test project');
    expect(alert.text).toContain('Gerät: Mobile Safari 17 on iOS 17.1');
    expect(alert.text).toContain('Nicht Sie? Schützen Sie Ihr Konto');
    expect(alert.html).toContain('lang="de"');
    expect(alert.text).not.toContain('Not you?');
  });

  it('counts a new country as a new device, and not a new browser version', async () => {
    const email = await newUser(project);
    await signIn(project, email, office);
    await signIn(project, email, { userAgent: chromeOnWindows.replace('Chrome/130', 'Chrome/131'), ip: londonIp });
    expect(await alertsInOutbox(project, email)).toEqual([]);
    await signIn(project, email, { userAgent: chromeOnWindows, ip: frankfurtIp });
    expect((await alertsInOutbox(project, email)).map((row) => row.status)).toEqual(['sent']);
    expect(alertsDelivered(email)[0]?.text).toContain('Device: Chrome 130 on Windows 10');
  });

  it('is not sent when the user turned Sign-in alerts off, and is again once turned back on', async () => {
    const email = await newUser(project);
    const { access_token } = await signIn(project, email, office);
    const user = { ...project.headers.client, 'x-stack-access-token': access_token };
    const preference = (enabled: boolean) =>
      env.context.request({
        method: 'PATCH',
        url: `/api/v1/emails/notification-preference/me/${signInAlertsCategoryId}`,
        headers: user,
        payload: { enabled },
      });
    const off = await preference(false);
    expect(off.status).toBe(200);
    expect(off.body).toEqual({
      notification_category_id: signInAlertsCategoryId,
      notification_category_name: 'Sign-in alerts',
      enabled: false,
      can_disable: true,
    });

    await signIn(project, email, phoneAbroad);
    expect(alertsDelivered(email)).toEqual([]);
    expect(await alertsInOutbox(project, email)).toMatchObject([
      { status: 'skipped', skipped_reason: 'The user turned Sign-in alerts off.', html: '', text: '' },
    ]);

    expect((await preference(true)).status).toBe(200);
    await signIn(project, email, { userAgent: firefoxOnLinux, ip: londonIp });
    await sink.waitFor((message) => message.to.includes(email) && message.text.includes('Firefox 132 on Linux'));
    expect(alertsDelivered(email)).toHaveLength(1);
  });

  it('is not sent on sign-up (the first device), and is for the next new device', async () => {
    const email = `alert-${randomUUID().slice(0, 8)}@example.com`;
    const sent = await fromDevice(project, office, '/api/v1/auth/otp/send-sign-in-code', {
      email,
      callback_url: 'https://app.example.com/handler/magic-link-callback',
    });
    expect(sent.status).toBe(200);
    // A code sign-up: the address is verified at once, so an email could go out.
    const signUp = await fromDevice(project, office, '/api/v1/auth/otp/sign-in', { code: env.context.codeSentTo(email) });
    expect(signUp.status, signUp.text).toBe(200);
    expect(signUp.body.is_new_user).toBe(true);
    expect(await alertsInOutbox(project, email)).toEqual([]);

    await fromDevice(project, phoneAbroad, '/api/v1/auth/otp/send-sign-in-code', {
      email,
      callback_url: 'https://app.example.com/handler/magic-link-callback',
    });
    const again = await fromDevice(project, phoneAbroad, '/api/v1/auth/otp/sign-in', { code: env.context.codeSentTo(email) });
    expect(again.status, again.text).toBe(200);
    expect(again.body.is_new_user).toBe(false);
    expect((await alertsInOutbox(project, email)).map((row) => row.status)).toEqual(['sent']);
  });

  it('is not sent to an address that is not verified', async () => {
    const email = await newUser(project, { verified: false });
    await signIn(project, email, office);
    await signIn(project, email, phoneAbroad);
    expect(await alertsInOutbox(project, email)).toEqual([]);
    expect(alertsDelivered(email)).toEqual([]);
  });

  it('keeps each project to its own users: the same address in another project has its own devices', async () => {
    const email = `alert-${randomUUID().slice(0, 8)}@example.com`;
    await newUser(project, { email });
    await newUser(otherProject, { email });
    await signIn(project, email, office);
    await signIn(project, email, phoneAbroad);
    expect(await alertsInOutbox(project, email)).toHaveLength(1);

    // The other project's user never signed in: its first device is no news, whatever the first project saw.
    await signIn(otherProject, email, phoneAbroad);
    expect(await alertsInOutbox(otherProject, email)).toEqual([]);
    await signIn(otherProject, email, office);
    expect(await alertsInOutbox(otherProject, email)).toHaveLength(1);
    expect(await alertsInOutbox(project, email)).toHaveLength(1);
  });

  it('sends one email for several sign-ins from one new device at the same time', async () => {
    const email = await newUser(project);
    await signIn(project, email, office);
    const logged = vi.spyOn(console, 'error');
    try {
      const answers = await Promise.all(Array.from({ length: 6 }, () => signIn(project, email, phoneAbroad)));
      expect(answers).toHaveLength(6);
      // They took turns: none failed on another's row.
      expect(logged.mock.calls.filter(([message]) => message === 'sign-in alert failed')).toEqual([]);
    } finally {
      logged.mockRestore();
    }
    expect(await alertsInOutbox(project, email)).toHaveLength(1);
    expect(alertsDelivered(email)).toHaveLength(1);
  });
});
