import { describe, expect, it } from 'vitest';
import {
  type ClaimsContext,
  ClaimsTemplateError,
  compileClaimsTemplate,
  evaluateClaims,
  maxClaimsBytes,
  maxTemplateBytes,
} from './claims-template.ts';

/** Templates checked whole at save time; evaluated into JSON claims, a failing claim left out, an oversized set dropped. */
const context: ClaimsContext = {
  user: { id: 'u1', display_name: 'Ada', client_metadata: {}, client_read_only_metadata: { plan: 'pro' }, server_metadata: { tier: 3 } },
  team: { id: 't1', display_name: 'Core', client_metadata: {}, client_read_only_metadata: {}, server_metadata: { region: 'eu' } },
  permissions: ['read_reports', 'write_reports'],
};

function refusal(template: unknown): ClaimsTemplateError {
  try {
    compileClaimsTemplate(template);
  } catch (error) {
    if (error instanceof ClaimsTemplateError) return error;
    throw error;
  }
  throw new Error('the template was accepted');
}

describe('compileClaimsTemplate', () => {
  it('accepts expressions over user, team and permissions and notes which of the costly ones it reads', () => {
    expect(compileClaimsTemplate({ plan: 'user.client_read_only_metadata.plan' }).reads).toEqual({ team: false, permissions: false });
    expect(compileClaimsTemplate({ region: 'team == null ? null : team.server_metadata.region' }).reads).toEqual({
      team: true,
      permissions: false,
    });
    expect(compileClaimsTemplate({ admin: '"write_reports" in permissions' }).reads).toEqual({ team: false, permissions: true });
  });

  it('refuses a syntax error with the claim and its line and column', () => {
    const error = refusal({ ok: 'user.id', broken: 'user.id +\n  ' });
    expect(error.claim).toBe('broken');
    expect(error.position).toEqual({ offset: 12, line: 2, column: 3 });
  });

  it('refuses an unknown variable where it stands', () => {
    const error = refusal({ who: 'user.id + account.id' });
    expect(error).toMatchObject({ claim: 'who', position: { offset: 10, line: 1, column: 11 } });
    expect(error.message).toContain('account');
  });

  it.each(['sub', 'iss', 'aud', 'exp', 'iat', 'project_id', 'branch_id', 'refresh_token_id', 'role', 'is_anonymous', 'nonce'])(
    'refuses the reserved claim %s',
    (name) => {
      const error = refusal({ [name]: 'user.id' });
      expect(error.claim).toBe(name);
      expect(error.message).toContain('reserved');
      expect(error.position).toBeNull();
    },
  );

  it('refuses names with dots or spaces, non-string expressions, empty ones and non-object templates', () => {
    expect(refusal({ 'a.b': 'user.id' }).claim).toBe('a.b');
    expect(refusal({ 'a b': 'user.id' }).claim).toBe('a b');
    expect(refusal({ a: 42 }).claim).toBe('a');
    expect(refusal({ a: '  ' }).claim).toBe('a');
    expect(refusal(['user.id']).claim).toBeNull();
    expect(refusal(null).claim).toBeNull();
  });

  it('refuses a template over the size limit or with too many claims', () => {
    const big = refusal({ big: `"${'x'.repeat(maxTemplateBytes)}"` });
    expect(big).toMatchObject({ claim: null, position: null });
    expect(big.message).toContain(`${maxTemplateBytes} bytes`);
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, index) => [`c${index}`, 'user.id']));
    expect(refusal(many).message).toContain('at most 50');
  });
});

describe('evaluateClaims', () => {
  it('turns CEL values into JSON claims', () => {
    const compiled = compileClaimsTemplate({
      plan: 'user.client_read_only_metadata.plan',
      tier: 'user.server_metadata.tier',
      count: 'size(permissions)',
      perms: 'permissions.filter(p, p.startsWith("read_"))',
      org: '{"id": team.id, "region": team.server_metadata.region}',
      admin: '"write_reports" in permissions',
    });
    expect(evaluateClaims(compiled, context)).toEqual({
      claims: { plan: 'pro', tier: 3, count: 2, perms: ['read_reports'], org: { id: 't1', region: 'eu' }, admin: true },
      failures: [],
      oversized: false,
    });
  });

  it('leaves out a claim whose expression fails or is null, and keeps the others', () => {
    const compiled = compileClaimsTemplate({ missing: 'user.client_metadata.plan', none: 'null', id: 'user.id' });
    const result = evaluateClaims(compiled, context);
    expect(result.claims).toEqual({ id: 'u1' });
    expect(result.failures).toEqual([{ claim: 'missing', message: expect.stringContaining('plan') }]);
  });

  it('drops every claim when together they exceed the limit', () => {
    // A small template over metadata that grew: the user's notes alone are larger than a token should carry.
    const compiled = compileClaimsTemplate({ id: 'user.id', notes: 'user.server_metadata.notes' });
    const grown = { ...context, user: { ...context.user, server_metadata: { notes: 'n'.repeat(maxClaimsBytes) } } };
    expect(evaluateClaims(compiled, context).claims).toEqual({ id: 'u1' });
    const result = evaluateClaims(compiled, grown);
    expect(JSON.stringify(result.claims)).toBe('{}');
    expect(result.oversized).toBe(true);
    expect(maxClaimsBytes).toBe(4096);
  });
});
