import { defineModule } from '../../kernel/module.ts';
import { usersModule } from '../users/index.ts';
import * as migration0083 from './migrations/0083-sign-up-rule-triggers.ts';
import { SignUpRulesService } from './sign-up-rules.service.ts';
import { signUpRuleHandlers } from './sign-up-rules.routes.ts';

export { assertValidPasswordPolicy, assertValidSignUpRules } from './sign-up-rule-validation.ts';

/**
 * Sign-up rules (Stack's `auth.signUpRules`): CEL conditions judged at every end-user sign-up through
 * the users module's `signUpGate` port, Stack's rule tester, and per-rule statistics.
 */
export const signUpRulesModule = defineModule({
  name: 'sign-up-rules',
  requires: [usersModule],
  migrations: { '0083-sign-up-rule-triggers': migration0083 },
  services: ({ users }, { db }) => {
    const signUpRules = new SignUpRulesService(db);
    users.signUpGate.provide(signUpRules);
    return { signUpRules };
  },
  handlers: signUpRuleHandlers,
});
