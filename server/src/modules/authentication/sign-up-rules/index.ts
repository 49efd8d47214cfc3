import { defineModule } from '../../../kernel/module.ts';
import { usersModule } from '../../identity/users/index.ts';
import * as migration0083 from './migrations/0083-sign-up-rule-triggers.ts';
import * as migration0160 from './migrations/0160-sign-up-signals.ts';
import { deleteSignalsBeforeAcrossProjects } from './sign-up-signal.repository.ts';
import { SignUpRulesService } from './sign-up-rules.service.ts';
import { signUpRuleHandlers } from './sign-up-rules.routes.ts';

export { assertValidPasswordPolicy, assertValidSignUpRules } from './sign-up-rule-validation.ts';

/**
 * Sign-up rules (Stack's `auth.signUpRules`): CEL conditions judged at every end-user sign-up through
 * the users module's `signUpGate` port with the sign-up's risk scores, Stack's rule tester, and per-rule statistics.
 */
export const signUpRulesModule = defineModule({
  name: 'sign-up-rules',
  requires: [usersModule],
  migrations: { '0083-sign-up-rule-triggers': migration0083, '0160-sign-up-signals': migration0160 },
  services: ({ users }, { db }) => {
    const signUpRules = new SignUpRulesService(db);
    users.signUpGate.provide(signUpRules);
    return { signUpRules };
  },
  handlers: signUpRuleHandlers,
  jobs: (_services, { db }) => [
    {
      // The risk scores look back a day; a month of attempts is kept for investigation.
      name: 'sign-up signals expiry',
      intervalMillis: 3_600_000,
      run: async (log) => {
        const deleted = await deleteSignalsBeforeAcrossProjects(db, new Date(Date.now() - 30 * 24 * 3_600_000));
        if (deleted > 0) log.info({ deleted }, 'old sign-up signals deleted');
      },
    },
  ],
});
