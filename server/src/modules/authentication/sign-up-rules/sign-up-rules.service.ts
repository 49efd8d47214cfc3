import { SignUpRejectedError } from '@gatehouse/protocol/errors';
import type { DbHandle } from '../../../db/handle.ts';
import type { Project } from '../../../tenancy/project.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import type { SignUpAdmission, SignUpAttempt, SignUpGate } from '../../identity/users/index.ts';
import { countTriggersByHour, insertTriggers } from './sign-up-rule-trigger.repository.ts';
import { isDisposableDomain, riskScores, type SignUpRiskScores, signalKeys } from './risk-scores.ts';
import { countSignals, insertSignal } from './sign-up-signal.repository.ts';
import {
  evaluateSignUpRules,
  ruleMetadataOf,
  signUpRuleActions,
  type SignUpRuleActionType,
  type SignUpRulesTrace,
  signUpRuleContext,
} from './sign-up-rules.ts';

/** Shown when the rejecting rule has no message (or the default action rejects). */
export const defaultRejectionMessage = 'Your sign up was rejected. Please contact us for more information.';

/** The window of the statistics, in hours (Stack's dashboard shows 48). */
export const statisticsHours = 48;

type MatchedRule = { rule_id: string; action: SignUpRuleActionType };

/** The rules each match counted; a rejected sign-up's matches are counted with no user. */
function matchedRules(trace: SignUpRulesTrace): MatchedRule[] {
  return trace.evaluations
    .filter((entry) => entry.status === 'matched')
    .map((entry) => ({ rule_id: entry.ruleId, action: entry.rule.action.type }));
}

/**
 * Sign-up rules at every sign-up (the users module asks through its `signUpGate` port), and their
 * statistics. A rejection's matches are written at once, on their own; an admitted sign-up's are
 * written in the creating transaction, so a sign-up that fails later is not counted.
 */
export class SignUpRulesService implements SignUpGate {
  constructor(private readonly db: DbHandle) {}

  async admit(project: Project, attempt: SignUpAttempt & { email: string | null; countryCode: string | null }): Promise<SignUpAdmission> {
    const scores = await this.scoreRisk(project, attempt);
    const trace = evaluateSignUpRules(
      project.config,
      signUpRuleContext({
        email: attempt.email,
        authMethod: attempt.method,
        oauthProvider: attempt.oauthProvider ?? null,
        countryCode: attempt.countryCode,
        riskScores: scores,
      }),
    );
    const matched = matchedRules(trace);
    const { outcome } = trace;
    if (!outcome.shouldAllow) {
      await insertTriggers(
        this.db,
        project.id,
        matched.map((match) => ({ ...match, user_id: null })),
      );
      const rule = outcome.decisionRuleId ? project.config.auth.signUpRules[outcome.decisionRuleId] : undefined;
      const message = (rule as { action?: { message?: string } } | undefined)?.action?.message || defaultRejectionMessage;
      throw new SignUpRejectedError({ message }, message);
    }
    const restrictingRule = outcome.restrictedBecauseOfRuleId;
    const displayName = restrictingRule
      ? (project.config.auth.signUpRules[restrictingRule] as { displayName?: string }).displayName
      : undefined;
    return {
      riskScores: scores,
      serverMetadata: ruleMetadataOf(trace),
      // Stack's wording, so a dashboard shows the same private note.
      restriction: restrictingRule
        ? { privateDetails: `Restricted by sign-up rule: ${restrictingRule}${displayName ? ` (${displayName})` : ''}` }
        : undefined,
      record: (trx, userId) =>
        insertTriggers(
          trx,
          project.id,
          matched.map((match) => ({ ...match, user_id: userId })),
        ),
    };
  }

  /**
   * The attempt's risk scores (risk-scores.ts) from the project's attempts of the last 24 hours; the
   * attempt is then counted itself, admitted or not (a rejected bot retrying still adds up).
   */
  private async scoreRisk(project: Project, attempt: SignUpAttempt & { email: string | null }): Promise<SignUpRiskScores> {
    const keys = signalKeys(attempt.email, attempt.ip);
    const counts = await countSignals(this.db, project.id, keys, new Date(Date.now() - 24 * 3_600_000));
    await insertSignal(this.db, project.id, keys);
    const domain = attempt.email?.slice(attempt.email.lastIndexOf('@') + 1) ?? '';
    return riskScores({
      disposable: domain !== '' && isDisposableDomain(domain),
      sameIp: counts.ip,
      sameSubnet: counts.subnet,
      lookalikes: counts.emailSkeleton,
      challenge: attempt.botChallenge ?? 'off',
    });
  }

  /** Rule matches of the last `statisticsHours` hours: per rule (with hourly counts, oldest first) and per action. */
  async statistics(projectId: ProjectId, now = new Date()) {
    const currentHour = Math.floor(now.getTime() / 3_600_000) * 3_600_000;
    const since = new Date(currentHour - (statisticsHours - 1) * 3_600_000);
    const rows = await countTriggersByHour(this.db, projectId, since);
    const byAction = Object.fromEntries(signUpRuleActions.map((action) => [action, 0])) as Record<SignUpRuleActionType, number>;
    const byRule = new Map<string, number[]>();
    for (const row of rows) {
      byAction[row.action] = (byAction[row.action] ?? 0) + row.count;
      const hours = byRule.get(row.rule_id) ?? new Array<number>(statisticsHours).fill(0);
      const index = Math.round((row.hour.getTime() - since.getTime()) / 3_600_000);
      if (index >= 0 && index < statisticsHours) hours[index] = (hours[index] ?? 0) + row.count;
      byRule.set(row.rule_id, hours);
    }
    const ruleTriggers = [...byRule.entries()]
      .map(([ruleId, hours]) => ({
        rule_id: ruleId,
        total_count: hours.reduce((sum, count) => sum + count, 0),
        hourly_counts: hours.map((count, index) => ({ hour: new Date(since.getTime() + index * 3_600_000).toISOString(), count })),
      }))
      .sort((a, b) => b.total_count - a.total_count || (a.rule_id < b.rule_id ? -1 : 1));
    return {
      rule_triggers: ruleTriggers,
      total_triggers: ruleTriggers.reduce((sum, rule) => sum + rule.total_count, 0),
      triggers_by_action: byAction,
      analytics_hours: statisticsHours,
    };
  }
}
