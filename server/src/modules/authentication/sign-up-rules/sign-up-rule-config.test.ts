import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { expectError } from '@gatehouse/testing/expect-response';
import { type TestProject, withTestContext } from '@gatehouse/testing/test-context';
import { conditionHolds } from './cel-conditions.ts';
import { signUpRuleContext } from './sign-up-rules.ts';

/**
 * Saving sign-up rules (an invalid condition is refused with its position, nothing saved), the
 * rule tester, and the bounds that keep a condition from stalling the server.
 */
const env = withTestContext({ projectConfig: { 'auth.password.allowSignIn': true } });

const save = (project: TestProject, entries: Record<string, unknown>) =>
  env.context.request({
    method: 'PATCH',
    url: '/api/v1/internal/config/override/project',
    headers: project.headers.admin,
    payload: { config_override_string: JSON.stringify(entries) },
  });
const rule = (condition: string, action: Record<string, unknown> = { type: 'reject' }, priority = 0) => ({
  enabled: true,
  displayName: 'A rule',
  priority,
  condition,
  action,
});

describe('saving sign-up rules', () => {
  it('refuses a condition that does not parse, with its position; nothing is saved', async () => {
    const project = await env.context.createProject();
    const answer = await save(project, { 'auth.signUpRules.broken': rule('email.endsWith("@x.com") &&\n  emailDomain ==') });
    expectError(answer, 400, 'SIGN_UP_RULE_CONDITION_INVALID');
    expect(answer.body.details).toMatchObject({ rule_id: 'broken', position: { line: 2, column: 17, offset: 44 } });
    expect(answer.body.error).toContain('line 2, column 17');
    const stored = await env.context.services.projects.find(project.project.id);
    expect(stored?.config.auth.signUpRules).toEqual({});
    // The same through PUT (the whole override replaced).
    const replaced = await env.context.request({
      method: 'PUT',
      url: '/api/v1/internal/config/override/project',
      headers: project.headers.admin,
      payload: { config_string: JSON.stringify({ 'auth.signUpRules.broken': rule('email ==') }) },
    });
    expectError(replaced, 400, 'SIGN_UP_RULE_CONDITION_INVALID');
    expect(replaced.body.details.position).toEqual({ offset: 8, line: 1, column: 9 });
  });

  it.each([
    [[1, 2], 'must be a JSON object.'],
    ['text', 'must be a JSON object.'],
    [{ blob: 'x'.repeat(2040) }, 'must be at most 2048 characters as JSON.'],
  ])('refuses rule metadata %#: not an object or too large; nothing is saved', async (metadata, message) => {
    const project = await env.context.createProject();
    const answer = await save(project, { 'auth.signUpRules.tagged': rule('true', { type: 'log', serverMetadata: metadata }) });
    expect(answer.status).toBe(400);
    expect(answer.text).toBe(`auth.signUpRules.tagged.action.serverMetadata ${message}`);
    expect((await env.context.services.projects.find(project.project.id))?.config.auth.signUpRules).toEqual({});
  });

  it('refuses rule metadata on a reject rule and saves it on the others, read back in the config', async () => {
    const project = await env.context.createProject();
    const refused = await save(project, { 'auth.signUpRules.r': rule('true', { type: 'reject', serverMetadata: { a: 1 } }) });
    expect(refused.status).toBe(400);
    expect(refused.text).toBe('auth.signUpRules.r.action.serverMetadata cannot be set on a reject rule (no user is created).');
    const saved = await save(project, { 'auth.signUpRules.t': rule('true', { type: 'restrict', serverMetadata: { source: 'rule' } }) });
    expect(saved.status, saved.text).toBe(200);
    const rendered = JSON.parse(saved.body.config_string);
    expect(rendered.auth.signUpRules.t.action).toEqual({ type: 'restrict', serverMetadata: { source: 'rule' } });
  });

  it.each([
    ['an unknown variable', 'ipAddress == "1.2.3.4"', 0],
    ['a type mismatch', 'email + 1 == "x"', 0],
    ['a condition that is not a boolean', 'email', 0],
    ['an invalid regular expression', 'email.matches("(")', 14],
    ['a backreference RE2 does not have', 'email.matches("(a)\\\\1")', 14],
  ])('refuses %s', async (_what, condition, offset) => {
    const project = await env.context.createProject();
    const answer = await save(project, { 'auth.signUpRules.bad': rule(condition) });
    expectError(answer, 400, 'SIGN_UP_RULE_CONDITION_INVALID');
    expect(answer.body.details.position.offset).toBe(offset);
  });

  it('refuses a condition over 2000 characters, and more than 400 syntax nodes', async () => {
    const project = await env.context.createProject();
    expectError(
      await save(project, { 'auth.signUpRules.long': rule(`email == "${'a'.repeat(2000)}"`) }),
      400,
      'SIGN_UP_RULE_CONDITION_INVALID',
    );
    const wide = Array.from({ length: 300 }, (_, index) => `email == "${index}"`).join(' || ');
    expectError(await save(project, { 'auth.signUpRules.wide': rule(wide.slice(0, 1990)) }), 400, 'SIGN_UP_RULE_CONDITION_INVALID');
  });

  it('refuses a malformed rule in plain text (action, priority, id)', async () => {
    const project = await env.context.createProject();
    const cases: Array<[Record<string, unknown>, string]> = [
      [
        { 'auth.signUpRules.a': rule('true', { type: 'ban' }) },
        'auth.signUpRules.a.action.type must be one of allow, reject, restrict, log.',
      ],
      [
        { 'auth.signUpRules.a': { ...rule('true'), priority: 1.5 } },
        'auth.signUpRules.a.priority must be a whole number between -1000000 and 1000000.',
      ],
      [
        { 'auth.signUpRules': { 'bad id!': rule('true') } },
        'auth.signUpRules.bad id!: a rule id is 1 to 64 letters, digits, underscores or hyphens.',
      ],
    ];
    for (const [entries, message] of cases) {
      const answer = await save(project, entries);
      expect(answer.status).toBe(400);
      expect(answer.text).toBe(message);
    }
  });

  it('saves a valid rule (Stack examples: contains, startsWith, matches, in)', async () => {
    const project = await env.context.createProject();
    const condition = 'email.contains("spam") || email.matches("^[0-9]+@") || emailDomain in ["tempmail.com"] || countryCode == "KP"';
    const answer = await save(project, { 'auth.signUpRules.mixed': rule(condition) });
    expect(answer.status, answer.text).toBe(200);
  });
});

describe('POST /internal/sign-up-rules-test', () => {
  it('answers every evaluation and the outcome as a sign-up would be decided, without counting', async () => {
    const project = await env.context.createProject({
      'auth.signUpRules': {
        hold: rule('countryCode == "FR"', { type: 'restrict' }, 1),
        off: { ...rule('true', { type: 'reject' }, 2), enabled: false },
        block: rule('emailDomain == "bad.example"', { type: 'reject', message: 'Nope' }, 3),
        never: rule('false', { type: 'allow' }, 4),
      },
    });
    const answer = await env.context.request({
      method: 'POST',
      url: '/api/v1/internal/sign-up-rules-test',
      headers: project.headers.admin,
      payload: { email: 'Someone@Bad.Example', auth_method: 'password', oauth_provider: null, country_code: 'fr' },
    });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.context).toEqual({
      email: 'Someone@Bad.Example',
      email_domain: 'bad.example',
      country_code: 'FR',
      auth_method: 'password',
      oauth_provider: '',
      turnstile_result: 'invalid',
      risk_scores: { bot: 0, free_trial_abuse: 0 },
    });
    expect(answer.body.evaluations.map((entry: { rule_id: string; status: string }) => [entry.rule_id, entry.status])).toEqual([
      ['hold', 'matched'],
      ['off', 'disabled'],
      ['block', 'matched'],
    ]);
    expect(answer.body.evaluations[2]).toMatchObject({
      display_name: 'A rule',
      enabled: true,
      action: { type: 'reject', message: 'Nope' },
    });
    expect(answer.body.outcome).toEqual({
      should_allow: false,
      decision: 'reject',
      decision_rule_id: 'block',
      restricted_because_of_rule_id: 'hold',
    });

    const withScores = await env.context.request({
      method: 'POST',
      url: '/api/v1/internal/sign-up-rules-test',
      headers: project.headers.admin,
      payload: {
        email: null,
        auth_method: 'oauth',
        oauth_provider: 'github',
        country_code: null,
        risk_scores: { bot: 90, free_trial_abuse: 5 },
      },
    });
    expect(withScores.body.outcome).toMatchObject({ should_allow: true, decision: 'default-allow', restricted_because_of_rule_id: null });
    const stats = await env.context.request({ url: '/api/v1/internal/sign-up-rules-stats', headers: project.headers.admin });
    expect(stats.body).toEqual({
      rule_triggers: [],
      total_triggers: 0,
      triggers_by_action: { allow: 0, reject: 0, restrict: 0, log: 0 },
      analytics_hours: 48,
    });
  });
});

describe('bounded evaluation', () => {
  it('runs matches() on RE2: a catastrophic pattern over a long email answers at once (a backtracking RegExp takes minutes)', () => {
    const context = signUpRuleContext({
      email: `${'a'.repeat(60)}!@example.com`,
      authMethod: 'password',
      oauthProvider: null,
      countryCode: null,
    });
    const started = performance.now();
    expect(conditionHolds('email.matches("^(a+)+$")', context)).toBe(false);
    expect(conditionHolds('matches(email, "^(a|aa)+$")', context)).toBe(false);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('a sign-up through a rule with such a pattern is not stalled', async () => {
    const project = await env.context.createProject({
      'auth.password.allowSignIn': true,
      'auth.signUpRules': { redos: rule('email.matches("^(a+)+$")') },
    });
    const started = performance.now();
    const answer = await env.context.request({
      method: 'POST',
      url: '/api/v1/auth/password/sign-up',
      headers: project.headers.client,
      payload: { email: `${'a'.repeat(60)}-${randomUUID().slice(0, 4)}@example.com`, password: 'correct horse battery' },
    });
    expect(answer.status, answer.text).toBe(200);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
