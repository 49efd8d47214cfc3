import type { Schema } from '@gatehouse/client';
import { api } from '@gatehouse/react';
import { type FormEvent, useId, useState } from 'react';
import { type Translate, useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { useProjectScope } from '../shell-context.ts';
import { actionNames } from './sign-up-rule-config.ts';
import { ErrorMessage, TextField } from '../ui.tsx';

type TestResult = Schema<'SignUpRulesTestResult'>;
type AuthMethod = Schema<'SignUpAuthMethod'>;

const statusLabels = (t: Translate): Record<TestResult['evaluations'][number]['status'], string> => ({
  matched: t('signUpRules.statusMatched'),
  not_matched: t('signUpRules.statusNotMatched'),
  disabled: t('signUpRules.statusDisabled'),
  missing_condition: t('signUpRules.statusNoCondition'),
  error: t('signUpRules.statusError'),
});

/** What the outcome means for the sample sign-up, in a sentence. */
function outcomeText(result: TestResult, t: Translate): string {
  const { outcome } = result;
  const rule = result.evaluations.find((entry) => entry.rule_id === outcome.decision_rule_id);
  const name = !rule
    ? ''
    : rule.display_name
      ? t('signUpRules.ruleNameNamed', { id: rule.rule_id, name: rule.display_name })
      : t('signUpRules.ruleName', { id: rule.rule_id });
  const restricted = outcome.restricted_because_of_rule_id
    ? t('signUpRules.restrictedBy', { id: outcome.restricted_because_of_rule_id })
    : '';
  switch (outcome.decision) {
    case 'allow':
      return t('signUpRules.allowedBy', { rule: name, restricted });
    case 'reject':
      return t('signUpRules.rejectedBy', { rule: name, message: rule?.action.message || t('signUpRules.defaultMessage') });
    case 'default-allow':
      return t('signUpRules.defaultAllowed', { restricted });
    default:
      return t('signUpRules.defaultRejected');
  }
}

const score = (text: string) => Math.min(100, Math.max(0, Math.round(Number(text) || 0)));

/**
 * Stack's rule tester (`checkSignUpRules`) on the saved rules: a sample sign-up (email, country, auth
 * method, OAuth provider, risk scores) and what each rule made of it, with the outcome.
 */
export function SignUpRuleTester() {
  const { request } = useProjectScope();
  const check = api.useCheckSignUpRules({ request });
  const [email, setEmail] = useState('');
  const [country, setCountry] = useState('');
  const [method, setMethod] = useState<AuthMethod>('password');
  const [provider, setProvider] = useState('');
  const [bot, setBot] = useState('0');
  const [trial, setTrial] = useState('0');
  const methodId = useId();
  const { t } = useDashboardTranslation();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    check.mutate({
      data: {
        email: email || null,
        auth_method: method,
        oauth_provider: method === 'oauth' && provider ? provider : null,
        country_code: country.trim() || null,
        risk_scores: { bot: score(bot), free_trial_abuse: score(trial) },
      },
    });
  };
  const result = check.data;
  return (
    <>
      <form onSubmit={submit} aria-label={t('signUpRules.test')} className="dash-fieldset">
        <TextField
          label={t('signUpRules.testEmail')}
          name="testEmail"
          type="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <TextField
          label={t('signUpRules.countryCode')}
          name="testCountry"
          hint={t('signUpRules.countryHint')}
          maxLength={2}
          value={country}
          onChange={(e) => setCountry(e.target.value)}
        />
        <div className="dash-field">
          <label htmlFor={methodId}>{t('signUpRules.authMethod')}</label>
          <select id={methodId} value={method} onChange={(e) => setMethod(e.target.value as AuthMethod)}>
            <option value="password">{t('signUpRules.methodPassword')}</option>
            <option value="otp">{t('signUpRules.methodOtp')}</option>
            <option value="oauth">OAuth</option>
            <option value="passkey">{t('signUpRules.methodPasskey')}</option>
          </select>
        </div>
        {method === 'oauth' ? (
          <TextField
            label={t('signUpRules.oauthProvider')}
            name="testProvider"
            hint={t('signUpRules.oauthProviderHint')}
            value={provider}
            onChange={(e) => setProvider(e.target.value)}
          />
        ) : null}
        <TextField
          label={t('signUpRules.botScore')}
          name="testBot"
          inputMode="numeric"
          hint={t('signUpRules.scoreHint')}
          value={bot}
          onChange={(e) => setBot(e.target.value)}
        />
        <TextField
          label={t('signUpRules.trialScore')}
          name="testTrial"
          inputMode="numeric"
          hint={t('signUpRules.scoreHint')}
          value={trial}
          onChange={(e) => setTrial(e.target.value)}
        />
        <ErrorMessage error={check.error} />
        <div className="dash-row">
          <button type="submit" disabled={check.isPending}>
            {check.isPending ? t('signUpRules.testing') : t('signUpRules.runTest')}
          </button>
        </div>
      </form>
      {result ? (
        <div aria-live="polite">
          <p data-testid="sign-up-rule-test-outcome">
            <strong>{outcomeText(result, t)}</strong>
          </p>
          <ol aria-label={t('signUpRules.evaluations')}>
            {result.evaluations.map((entry) => (
              <li key={entry.rule_id}>
                <code>{entry.rule_id}</code> ({actionNames(t)[entry.action.type]}): {statusLabels(t)[entry.status]}
                {entry.error ? ` — ${entry.error}` : ''}
              </li>
            ))}
          </ol>
        </div>
      ) : null}
    </>
  );
}
