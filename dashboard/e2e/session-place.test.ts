import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../server/src/app.ts';
import { createProject, expectAccessible, signUpOwner, withDashboardInChromium } from './dashboard-platform.ts';

/**
 * Device and place in the dashboard, in a real Chromium: a user signs up from a public IP that a
 * trusted proxy reports (`TRUST_PROXY` + `X-Forwarded-For`) with an iPhone's user agent; the owner
 * finds the user's session with its city, country and device, and the overview's countries chart
 * draws the country, each with DB-IP's attribution link.
 */
const env = withDashboardInChromium();

const iphoneSafari =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1';

describe('the dashboard in Chromium: device and place of sessions', () => {
  it('lists the country and device of a session and draws the country on the overview', { timeout: 240_000 }, async () => {
    const page = await env.browser.newPage({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    await signUpOwner(page, env.platform.url, `owner-${randomUUID().slice(0, 8)}@dashboard.test`);
    const projectId = await createProject(page, 'Place Co', { newTeam: 'Place team' });
    const { services } = env.platform.context;
    const project = (await services.projects.find(projectId))!;
    await services.projects.replaceConfigOverride(project.id, { ...project.config_override, 'auth.password.allowSignIn': true });
    const keys = await services.apiKeys.createKeySet({
      projectId: project.id,
      description: 'place test',
      expiresAt: new Date(Date.now() + 3_600_000),
      keys: { publishable_client_key: true },
    });

    // The platform as `TRUST_PROXY=10.50.0.1` runs it, the request arriving through that proxy.
    const behindProxy = await buildApp({ server: env.platform.context.server, rateLimits: null, trustProxy: '10.50.0.1' });
    const email = `traveller-${randomUUID().slice(0, 8)}@example.com`;
    const signUp = await behindProxy.inject({
      method: 'POST',
      url: '/api/v1/auth/password/sign-up',
      headers: {
        'x-stack-access-type': 'client',
        'x-stack-project-id': projectId,
        'x-stack-publishable-client-key': (keys.keys as { publishable_client_key: string }).publishable_client_key,
        'x-forwarded-for': '81.2.69.160',
        'user-agent': iphoneSafari,
      },
      payload: { email, password: 'traveller-password-1' },
      remoteAddress: '10.50.0.1',
    });
    await behindProxy.close();
    expect(signUp.statusCode, signUp.body).toBe(200);
    const userId = signUp.json().user_id as string;

    // The owner finds the user as a person would: the project's Users page, then the user's row.
    await page.getByRole('link', { name: 'Users', exact: true }).click();
    await page.getByRole('link', { name: email, exact: true }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/dashboard/projects/${projectId}/users/${userId}`);
    const sessions = page.getByRole('region', { name: 'Sessions' });
    await expect
      .poll(() => sessions.getByRole('listitem').first().textContent(), { timeout: 20_000 })
      .toMatch(/from 81\.2\.69\.160 \(London, England, GB\) · Mobile Safari 17 on iOS 17\.1 \(mobile\)/);
    expect(await sessions.getByRole('link', { name: 'IP Geolocation by DB-IP' }).getAttribute('href')).toBe('https://db-ip.com');
    await expectAccessible(page, 'the user page with a placed session');

    await page.getByRole('link', { name: 'Overview', exact: true }).click();
    const chart = page.getByRole('figure', { name: 'Users by country' });
    await expect.poll(() => chart.isVisible(), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => chart.locator('.recharts-cartesian-axis-tick-value').allTextContents()).toContain('GB');
    expect(await chart.getByRole('link', { name: 'IP Geolocation by DB-IP' }).count()).toBe(1);
    await expectAccessible(page, 'the overview with a country');
  });
});
