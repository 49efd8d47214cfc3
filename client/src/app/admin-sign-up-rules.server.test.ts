import { describe, expect, it } from 'vitest';
import { withTestContext } from '@gatehouse/testing/test-context';
import { SignUpRejectedError, SignUpRuleConditionInvalidError } from '../errors.ts';
import { createAdminApp } from './admin-app.ts';
import { createClientApp } from './client-app.ts';

/**
 * The admin app's sign-up rules against the real server over HTTP: a rule saved and tested, a bad
 * condition as its error class with the position, a sign-up the rule rejects (as its class in the
 * client app), and the statistics that count it.
 */
const env = withTestContext({ listen: true, projectConfig: { 'auth.password.allowSignIn': true } });
const adminApp = () =>
  createAdminApp({ baseUrl: env.baseUrl, projectId: env.project.project.id, superSecretAdminKey: env.project.keys.super_secret_admin_key });

describe('admin sign-up rules SDK', () => {
  it('saves, tests and counts a rule; a bad condition is SignUpRuleConditionInvalidError', async () => {
    const { signUpRules } = adminApp();
    const failure = await signUpRules
      .setRule('broken', { enabled: true, priority: 0, condition: 'email ==', action: { type: 'reject' } })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SignUpRuleConditionInvalidError);
    expect((failure as SignUpRuleConditionInvalidError).details).toMatchObject({ rule_id: 'broken', position: { line: 1, column: 9 } });

    await signUpRules.setRule('spam', {
      enabled: true,
      priority: 0,
      condition: 'email.contains("spam")',
      action: { type: 'reject', message: 'No spam.' },
    });
    const tested = await signUpRules.test({ email: 'spam@example.com', auth_method: 'password', oauth_provider: null, country_code: null });
    expect(tested.outcome).toMatchObject({ should_allow: false, decision: 'reject', decision_rule_id: 'spam' });

    const client = createClientApp({
      baseUrl: env.baseUrl,
      projectId: env.project.project.id,
      publishableClientKey: env.project.keys.publishable_client_key,
    });
    const rejected = await client
      .signUpWithPassword({ email: 'spam-sdk@example.com', password: 'correct horse battery' })
      .catch((error: unknown) => error);
    expect(rejected).toBeInstanceOf(SignUpRejectedError);
    expect((rejected as SignUpRejectedError).message).toBe('No spam.');

    const stats = await signUpRules.stats();
    expect(stats.triggers_by_action.reject).toBe(1);
    await signUpRules.setRule('spam', null);
    expect(
      (await signUpRules.test({ email: 'spam@example.com', auth_method: 'password', oauth_provider: null, country_code: null }))
        .evaluations,
    ).toEqual([]);
  });
});
