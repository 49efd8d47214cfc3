import { api } from '@gatehouse/react';
import { useId, useState } from 'react';
import { useProjectScope } from '../shell-context.ts';
import { ConfirmDialog, ErrorMessage, PageHeader, Section, TableScroll } from '../ui.tsx';
import {
  actionLabels,
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
  return (
    <>
      <PageHeader title="Sign-up rules" />
      <Section
        title="Rules"
        description="CEL conditions judged at every sign-up (password, one-time code, passkey, OAuth, an anonymous user signing up), lower priority first. Allow and reject decide and stop; restrict and log go on."
      >
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
              Add rule
            </button>
          </div>
        )}
      </Section>
      <Section title="Default action" description="What happens to a sign-up no allow or reject rule decided.">
        {defaultAction ? <DefaultActionForm initial={defaultAction} /> : null}
      </Section>
      <Section title="Test the rules" description="Runs the saved rules against a sample sign-up; nothing is created or counted.">
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
  const matchesOf = (ruleId: string) => stats.data?.rule_triggers.find((entry) => entry.rule_id === ruleId)?.total_count ?? 0;
  if (ordered.length === 0) return <p className="dash-muted">No rules yet: every sign-up gets the default action.</p>;
  return (
    <>
      <TableScroll label="Sign-up rules">
        <table aria-label="Sign-up rules">
          <thead>
            <tr>
              <th scope="col">Priority</th>
              <th scope="col">Rule</th>
              <th scope="col">Condition</th>
              <th scope="col">Action</th>
              <th scope="col">Matches (48 h)</th>
              <th scope="col">
                <span className="dash-visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {ordered.map(([ruleId, rule]) => (
              <tr key={ruleId}>
                <td>{rule.priority}</td>
                <td>
                  {rule.displayName || ruleId} <code>{ruleId}</code>
                  {rule.enabled ? null : <span className="dash-badge">disabled</span>}
                </td>
                <td className="dash-excerpt">
                  <code>{rule.condition ?? ''}</code>
                </td>
                <td>
                  {rule.action.type}
                  {rule.action.message ? `: ${rule.action.message}` : ''}
                </td>
                <td data-testid={`matches-${ruleId}`}>{stats.isPending ? '…' : matchesOf(ruleId)}</td>
                <td>
                  <div className="dash-row">
                    <button type="button" onClick={() => onEdit(ruleId)} aria-label={`Edit ${ruleId}`}>
                      Edit
                    </button>
                    <button type="button" className="gh-danger" onClick={() => setDeleting(ruleId)} aria-label={`Delete ${ruleId}`}>
                      Delete
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
          Last {stats.data.analytics_hours} hours: {stats.data.total_triggers} matches (
          {Object.entries(stats.data.triggers_by_action)
            .map(([action, count]) => `${action} ${count}`)
            .join(', ')}
          ).
        </p>
      ) : (
        <ErrorMessage error={stats.error} />
      )}
      <ErrorMessage error={remove.error} />
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete rule ${deleting ?? ''}?`}
        confirmLabel="Delete rule"
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
        <p>Sign-ups are no longer judged by it. Its statistics stay until they age out.</p>
      </ConfirmDialog>
    </>
  );
}

function DefaultActionForm({ initial }: { initial: DefaultAction }) {
  const save = useSaveSignUpRules();
  const [value, setValue] = useState<DefaultAction>(initial);
  const id = useId();
  return (
    <form
      className="dash-fieldset"
      aria-label="Default action"
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate({ level: 'project', data: { config_override_string: JSON.stringify({ 'auth.signUpRulesDefaultAction': value }) } });
      }}
    >
      <div className="dash-field">
        <label htmlFor={id}>When no rule decides</label>
        <select id={id} value={value} onChange={(event) => setValue(event.target.value as DefaultAction)}>
          <option value="allow">{actionLabels.allow.split(' (')[0]} the sign-up</option>
          <option value="reject">{actionLabels.reject.split(' (')[0]} the sign-up</option>
        </select>
      </div>
      <ErrorMessage error={save.error} />
      {save.isSuccess ? <p role="status">Saved.</p> : null}
      <div className="dash-row">
        <button type="submit" disabled={save.isPending}>
          Save default action
        </button>
      </div>
    </form>
  );
}
