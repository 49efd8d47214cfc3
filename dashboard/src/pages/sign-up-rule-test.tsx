import type { Schema } from '@gatehouse/client';
import { api } from '@gatehouse/react';
import { type FormEvent, useId, useState } from 'react';
import { useProjectScope } from '../shell-context.ts';
import { ErrorMessage, TextField } from '../ui.tsx';

type TestResult = Schema<'SignUpRulesTestResult'>;
type AuthMethod = Schema<'SignUpAuthMethod'>;

const statusLabels: Record<TestResult['evaluations'][number]['status'], string> = {
  matched: 'matched',
  not_matched: 'did not match',
  disabled: 'disabled',
  missing_condition: 'no condition',
  error: 'could not be evaluated',
};

/** What the outcome means for the sample sign-up, in a sentence. */
function outcomeText(result: TestResult): string {
  const { outcome } = result;
  const rule = result.evaluations.find((entry) => entry.rule_id === outcome.decision_rule_id);
  const name = rule ? `rule ${rule.rule_id}${rule.display_name ? ` (${rule.display_name})` : ''}` : '';
  const restricted = outcome.restricted_because_of_rule_id ? `, restricted by rule ${outcome.restricted_because_of_rule_id}` : '';
  switch (outcome.decision) {
    case 'allow':
      return `Allowed by ${name}${restricted}.`;
    case 'reject':
      return `Rejected by ${name} with the message: ${rule?.action.message || 'the default rejection message'}`;
    case 'default-allow':
      return `No rule decided: allowed by the default action${restricted}.`;
    default:
      return 'No rule decided: rejected by the default action.';
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
      <form onSubmit={submit} aria-label="Test the rules" className="dash-fieldset">
        <TextField label="Email" name="testEmail" type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
        <TextField
          label="Country code"
          name="testCountry"
          hint="Two letters (ISO 3166), or empty."
          maxLength={2}
          value={country}
          onChange={(e) => setCountry(e.target.value)}
        />
        <div className="dash-field">
          <label htmlFor={methodId}>Auth method</label>
          <select id={methodId} value={method} onChange={(e) => setMethod(e.target.value as AuthMethod)}>
            <option value="password">Password</option>
            <option value="otp">One-time code</option>
            <option value="oauth">OAuth</option>
            <option value="passkey">Passkey</option>
          </select>
        </div>
        {method === 'oauth' ? (
          <TextField
            label="OAuth provider"
            name="testProvider"
            hint="e.g. google"
            value={provider}
            onChange={(e) => setProvider(e.target.value)}
          />
        ) : null}
        <TextField
          label="Bot risk score"
          name="testBot"
          inputMode="numeric"
          hint="0 to 100."
          value={bot}
          onChange={(e) => setBot(e.target.value)}
        />
        <TextField
          label="Free-trial abuse risk score"
          name="testTrial"
          inputMode="numeric"
          hint="0 to 100."
          value={trial}
          onChange={(e) => setTrial(e.target.value)}
        />
        <ErrorMessage error={check.error} />
        <div className="dash-row">
          <button type="submit" disabled={check.isPending}>
            {check.isPending ? 'Testing…' : 'Run test'}
          </button>
        </div>
      </form>
      {result ? (
        <div aria-live="polite">
          <p data-testid="sign-up-rule-test-outcome">
            <strong>{outcomeText(result)}</strong>
          </p>
          <ol aria-label="Rule evaluations">
            {result.evaluations.map((entry) => (
              <li key={entry.rule_id}>
                <code>{entry.rule_id}</code> ({entry.action.type}): {statusLabels[entry.status]}
                {entry.error ? ` — ${entry.error}` : ''}
              </li>
            ))}
          </ol>
        </div>
      ) : null}
    </>
  );
}
