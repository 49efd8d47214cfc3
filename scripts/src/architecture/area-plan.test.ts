import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type AreaMap, destinationOf, planModuleMoves, rewritePathMentions } from './area-plan.ts';

const map: AreaMap = {
  root: 'server/src/modules',
  areas: {
    identity: { says: 'users', modules: { users: 'users', 'end-user-api-keys': 'user-api-keys' } },
    messaging: { says: 'email', modules: { email: 'email', 'email-sending': 'send-email' } },
    administration: { says: 'admin', modules: {} },
  },
  files: { 'users/contact-channel.table.ts': 'identity/contact-channels/contact-channel.table.ts' },
  patterns: [{ match: '^scim.*$', area: 'administration' }],
};

describe('planModuleMoves', () => {
  it('places mapped modules, places new ones by pattern, and reports the rest without failing', () => {
    const plan = planModuleMoves(map, ['users', 'email', 'email-sending', 'end-user-api-keys', 'scim', 'widgets', 'identity', 'messaging']);
    expect(plan.placedByPattern).toEqual([{ module: 'scim', area: 'administration' }]);
    expect(plan.unknownModules).toEqual(['widgets']);
    expect(destinationOf(plan, 'server/src/modules/email-sending/email-sending.routes.ts')).toBe(
      'server/src/modules/messaging/send-email/email-sending.routes.ts',
    );
    expect(destinationOf(plan, 'server/src/modules/email/index.ts')).toBe('server/src/modules/messaging/email/index.ts');
    expect(destinationOf(plan, 'server/src/modules/users/contact-channel.table.ts')).toBe(
      'server/src/modules/identity/contact-channels/contact-channel.table.ts',
    );
    expect(destinationOf(plan, 'server/src/modules/scim/index.ts')).toBe('server/src/modules/administration/scim/index.ts');
    expect(destinationOf(plan, 'server/src/modules/widgets/index.ts')).toBe('server/src/modules/widgets/index.ts');
  });

  it('maps a moved path to itself: a second run changes nothing', () => {
    const plan = planModuleMoves(map, ['identity', 'messaging']);
    for (const path of ['server/src/modules/messaging/email/index.ts', 'server/src/modules/identity/users/user.service.ts']) {
      expect(destinationOf(plan, path)).toBe(path);
    }
  });
});

describe('rewritePathMentions', () => {
  const plan = planModuleMoves(map, ['users', 'email', 'email-sending']);

  it('rewrites written-out paths by whole name, in docs any mention, in code only the unprefixed ones', () => {
    const doc = 'See `server/src/modules/email/` and ../../server/src/modules/email-sending/x.ts, not modules/emails.';
    const once = rewritePathMentions(plan, map.root, doc, false);
    expect(once).toBe(
      'See `server/src/modules/messaging/email/` and ../../server/src/modules/messaging/send-email/x.ts, not modules/emails.',
    );
    expect(rewritePathMentions(plan, map.root, once, false)).toBe(once);
    const code = "const asset = 'src/modules/email/rendering/render-worker.mjs'; import x from '../modules/users/index.ts';";
    expect(rewritePathMentions(plan, map.root, code, true)).toBe(
      "const asset = 'src/modules/messaging/email/rendering/render-worker.mjs'; import x from '../modules/users/index.ts';",
    );
  });

  it('follows single-file moves', () => {
    expect(rewritePathMentions(plan, map.root, 'server/src/modules/users/contact-channel.table.ts', false)).toBe(
      'server/src/modules/identity/contact-channels/contact-channel.table.ts',
    );
  });
});

describe('module-areas.json', () => {
  it('names no area like a module, so a moved path never matches an old name again', () => {
    const real = JSON.parse(readFileSync(new URL('./module-areas.json', import.meta.url), 'utf8')) as AreaMap;
    const moduleNames = Object.values(real.areas).flatMap(({ modules }) => [...Object.keys(modules), ...Object.values(modules)]);
    for (const area of Object.keys(real.areas)) expect(moduleNames).not.toContain(area);
  });
});
