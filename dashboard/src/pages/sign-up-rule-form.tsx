import { KnownError } from '@gatehouse/protocol/errors';
import { type FormEvent, useId, useState } from 'react';
import { useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { Checkbox, ErrorMessage, TextField } from '../ui.tsx';
import { actionLabels, type SignUpRule, type SignUpRuleAction, useSaveSignUpRules, writeRule } from './sign-up-rule-config.ts';

type Position = { offset: number; line: number; column: number };

/** The position of a refused condition (SIGN_UP_RULE_CONDITION_INVALID's details), when the error is one. */
function conditionPosition(error: unknown): Position | null {
  if (!(error instanceof KnownError) || error.code !== 'SIGN_UP_RULE_CONDITION_INVALID') return null;
  return (error.details as { position?: Position } | undefined)?.position ?? null;
}

/** The refused line of the condition with a caret under the column the server named. */
function ConditionCaret({ condition, position, id }: { condition: string; position: Position; id: string }) {
  const line = condition.split('\n')[position.line - 1] ?? '';
  const { t } = useDashboardTranslation();
  return (
    <div id={id}>
      <span className="dash-error">{t('signUpRules.conditionAt', { line: position.line, column: position.column })}</span>
      <pre className="dash-code" data-testid="condition-caret">
        {`${line}\n${' '.repeat(Math.max(0, position.column - 1))}^`}
      </pre>
    </div>
  );
}

/**
 * Creates or edits one rule: id (new rules only), name, on/off, priority, CEL condition, action with
 * its message, and Gatehouse's own server metadata (a JSON object). The server checks the condition
 * when saving; a refused one is shown with its line and column and nothing is saved.
 */
export function SignUpRuleForm(props: { ruleId: string | null; initial: SignUpRule | null; onDone: () => void }) {
  const save = useSaveSignUpRules();
  const initial = props.initial;
  const [id, setId] = useState(props.ruleId ?? '');
  const [displayName, setDisplayName] = useState(initial?.displayName ?? '');
  const [enabled, setEnabled] = useState(initial?.enabled ?? true);
  const [priority, setPriority] = useState(String(initial?.priority ?? 0));
  const [condition, setCondition] = useState(initial?.condition ?? '');
  const [action, setAction] = useState<SignUpRuleAction>(initial?.action.type ?? 'reject');
  const [message, setMessage] = useState(initial?.action.message ?? '');
  const metadataText = initial?.action.serverMetadata ? JSON.stringify(initial.action.serverMetadata, null, 2) : '';
  const [metadata, setMetadata] = useState(metadataText);
  const [localError, setLocalError] = useState<string | null>(null);
  const conditionId = useId();
  const metadataId = useId();
  const actionId = useId();
  const position = conditionPosition(save.error);
  const { t } = useDashboardTranslation();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setLocalError(null);
    let serverMetadata: Record<string, unknown> | undefined;
    if (metadata.trim() !== '') {
      try {
        serverMetadata = JSON.parse(metadata) as Record<string, unknown>;
      } catch {
        setLocalError(t('signUpRules.metadataNotJson'));
        return;
      }
    }
    const rule: SignUpRule = {
      enabled,
      priority: Number(priority),
      condition,
      ...(displayName.trim() ? { displayName: displayName.trim() } : {}),
      action: {
        type: action,
        ...(message.trim() && action === 'reject' ? { message: message.trim() } : {}),
        ...(serverMetadata !== undefined ? { serverMetadata } : {}),
      },
    };
    save.mutate({ level: 'project', data: { config_override_string: writeRule(id.trim(), rule) } }, { onSuccess: props.onDone });
  };

  return (
    <form
      onSubmit={submit}
      aria-label={props.ruleId ? t('signUpRules.editTitle', { id: props.ruleId }) : t('signUpRules.newRule')}
      className="dash-fieldset"
    >
      {props.ruleId ? null : (
        <TextField
          label={t('signUpRules.ruleId')}
          name="ruleId"
          required
          hint={t('signUpRules.ruleIdHint')}
          value={id}
          onChange={(e) => setId(e.target.value)}
        />
      )}
      <TextField
        label={t('signUpRules.displayName')}
        name="displayName"
        value={displayName}
        onChange={(e) => setDisplayName(e.target.value)}
      />
      <Checkbox label={t('signUpRules.enabled')} checked={enabled} onChange={setEnabled} />
      <TextField
        label={t('signUpRules.priority')}
        name="priority"
        inputMode="numeric"
        hint={t('signUpRules.priorityHint')}
        value={priority}
        onChange={(e) => setPriority(e.target.value)}
      />
      <div className="dash-field dash-json">
        <label htmlFor={conditionId}>{t('signUpRules.conditionCel')}</label>
        <textarea
          id={conditionId}
          rows={3}
          spellCheck={false}
          aria-invalid={position ? true : undefined}
          aria-describedby={`${conditionId}-hint${position ? ` ${conditionId}-caret` : ''}`}
          value={condition}
          onChange={(e) => setCondition(e.target.value)}
        />
        <span id={`${conditionId}-hint`} className="dash-muted">
          {t('signUpRules.conditionHint', {
            variables: 'email, emailDomain, countryCode, authMethod, oauthProvider, riskScores.bot, riskScores.free_trial_abuse',
            example: 'emailDomain == "example.com"',
          })}
        </span>
        {position ? <ConditionCaret condition={condition} position={position} id={`${conditionId}-caret`} /> : null}
      </div>
      <div className="dash-field">
        <label htmlFor={actionId}>{t('signUpRules.action')}</label>
        <select id={actionId} value={action} onChange={(e) => setAction(e.target.value as SignUpRuleAction)}>
          {Object.entries(actionLabels(t)).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      {action === 'reject' ? (
        <TextField
          label={t('signUpRules.message')}
          name="message"
          hint={t('signUpRules.messageHint')}
          value={message}
          onChange={(e) => setMessage(e.target.value)}
        />
      ) : (
        <div className="dash-field dash-json">
          <label htmlFor={metadataId}>{t('signUpRules.serverMetadata')}</label>
          <textarea
            id={metadataId}
            rows={3}
            spellCheck={false}
            aria-describedby={`${metadataId}-hint`}
            value={metadata}
            onChange={(e) => setMetadata(e.target.value)}
          />
          <span id={`${metadataId}-hint`} className="dash-muted">
            {t('signUpRules.serverMetadataHint')}
          </span>
        </div>
      )}
      {localError ? (
        <p role="alert" className="dash-error">
          {localError}
        </p>
      ) : (
        <ErrorMessage error={save.error} />
      )}
      <div className="dash-row">
        <button type="submit" className="gh-primary" disabled={save.isPending}>
          {save.isPending ? t('auth.saving') : t('signUpRules.saveRule')}
        </button>
        <button type="button" onClick={props.onDone}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}
