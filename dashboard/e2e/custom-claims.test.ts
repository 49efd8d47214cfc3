import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { screenshots } from '../../examples/demo/e2e/chromium.ts';
import { createProject, expectAccessible, signUpOwner, withDashboardInChromium } from './dashboard-platform.ts';

/**
 * The custom claims editors (issue #35) in a real Chromium against the platform on real Postgres, reached as an owner
 * does: an OAuth application's template refused with the server's claim and position (nothing saved), then saved and
 * shown again on edit; the project's access token template (`auth.customClaims`, Authentication page) likewise, and a
 * user signing up through the API gets an access token carrying the templated claims; axe light and dark.
 */
const env = withDashboardInChromium();
const wait = { timeout: 30_000 };

const claimsPayload = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;

describe('the dashboard in Chromium: custom claims', () => {
  it('refuses an invalid template with its position, saves a valid one per application and for the project, and the claim reaches a token', {
    timeout: 240_000,
  }, async () => {
    const shot = screenshots('dashboard-custom-claims');
    const page = await env.browser.newPage({ viewport: { width: 1100, height: 900 }, colorScheme: 'light' });
    await signUpOwner(page, env.platform.url, `owner-${randomUUID().slice(0, 8)}@dashboard.test`);
    const projectId = await createProject(page, 'Claims Co', { newTeam: 'Claims team' });
    const { services } = env.platform.context;
    const project = (await services.projects.find(projectId))!;
    await services.projects.replaceConfigOverride(project.id, { ...project.config_override, 'auth.password.allowSignIn': true });
    const adminGet = async <T>(path: string): Promise<T> => {
      const { admin } = await env.platform.apiHeadersFor(projectId);
      const response = await fetch(`${env.platform.url}/api/v1${path}`, { headers: admin });
      expect(response.status, path).toBe(200);
      return (await response.json()) as T;
    };
    type Listed = { items: Array<{ name: string; custom_claims: Record<string, string> }> };
    const nav = (name: string) => page.getByRole('navigation', { name: 'Project pages' }).getByRole('link', { name, exact: true });

    // An application's template: an expression that does not parse is refused with its claim and position.
    await nav('OAuth applications').click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), wait).toBe('OAuth applications');
    const register = page.getByRole('region', { name: 'Register an application' });
    await register.getByLabel('Name', { exact: true }).fill('Reports portal');
    await register.getByLabel('Redirect URIs', { exact: true }).fill('https://portal.claims.test/callback');
    await register.getByLabel('Custom claims', { exact: true }).fill('{"plan": "user.client_metadata."}');
    await register.getByRole('button', { name: 'Register application' }).click();
    await expect.poll(() => register.getByRole('alert').textContent(), wait).toMatch(/^Custom claim plan: .+\(line 1, column 22\)$/);
    expect(await register.getByTestId('custom-claims-caret').textContent()).toBe(`user.client_metadata.\n${' '.repeat(21)}^`);
    expect(await register.getByText('Claim plan, line 1, column 22:', { exact: true }).isVisible()).toBe(true);
    expect((await adminGet<Listed>('/internal/oauth-applications')).items).toEqual([]);
    await shot(page, 'application-refused');
    await expectAccessible(page, 'the OAuth applications page with a refused template');

    // A valid template is saved, listed, and shown again when editing.
    const appTemplate = { plan: 'user.client_read_only_metadata.plan', can_export: '"reports_export" in permissions' };
    await register.getByLabel('Custom claims', { exact: true }).fill(JSON.stringify(appTemplate));
    await register.getByRole('button', { name: 'Register application' }).click();
    const created = page.getByRole('region', { name: 'New application' });
    await expect.poll(() => created.isVisible(), wait).toBe(true);
    await created.getByRole('button', { name: 'Done' }).click();
    const [application] = (await adminGet<Listed>('/internal/oauth-applications')).items;
    expect(application).toMatchObject({ name: 'Reports portal', custom_claims: appTemplate });
    const list = page.getByRole('list', { name: 'OAuth applications' });
    await expect
      .poll(() => list.getByText(/custom claims: /).textContent(), wait)
      .toMatch(/custom claims: (plan, can_export|can_export, plan)/);
    await list.getByRole('button', { name: 'Edit Reports portal' }).click();
    const edit = list.getByRole('form', { name: 'Edit Reports portal' });
    const shownOnEdit = await edit.getByLabel('Custom claims', { exact: true }).inputValue();
    expect(JSON.parse(shownOnEdit)).toEqual(appTemplate);
    // A refused change keeps the saved template.
    await edit.getByLabel('Custom claims', { exact: true }).fill('{"plan": "user.id ==\\n  "}');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => edit.getByRole('alert').textContent(), wait).toMatch(/^Custom claim plan: .+\(line 2, column 3\)$/);
    expect(await edit.getByTestId('custom-claims-caret').textContent()).toBe('  \n  ^');
    expect((await adminGet<Listed>('/internal/oauth-applications')).items[0]!.custom_claims).toEqual(appTemplate);
    await edit.getByRole('button', { name: 'Cancel' }).click();

    // The project's own access tokens: refused, then saved and shown again after a reload.
    await nav('Authentication').click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), wait).toBe('Authentication');
    const projectForm = page.getByRole('form', { name: 'Access token custom claims' });
    const savedTemplate = async () => {
      await services.projects.forget(projectId);
      return (await services.projects.find(projectId))!.config.auth.customClaims;
    };
    await projectForm.getByLabel('Custom claims', { exact: true }).fill('{"tier": "user.client_metadata."}');
    await projectForm.getByRole('button', { name: 'Save custom claims' }).click();
    await expect.poll(() => projectForm.getByRole('alert').textContent(), wait).toMatch(/^Custom claim tier: .+\(line 1, column 22\)$/);
    expect(await projectForm.getByTestId('custom-claims-caret').textContent()).toBe(`user.client_metadata.\n${' '.repeat(21)}^`);
    expect(await savedTemplate()).toBeUndefined();

    const tokenTemplate = { tier: '"gold"', verified: 'user.primary_email_verified', user_copy: 'user.id' };
    await projectForm.getByLabel('Custom claims', { exact: true }).fill(JSON.stringify(tokenTemplate, null, 2));
    await projectForm.getByRole('button', { name: 'Save custom claims' }).click();
    await expect.poll(() => projectForm.getByRole('status').textContent(), wait).toBe('Saved.');
    expect(await savedTemplate()).toEqual(tokenTemplate);
    await page.reload();
    await expect
      .poll(async () => JSON.parse((await projectForm.getByLabel('Custom claims', { exact: true }).inputValue()) || 'null'), wait)
      .toEqual(tokenTemplate);
    await shot(page, 'project-saved');
    await expectAccessible(page, 'the Authentication page with custom claims');
    await page.getByLabel('Theme', { exact: true }).selectOption('dark');
    await expectAccessible(page, 'the Authentication page with custom claims, dark');

    // A user signing up through the API gets an access token carrying the project's claims.
    const keys = await services.apiKeys.createKeySet({
      projectId: project.id,
      description: 'claims test',
      expiresAt: new Date(Date.now() + 3_600_000),
      keys: { publishable_client_key: true },
    });
    const signUp = await fetch(`${env.platform.url}/api/v1/auth/password/sign-up`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-stack-access-type': 'client',
        'x-stack-project-id': projectId,
        'x-stack-publishable-client-key': (keys.keys as { publishable_client_key: string }).publishable_client_key,
      },
      body: JSON.stringify({ email: `member-${randomUUID().slice(0, 8)}@claims.test`, password: 'claims-password-1' }),
    });
    expect(signUp.status, await signUp.clone().text()).toBe(200);
    const { access_token: accessToken, user_id: userId } = (await signUp.json()) as { access_token: string; user_id: string };
    expect(claimsPayload(accessToken)).toMatchObject({ sub: userId, tier: 'gold', verified: false, user_copy: userId });
  });
});
