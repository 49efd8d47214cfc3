import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { screenshots } from '../../examples/demo/e2e/chromium.ts';
import { createProject, expectAccessible, signUpOwner, withDashboardInChromium } from './dashboard-platform.ts';

/**
 * The sign-up rule editor in Chromium against the platform on real Postgres: an invalid condition is
 * refused with the server's position and nothing saved; a reject rule saved through the form is
 * live-tested, then refuses a real sign-up with its message, and the statistics count it; deletion
 * asks first. And the password policy form of the Authentication page.
 */
const env = withDashboardInChromium();

describe('the dashboard in Chromium: sign-up rules', () => {
  it('creates a reject rule, tests it live, and a real sign-up matching it is refused and counted', { timeout: 240_000 }, async () => {
    const shot = screenshots('dashboard-sign-up-rules');
    const page = await env.browser.newPage({ viewport: { width: 1100, height: 900 }, colorScheme: 'light' });
    await signUpOwner(page, env.platform.url, `owner-${randomUUID().slice(0, 8)}@dashboard.test`);
    const projectId = await createProject(page, 'Rules Co', { newTeam: 'Rules team' });
    const { services } = env.platform.context;
    const project = (await services.projects.find(projectId))!;
    await services.projects.replaceConfigOverride(project.id, { ...project.config_override, 'auth.password.allowSignIn': true });
    const keys = await services.apiKeys.createKeySet({
      projectId: project.id,
      description: 'rules test',
      expiresAt: new Date(Date.now() + 3_600_000),
      keys: { publishable_client_key: true },
    });
    const rulesOf = async () => {
      await services.projects.forget(projectId);
      return (await services.projects.find(projectId))!.config.auth.signUpRules;
    };

    await page.getByRole('navigation', { name: 'Project pages' }).getByRole('link', { name: 'Sign-up rules', exact: true }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), { timeout: 20_000 }).toBe('Sign-up rules');
    await page.getByRole('button', { name: 'Add rule' }).click();
    const form = page.getByRole('form', { name: 'New rule' });
    await form.getByLabel('Rule id', { exact: true }).fill('block-spam');
    await form.getByLabel('Display name', { exact: true }).fill('Block spam');
    await form.getByLabel('Priority', { exact: true }).fill('5');
    await form.getByLabel('Condition (CEL)', { exact: true }).fill('emailDomain == ');
    await form.getByLabel('Message', { exact: true }).fill('No spam sign-ups.');
    await form.getByRole('button', { name: 'Save rule' }).click();
    // The server's catalogued refusal (SIGN_UP_RULE_CONDITION_INVALID) with its position, and a caret under it.
    await expect
      .poll(() => form.getByRole('alert').textContent(), { timeout: 15_000 })
      .toMatch(/^Sign-up rule block-spam: .+\(line 1, column \d+\)$/);
    expect(await form.getByTestId('condition-caret').textContent()).toMatch(/^emailDomain == \n {15,16}\^$/);
    expect(await rulesOf()).toEqual({});

    await form.getByLabel('Condition (CEL)', { exact: true }).fill('emailDomain == "spam.test"');
    await form.getByRole('button', { name: 'Save rule' }).click();
    const table = page.getByRole('table', { name: 'Sign-up rules' });
    await expect.poll(() => table.getByRole('row').count(), { timeout: 15_000 }).toBe(2);
    expect(await rulesOf()).toEqual({
      'block-spam': {
        enabled: true,
        displayName: 'Block spam',
        priority: 5,
        condition: 'emailDomain == "spam.test"',
        action: { type: 'reject', message: 'No spam sign-ups.' },
      },
    });

    // The live test: the saved rules against a sample sign-up through the rule-test route.
    const tester = page.getByRole('form', { name: 'Test the rules' });
    await tester.getByLabel('Email', { exact: true }).fill('someone@spam.test');
    await tester.getByLabel('Country code', { exact: true }).fill('DE');
    await tester.getByRole('button', { name: 'Run test' }).click();
    const outcome = page.getByTestId('sign-up-rule-test-outcome');
    await expect
      .poll(() => outcome.textContent(), { timeout: 15_000 })
      .toBe('Rejected by rule block-spam (Block spam) with the message: No spam sign-ups.');
    expect(await page.getByRole('list', { name: 'Rule evaluations' }).textContent()).toBe('block-spam (reject): matched');
    await tester.getByLabel('Email', { exact: true }).fill('someone@example.com');
    await tester.getByRole('button', { name: 'Run test' }).click();
    await expect.poll(() => outcome.textContent(), { timeout: 15_000 }).toBe('No rule decided: allowed by the default action.');

    // A real sign-up to the project that the rule matches.
    const signUp = await fetch(`${env.platform.url}/api/v1/auth/password/sign-up`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-stack-access-type': 'client',
        'x-stack-project-id': projectId,
        'x-stack-publishable-client-key': (keys.keys as { publishable_client_key: string }).publishable_client_key,
      },
      body: JSON.stringify({ email: `someone-${randomUUID().slice(0, 8)}@spam.test`, password: 'spam-password-1' }),
    });
    expect(signUp.status).toBe(403);
    expect(await signUp.json()).toMatchObject({
      code: 'SIGN_UP_REJECTED',
      error: 'No spam sign-ups.',
      details: { message: 'No spam sign-ups.' },
    });

    // The statistics count it (the owner reloads the page to see them).
    await page.reload();
    await expect.poll(() => page.getByTestId('matches-block-spam').textContent(), { timeout: 20_000 }).toBe('1');
    expect(await page.getByTestId('sign-up-rule-totals').textContent()).toBe(
      'Last 48 hours: 1 matches (allow 0, reject 1, restrict 0, log 0).',
    );
    await shot(page, 'rule-counted');
    await expectAccessible(page, 'the sign-up rules page (light)');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectAccessible(page, 'the sign-up rules page (dark)');
    await page.emulateMedia({ colorScheme: 'light' });

    // Deleting asks first; Cancel keeps the rule, confirming removes it.
    await page.getByRole('button', { name: 'Delete block-spam' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete rule block-spam?' });
    await expect.poll(() => dialog.isVisible(), { timeout: 10_000 }).toBe(true);
    await expectAccessible(page, 'the delete confirmation');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(Object.keys(await rulesOf())).toEqual(['block-spam']);
    await page.getByRole('button', { name: 'Delete block-spam' }).click();
    await dialog.getByRole('button', { name: 'Delete rule' }).click();
    await expect
      .poll(() => page.getByText('No rules yet: every sign-up gets the default action.').isVisible(), { timeout: 15_000 })
      .toBe(true);
    expect(await rulesOf()).toEqual({});

    // The default action.
    const defaults = page.getByRole('form', { name: 'Default action' });
    await defaults.getByLabel('When no rule decides', { exact: true }).selectOption('reject');
    await defaults.getByRole('button', { name: 'Save default action' }).click();
    await expect.poll(() => defaults.getByRole('status').textContent(), { timeout: 15_000 }).toBe('Saved.');
    await services.projects.forget(projectId);
    expect((await services.projects.find(projectId))!.config.auth.signUpRulesDefaultAction).toBe('reject');
  });

  it('saves the password policy from the Authentication page, showing the server refusal', { timeout: 180_000 }, async () => {
    const page = await env.browser.newPage({ viewport: { width: 1024, height: 900 }, colorScheme: 'dark' });
    await signUpOwner(page, env.platform.url, `owner-${randomUUID().slice(0, 8)}@dashboard.test`);
    const projectId = await createProject(page, 'Policy Co', { newTeam: 'Policy team' });
    const { services } = env.platform.context;
    await page.getByRole('navigation', { name: 'Project pages' }).getByRole('link', { name: 'Authentication', exact: true }).click();
    const form = page.getByRole('form', { name: 'Password policy' });
    await expect.poll(() => form.getByLabel('Minimum length', { exact: true }).inputValue(), { timeout: 15_000 }).toBe('8');
    await form.getByLabel('Minimum length', { exact: true }).fill('4');
    await form.getByRole('button', { name: 'Save password policy' }).click();
    await expect
      .poll(() => form.getByRole('alert').textContent(), { timeout: 15_000 })
      .toBe('auth.passwordPolicy.minLength must be a whole number from 8 to 256.');
    await form.getByLabel('Minimum length', { exact: true }).fill('12');
    await form.getByLabel('Refuse passwords found in known breaches', { exact: true }).check();
    await form.getByRole('button', { name: 'Save password policy' }).click();
    await expect.poll(() => form.getByRole('status').textContent(), { timeout: 15_000 }).toBe('Saved.');
    await services.projects.forget(projectId);
    expect((await services.projects.find(projectId))!.config.auth.passwordPolicy).toEqual({
      minLength: 12,
      maxLength: 70,
      checkBreached: true,
    });
    await expectAccessible(page, 'the Authentication page with the password policy (dark)');
  });
});
