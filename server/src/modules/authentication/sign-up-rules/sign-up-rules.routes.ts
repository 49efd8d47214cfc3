import { authOf } from '../../../request-context/auth-of.ts';
import type { OperationHandlers } from '../../../routing/operation-handlers.ts';
import { evaluateSignUpRules, signUpRuleContext } from './sign-up-rules.ts';
import type { SignUpRulesService } from './sign-up-rules.service.ts';

export function signUpRuleHandlers(services: { signUpRules: SignUpRulesService }) {
  return {
    checkSignUpRules: async (request) => {
      const { project } = authOf(request);
      const body = request.body;
      const context = signUpRuleContext({
        email: body.email,
        authMethod: body.auth_method,
        oauthProvider: body.oauth_provider,
        countryCode: body.country_code,
        riskScores: body.risk_scores,
      });
      const trace = evaluateSignUpRules(project.config, context);
      return {
        context: {
          email: context.email,
          email_domain: context.emailDomain,
          country_code: context.countryCode,
          auth_method: body.auth_method,
          oauth_provider: context.oauthProvider,
          turnstile_result: body.turnstile_result ?? ('invalid' as const),
          risk_scores: context.riskScores,
        },
        evaluations: trace.evaluations.map((entry) => ({
          rule_id: entry.ruleId,
          display_name: entry.rule.displayName ?? '',
          enabled: entry.rule.enabled === true,
          condition: entry.rule.condition ?? '',
          status: entry.status,
          action: {
            type: entry.rule.action.type,
            ...(entry.rule.action.message !== undefined ? { message: entry.rule.action.message } : {}),
          },
          ...(entry.error !== undefined ? { error: entry.error } : {}),
        })),
        outcome: {
          should_allow: trace.outcome.shouldAllow,
          decision: trace.outcome.decision,
          decision_rule_id: trace.outcome.decisionRuleId,
          restricted_because_of_rule_id: trace.outcome.restrictedBecauseOfRuleId,
        },
      };
    },

    getSignUpRulesStats: async (request) => services.signUpRules.statistics(authOf(request).project.id),
  } satisfies Partial<OperationHandlers>;
}
