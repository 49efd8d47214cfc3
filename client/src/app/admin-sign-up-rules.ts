import type { OperationBody, Schema } from '@gatehouse/protocol/operation-types';
import type { AppCall } from './app-call.ts';
import * as op from '@gatehouse/protocol/operations';

export type SignUpRule = Schema<'ConfigSignUpRule'>;
export type SignUpRulesTestResult = Schema<'SignUpRulesTestResult'>;
export type SignUpRulesStats = Schema<'SignUpRulesStats'>;
export type PasswordPolicy = Schema<'ConfigPasswordPolicy'>;
export type BotChallenge = Schema<'ConfigBotChallenge'>;

/** Sign-up rules (`auth.signUpRules`), Stack's tester and statistics, the password policy and the bot challenge (admin app). */
export type AdminSignUpRules = {
  /** Sets (or, with `null`, removes) one rule; SignUpRuleConditionInvalidError (with the position) for a bad condition. */
  setRule(ruleId: string, rule: SignUpRule | null): Promise<void>;
  /** What happens when no rule decides. */
  setDefaultAction(action: 'allow' | 'reject'): Promise<void>;
  /** Evaluates the saved rules against a sample sign-up: every rule's status and the outcome; nothing is counted. */
  test(sample: OperationBody<'checkSignUpRules'>): Promise<SignUpRulesTestResult>;
  /** Matches per rule (with hourly counts) and per action over the last 48 hours. */
  stats(): Promise<SignUpRulesStats>;
  /** Length bounds and the breached-password check (`auth.passwordPolicy`). */
  setPasswordPolicy(policy: PasswordPolicy): Promise<void>;
  /** The bot challenge at sign-up (`auth.botChallenge`: mode, provider, keys, lowest score, outage policy). */
  setBotChallenge(challenge: BotChallenge): Promise<void>;
};

export function adminSignUpRules(call: AppCall): AdminSignUpRules {
  const saveEntries = async (entries: Record<string, unknown>) => {
    await call(op.updateProjectConfigOverride, { params: { level: 'project' }, body: { config_override_string: JSON.stringify(entries) } });
  };
  return {
    setRule: async (ruleId, rule) => {
      if (rule) await saveEntries({ [`auth.signUpRules.${ruleId}`]: rule });
      // Keys are reset at the branch level (the protocol's rule); here every level edits the one override.
      else await call(op.resetProjectConfigKeys, { params: { level: 'branch' }, body: { keys: [`auth.signUpRules.${ruleId}`] } });
    },
    setDefaultAction: (action) => saveEntries({ 'auth.signUpRulesDefaultAction': action }),
    test: (sample) => call(op.checkSignUpRules, { body: sample }),
    stats: () => call(op.getSignUpRulesStats),
    setPasswordPolicy: (policy) => saveEntries({ 'auth.passwordPolicy': policy }),
    setBotChallenge: (challenge) => saveEntries({ 'auth.botChallenge': challenge }),
  };
}
