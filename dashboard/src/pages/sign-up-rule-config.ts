import type { Schema } from '@gatehouse/client';
import { api } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import type { Translate } from '../i18n/dashboard-i18n.ts';
import { useProjectScope } from '../shell-context.ts';

export type SignUpRule = Schema<'ConfigSignUpRule'>;
export type SignUpRuleAction = SignUpRule['action']['type'];
export type DefaultAction = 'allow' | 'reject';

/** Each action with what it does, for the rule editor's choice. */
export const actionLabels = (t: Translate): Record<SignUpRuleAction, string> => ({
  allow: t('signUpRules.labelAllow'),
  reject: t('signUpRules.labelReject'),
  restrict: t('signUpRules.labelRestrict'),
  log: t('signUpRules.labelLog'),
});

/** An action's name in a word, where the rules are listed and counted. */
export const actionNames = (t: Translate): Record<SignUpRuleAction, string> => ({
  allow: t('signUpRules.typeAllow'),
  reject: t('signUpRules.typeReject'),
  restrict: t('signUpRules.typeRestrict'),
  log: t('signUpRules.typeLog'),
});

/** The rules in the order the server evaluates them: priority (lower first), then id. */
export function orderedRules(rules: Record<string, SignUpRule>): Array<[string, SignUpRule]> {
  return Object.entries(rules).sort(([idA, a], [idB, b]) => a.priority - b.priority || (idA < idB ? -1 : idA > idB ? 1 : 0));
}

/** The rules as the project's rendered config holds them (`auth.signUpRules`, `auth.signUpRulesDefaultAction`). */
export function useSignUpRulesConfig() {
  const { request } = useProjectScope();
  const config = api.useGetProjectConfig({ request, query: { queryKey: api.getGetProjectConfigQueryKey() } });
  const rendered = config.data
    ? (JSON.parse(config.data.config_string) as {
        auth: { signUpRules: Record<string, SignUpRule>; signUpRulesDefaultAction: DefaultAction };
      })
    : null;
  return { config, rules: rendered?.auth.signUpRules ?? null, defaultAction: rendered?.auth.signUpRulesDefaultAction ?? null };
}

/** A save through the project-level config override; the rendered config is replaced by the answer. */
export function useSaveSignUpRules() {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  return api.useUpdateProjectConfigOverride({
    request,
    mutation: {
      onSuccess: (next) => {
        queryClient.setQueryData(api.getGetProjectConfigQueryKey(), next);
        // The statistics list the saved rules.
        void queryClient.invalidateQueries({ queryKey: api.getGetSignUpRulesStatsQueryKey() });
      },
    },
  });
}

/** The override entries that write one rule, or (deleting) every rule but one: a dotted key replaces what it names. */
export const writeRule = (id: string, rule: SignUpRule) => JSON.stringify({ [`auth.signUpRules.${id}`]: rule });
export const withoutRule = (rules: Record<string, SignUpRule>, id: string) =>
  JSON.stringify({ 'auth.signUpRules': Object.fromEntries(Object.entries(rules).filter(([ruleId]) => ruleId !== id)) });
