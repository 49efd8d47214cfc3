/**
 * How a project's sign-up rules decide a sign-up, as Stack decides it: enabled rules in priority
 * order (lower number first, then by id); a matching `allow` or `reject` decides and stops; a
 * matching `restrict` marks the new user restricted (the first such rule is named) and evaluation
 * goes on; `log` only counts. With no decision, `auth.signUpRulesDefaultAction` applies. A rule
 * whose condition cannot be evaluated is skipped (`error`), as Stack skips it.
 */
import type { ProjectConfig } from '../../../tenancy/project-config.ts';
import { conditionHolds, type SignUpRuleContext } from './cel-conditions.ts';

export const signUpRuleActions = ['allow', 'reject', 'restrict', 'log'] as const;
export type SignUpRuleActionType = (typeof signUpRuleActions)[number];

/** One rule as the config stores it (`auth.signUpRules.<id>`). */
export type SignUpRule = {
  enabled: boolean;
  displayName?: string;
  priority: number;
  condition?: string;
  /** `serverMetadata` is Gatehouse's own: merged into the new user's server metadata when the rule matches (not on `reject`). */
  action: { type: SignUpRuleActionType; message?: string; serverMetadata?: Record<string, unknown> };
};

export type SignUpRuleEvaluation = {
  ruleId: string;
  rule: SignUpRule;
  status: 'matched' | 'not_matched' | 'disabled' | 'missing_condition' | 'error';
  error?: string;
};

export type SignUpRulesOutcome = {
  shouldAllow: boolean;
  decision: 'allow' | 'reject' | 'default-allow' | 'default-reject';
  decisionRuleId: string | null;
  restrictedBecauseOfRuleId: string | null;
};

export type SignUpRulesTrace = { evaluations: SignUpRuleEvaluation[]; outcome: SignUpRulesOutcome };

/** The project's rules in evaluation order. */
export function orderedRules(config: ProjectConfig): Array<[string, SignUpRule]> {
  const rules = Object.entries(config.auth.signUpRules as Record<string, SignUpRule>);
  return rules.sort(([idA, a], [idB, b]) => a.priority - b.priority || (idA < idB ? -1 : idA > idB ? 1 : 0));
}

/** Every rule's evaluation, in order, up to the deciding one; and the outcome. */
export function evaluateSignUpRules(config: ProjectConfig, context: SignUpRuleContext): SignUpRulesTrace {
  const evaluations: SignUpRuleEvaluation[] = [];
  let restrictedBecauseOfRuleId: string | null = null;
  for (const [ruleId, rule] of orderedRules(config)) {
    if (rule.enabled !== true) {
      evaluations.push({ ruleId, rule, status: 'disabled' });
      continue;
    }
    if (!rule.condition) {
      evaluations.push({ ruleId, rule, status: 'missing_condition' });
      continue;
    }
    let matches: boolean;
    try {
      matches = conditionHolds(rule.condition, context);
    } catch (error) {
      evaluations.push({ ruleId, rule, status: 'error', error: (error as Error).message.split('\n')[0] });
      continue;
    }
    evaluations.push({ ruleId, rule, status: matches ? 'matched' : 'not_matched' });
    if (!matches) continue;
    const type = rule.action.type;
    if (type === 'restrict') restrictedBecauseOfRuleId ??= ruleId;
    if (type === 'allow' || type === 'reject') {
      return { evaluations, outcome: { shouldAllow: type === 'allow', decision: type, decisionRuleId: ruleId, restrictedBecauseOfRuleId } };
    }
  }
  const shouldAllow = config.auth.signUpRulesDefaultAction !== 'reject';
  return {
    evaluations,
    outcome: { shouldAllow, decision: shouldAllow ? 'default-allow' : 'default-reject', decisionRuleId: null, restrictedBecauseOfRuleId },
  };
}

/**
 * The server metadata the matched rules give the new user: each matched rule's `action.serverMetadata`
 * in evaluation order, a key set by an earlier (higher-priority) rule kept. Undefined when none sets any.
 */
export function ruleMetadataOf(trace: SignUpRulesTrace): Record<string, unknown> | undefined {
  const merged: Record<string, unknown> = {};
  for (const entry of trace.evaluations) {
    const metadata = entry.status === 'matched' && entry.rule.action.type !== 'reject' ? entry.rule.action.serverMetadata : undefined;
    for (const [key, value] of Object.entries(metadata ?? {})) if (!Object.hasOwn(merged, key)) merged[key] = value;
  }
  return Object.keys(merged).length > 0 ? merged : undefined;
}

/** The context of a sign-up, with Stack's derivations (the email domain is what follows the last `@`, lower-cased). */
export function signUpRuleContext(input: {
  email: string | null;
  authMethod: string;
  oauthProvider: string | null;
  countryCode: string | null;
  riskScores?: { bot: number; free_trial_abuse: number };
}): SignUpRuleContext {
  const email = input.email ?? '';
  const at = email.lastIndexOf('@');
  return {
    email,
    emailDomain: at >= 0 ? email.slice(at + 1).toLowerCase() : '',
    countryCode: input.countryCode?.toUpperCase() ?? '',
    authMethod: input.authMethod,
    oauthProvider: input.oauthProvider ?? '',
    riskScores: input.riskScores ?? { bot: 0, free_trial_abuse: 0 },
  };
}
