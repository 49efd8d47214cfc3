import type { Schema } from '@gatehouse/client';
import { api } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useProjectScope } from '../shell-context.ts';
import { ErrorMessage, Section, TextField } from '../ui.tsx';

type BotChallenge = Schema<'ConfigBotChallenge'>;

/** A labelled choice among a few values. */
function Choice<T extends string>(props: { label: string; value: T; options: Array<[T, string]>; onChange: (value: T) => void }) {
  const id = useId();
  return (
    <div className="dash-field">
      <label htmlFor={id}>{props.label}</label>
      <select id={id} value={props.value} onChange={(event) => props.onChange(event.target.value as T)}>
        {props.options.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * The bot challenge at sign-up (`auth.botChallenge`): mode, provider, keys, the lowest accepted score
 * and what happens when the provider is down; saved through the config override, the server's
 * validation message shown when it refuses.
 */
export function BotChallengeSettings() {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const key = api.getGetProjectConfigQueryKey();
  const config = api.useGetProjectConfig({ request, query: { queryKey: key } });
  const rendered = config.data ? (JSON.parse(config.data.config_string) as { auth: { botChallenge: BotChallenge } }) : null;
  return (
    <Section
      title="Bot challenge"
      description="Turnstile, hCaptcha or reCAPTCHA on the sign-up page. Invisible: scored, never refused by itself. Required: no sign-up without a passed challenge."
    >
      {rendered ? (
        <BotChallengeForm initial={rendered.auth.botChallenge} onSaved={(next) => queryClient.setQueryData(key, next)} request={request} />
      ) : (
        <ErrorMessage error={config.error} />
      )}
    </Section>
  );
}

function BotChallengeForm({
  initial,
  onSaved,
  request,
}: {
  initial: BotChallenge;
  onSaved: (config: Schema<'ConfigString'>) => void;
  request: RequestInit;
}) {
  const [draft, setDraft] = useState<BotChallenge>(initial);
  const [minScore, setMinScore] = useState(String(initial.minScore));
  const save = api.useUpdateProjectConfigOverride({ request, mutation: { onSuccess: onSaved } });
  const set =
    <K extends keyof BotChallenge>(field: K) =>
    (value: BotChallenge[K]) =>
      setDraft((current) => ({ ...current, [field]: value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = { ...draft, minScore: Number(minScore) };
    save.mutate({ level: 'project', data: { config_override_string: JSON.stringify({ 'auth.botChallenge': next }) } });
  };
  return (
    <form onSubmit={submit} aria-label="Bot challenge" className="dash-fieldset">
      <Choice
        label="Mode"
        value={draft.mode}
        onChange={set('mode')}
        options={[
          ['off', 'Off'],
          ['invisible', 'Invisible (scored only)'],
          ['required', 'Required'],
        ]}
      />
      <Choice
        label="Provider"
        value={draft.provider}
        onChange={set('provider')}
        options={[
          ['turnstile', 'Cloudflare Turnstile'],
          ['hcaptcha', 'hCaptcha'],
          ['recaptcha', 'Google reCAPTCHA'],
        ]}
      />
      <TextField label="Site key" name="siteKey" value={draft.siteKey} onChange={(event) => set('siteKey')(event.target.value)} />
      <TextField
        label="Secret key"
        name="secretKey"
        type="password"
        autoComplete="off"
        value={draft.secretKey}
        onChange={(event) => set('secretKey')(event.target.value)}
      />
      <TextField
        label="Lowest accepted score"
        name="minScore"
        inputMode="decimal"
        hint="0 to 1; used when the provider scores (reCAPTCHA v3, hCaptcha Enterprise)."
        value={minScore}
        onChange={(event) => setMinScore(event.target.value)}
      />
      <Choice
        label="When the provider cannot be reached"
        value={draft.onProviderOutage}
        onChange={set('onProviderOutage')}
        options={[
          ['allow', 'Let sign-ups through (fail open)'],
          ['reject', 'Refuse sign-ups (fail closed)'],
        ]}
      />
      <ErrorMessage error={save.error} />
      {save.isSuccess ? <p role="status">Saved.</p> : null}
      <button type="submit" disabled={save.isPending}>
        Save bot challenge
      </button>
    </form>
  );
}
