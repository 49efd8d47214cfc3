import { api } from '@gatehouse/react';
import { useId, useState } from 'react';
import { useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { useProjectScope } from '../shell-context.ts';
import { ConfirmDialog, ErrorMessage, PageHeader, Section, TableScroll } from '../ui.tsx';
import {
  actionNames,
  type DefaultAction,
  orderedRules,
  type SignUpRule,
  useSaveSignUpRules,
  useSignUpRulesConfig,
  withoutRule,
} from './sign-up-rule-config.ts';
import { SignUpRuleForm } from './sign-up-rule-form.tsx';
import { SignUpRuleTester } from './sign-up-rule-test.tsx';

type Editing = { ruleId: string | null } | null;

/**
 * Sign-up rules (Stack's `auth.signUpRules`): the rules in evaluation order with their matches of the
 * last 48 hours, an editor, deletion behind a confirmation, the default action, and a live test of
 * the saved rules against a sample sign-up.
 */
export function SignUpRulesPage() {
  const { rules, defaultAction, config } = useSignUpRulesConfig();
  const [editing, setEditing] = useState<Editing>(null);
  const { t } = useDashboardTranslation();
  return (
    <>
      <PageHeader title={t('nav.signUpRules')} />
      <Section title={t('signUpRules.rules')} description={t('signUpRules.rulesDescription')}>
        {rules ? <RulesTable rules={rules} onEdit={(ruleId) => setEditing({ ruleId })} /> : <ErrorMessage error={config.error} />}
        {editing ? (
          <SignUpRuleForm
            key={editing.ruleId ?? 'new'}
            ruleId={editing.ruleId}
            initial={editing.ruleId ? (rules?.[editing.ruleId] ?? null) : null}
            onDone={() => setEditing(null)}
          />
        ) : (
          <div className="dash-row">
            <button type="button" className="gh-primary" onClick={() => setEditing({ ruleId: null })} disabled={!rules}>
              {t('signUpRules.add')}
            </button>
          </div>
        )}
      </Section>
      <Section title={t('signUpRules.defaultAction')} description={t('signUpRules.defaultDescription')}>
        {defaultAction ? <DefaultActionForm initial={defaultAction} /> : null}
      </Section>
      <Section title={t('signUpRules.test')} description={t('signUpRules.testDescription')}>
        <SignUpRuleTester />
      </Section>
    </>
  );
}

function RulesTable({ rules, onEdit }: { rules: Record<string, SignUpRule>; onEdit: (ruleId: string) => void }) {
  const { request } = useProjectScope();
  const stats = api.useGetSignUpRulesStats({ request });
  const [deleting, setDeleting] = useState<string | null>(null);
  const remove = useSaveSignUpRules();
  const ordered = orderedRules(rules);
  const { t } = useDashboardTranslation();
  const names = actionNames(t);
  const matchesOf = (ruleId: string) => stats.data?.rule_triggers.find((entry) => entry.rule_id === ruleId)?.total_count ?? 0;
  if (ordered.length === 0) return <p className="dash-muted">{t('signUpRules.none')}</p>;
  return (
    <>
      <TableScroll label={t('nav.signUpRules')}>
        <table aria-label={t('nav.signUpRules')}>
          <thead>
            <tr>
              <th scope="col">{t('signUpRules.priority')}</th>
              <th scope="col">{t('signUpRules.rule')}</th>
              <th scope="col">{t('signUpRules.condition')}</th>
              <th scope="col">{t('signUpRules.action')}</th>
              <th scope="col">{t('signUpRules.matches48h')}</th>
              <th scope="col">
                <span className="dash-visually-hidden">{t('signUpRules.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {ordered.map(([ruleId, rule]) => (
              <tr key={ruleId}>
                <td>{rule.priority}</td>
                <td>
                  {rule.displayName || ruleId} <code>{ruleId}</code>
                  {rule.enabled ? null : <span className="dash-badge">{t('signUpRules.disabled')}</span>}
                </td>
                <td className="dash-excerpt">
                  <code>{rule.condition ?? ''}</code>
                </td>
                <td>
                  {names[rule.action.type]}
                  {rule.action.message ? `: ${rule.action.message}` : ''}
                </td>
                <td data-testid={`matches-${ruleId}`}>{stats.isPending ? '…' : matchesOf(ruleId)}</td>
                <td>
                  <div className="dash-row">
                    <button type="button" onClick={() => onEdit(ruleId)} aria-label={t('signUpRules.editLabel', { id: ruleId })}>
                      {t('signUpRules.edit')}
                    </button>
                    <button
                      type="button"
                      className="gh-danger"
                      onClick={() => setDeleting(ruleId)}
                      aria-label={t('signUpRules.deleteLabel', { id: ruleId })}
                    >
                      {t('signUpRules.delete')}
                    </button>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      {stats.data ? (
        <p className="dash-muted" data-testid="sign-up-rule-totals">
          {t('signUpRules.totals', {
            hours: stats.data.analytics_hours,
            total: stats.data.total_triggers,
            byAction: Object.entries(stats.data.triggers_by_action)
              .map(([action, count]) => `${names[action as keyof typeof names] ?? action} ${count}`)
              .join(', '),
          })}
        </p>
      ) : (
        <ErrorMessage error={stats.error} />
      )}
      <ErrorMessage error={remove.error} />
      <ConfirmDialog
        open={deleting !== null}
        title={t('signUpRules.deleteTitle', { id: deleting ?? '' })}
        confirmLabel={t('signUpRules.deleteConfirm')}
        busy={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() =>
          deleting &&
          remove.mutate(
            { level: 'project', data: { config_override_string: withoutRule(rules, deleting) } },
            { onSuccess: () => setDeleting(null) },
          )
        }
      >
        <p>{t('signUpRules.deleteWarning')}</p>
      </ConfirmDialog>
    </>
  );
}

function DefaultActionForm({ initial }: { initial: DefaultAction }) {
  const save = useSaveSignUpRules();
  const [value, setValue] = useState<DefaultAction>(initial);
  const id = useId();
  const { t } = useDashboardTranslation();
  return (
    <form
      className="dash-fieldset"
      aria-label={t('signUpRules.defaultAction')}
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate({ level: 'project', data: { config_override_string: JSON.stringify({ 'auth.signUpRulesDefaultAction': value }) } });
      }}
    >
      <div className="dash-field">
        <label htmlFor={id}>{t('signUpRules.whenNoRule')}</label>
        <select id={id} value={value} onChange={(event) => setValue(event.target.value as DefaultAction)}>
          <option value="allow">{t('signUpRules.allowSignUp')}</option>
          <option value="reject">{t('signUpRules.rejectSignUp')}</option>
        </select>
      </div>
      <ErrorMessage error={save.error} />
      {save.isSuccess ? <p role="status">{t('signUpRules.saved')}</p> : null}
      <div className="dash-row">
        <button type="submit" disabled={save.isPending}>
          {t('signUpRules.saveDefault')}
        </button>
      </div>
    </form>
  );
}
