import type { Schema } from '@gatehouse/client';
import { api } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { useProjectScope } from '../shell-context.ts';
import { Checkbox, ErrorMessage, Section, TextField } from '../ui.tsx';

type PasswordPolicy = Schema<'ConfigPasswordPolicy'>;

/**
 * The project's password rules (`auth.passwordPolicy`, Gatehouse's own): length bounds and the
 * breached-password check; saved through the config override, the server's message shown when it refuses.
 */
export function PasswordPolicySettings() {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const key = api.getGetProjectConfigQueryKey();
  const config = api.useGetProjectConfig({ request, query: { queryKey: key } });
  const rendered = config.data ? (JSON.parse(config.data.config_string) as { auth: { passwordPolicy: PasswordPolicy } }) : null;
  const { t } = useDashboardTranslation();
  return (
    <Section title={t('auth.passwordPolicy')} description={t('auth.passwordPolicyDescription')}>
      {rendered ? (
        <PasswordPolicyForm
          initial={rendered.auth.passwordPolicy}
          request={request}
          onSaved={(next) => queryClient.setQueryData(key, next)}
        />
      ) : (
        <ErrorMessage error={config.error} />
      )}
    </Section>
  );
}

function PasswordPolicyForm(props: { initial: PasswordPolicy; request: RequestInit; onSaved: (config: Schema<'ConfigString'>) => void }) {
  const [minLength, setMinLength] = useState(String(props.initial.minLength));
  const [maxLength, setMaxLength] = useState(String(props.initial.maxLength));
  const [checkBreached, setCheckBreached] = useState(props.initial.checkBreached);
  const save = api.useUpdateProjectConfigOverride({ request: props.request, mutation: { onSuccess: props.onSaved } });
  const { t } = useDashboardTranslation();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const policy = { minLength: Number(minLength), maxLength: Number(maxLength), checkBreached };
    save.mutate({ level: 'project', data: { config_override_string: JSON.stringify({ 'auth.passwordPolicy': policy }) } });
  };
  return (
    <form onSubmit={submit} aria-label={t('auth.passwordPolicy')} className="dash-fieldset">
      <TextField
        label={t('auth.minLength')}
        name="minLength"
        inputMode="numeric"
        hint={t('auth.minLengthHint')}
        value={minLength}
        onChange={(event) => setMinLength(event.target.value)}
      />
      <TextField
        label={t('auth.maxLength')}
        name="maxLength"
        inputMode="numeric"
        hint={t('auth.maxLengthHint')}
        value={maxLength}
        onChange={(event) => setMaxLength(event.target.value)}
      />
      <Checkbox label={t('auth.checkBreached')} checked={checkBreached} onChange={setCheckBreached} />
      <ErrorMessage error={save.error} />
      {save.isSuccess ? <p role="status">{t('auth.saved')}</p> : null}
      <button type="submit" disabled={save.isPending}>
        {t('auth.savePasswordPolicy')}
      </button>
    </form>
  );
}
