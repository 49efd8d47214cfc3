import type { Schema } from '@gatehouse/client';
import { api } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
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
  const { t } = useDashboardTranslation();
  return (
    <Section title={t('auth.botChallenge')} description={t('auth.botChallengeDescription')}>
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
  const { t } = useDashboardTranslation();
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
    <form onSubmit={submit} aria-label={t('auth.botChallenge')} className="dash-fieldset">
      <Choice
        label={t('auth.mode')}
        value={draft.mode}
        onChange={set('mode')}
        options={[
          ['off', t('auth.modeOff')],
          ['invisible', t('auth.modeInvisible')],
          ['required', t('auth.modeRequired')],
        ]}
      />
      <Choice
        label={t('auth.provider')}
        value={draft.provider}
        onChange={set('provider')}
        options={[
          ['turnstile', 'Cloudflare Turnstile'],
          ['hcaptcha', 'hCaptcha'],
          ['recaptcha', 'Google reCAPTCHA'],
        ]}
      />
      <TextField label={t('auth.siteKey')} name="siteKey" value={draft.siteKey} onChange={(event) => set('siteKey')(event.target.value)} />
      <TextField
        label={t('auth.secretKey')}
        name="secretKey"
        type="password"
        autoComplete="off"
        value={draft.secretKey}
        onChange={(event) => set('secretKey')(event.target.value)}
      />
      <TextField
        label={t('auth.minScore')}
        name="minScore"
        inputMode="decimal"
        hint={t('auth.minScoreHint')}
        value={minScore}
        onChange={(event) => setMinScore(event.target.value)}
      />
      <Choice
        label={t('auth.outage')}
        value={draft.onProviderOutage}
        onChange={set('onProviderOutage')}
        options={[
          ['allow', t('auth.outageAllow')],
          ['reject', t('auth.outageReject')],
        ]}
      />
      <ErrorMessage error={save.error} />
      {save.isSuccess ? <p role="status">{t('auth.saved')}</p> : null}
      <button type="submit" disabled={save.isPending}>
        {t('auth.saveBotChallenge')}
      </button>
    </form>
  );
}
