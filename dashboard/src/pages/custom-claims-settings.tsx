import type { Schema } from '@gatehouse/client';
import { api } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { useProjectScope } from '../shell-context.ts';
import { ErrorMessage, Section } from '../ui.tsx';
import { type ClaimsTemplate, CustomClaimsField, claimsTemplateText, parseClaimsTemplate } from './custom-claims-field.tsx';

/**
 * The custom claims of the project's own access tokens (`auth.customClaims`, Gatehouse's own), saved through the
 * config override like the other settings; a template the server refuses is shown with its claim and position and
 * nothing is saved.
 */
export function CustomClaimsSettings() {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const key = api.getGetProjectConfigQueryKey();
  const config = api.useGetProjectConfig({ request, query: { queryKey: key } });
  const rendered = config.data ? (JSON.parse(config.data.config_string) as { auth: { customClaims?: ClaimsTemplate } }) : null;
  const { t } = useDashboardTranslation();
  return (
    <Section title={t('claims.title')} description={t('claims.description')}>
      {rendered ? (
        <CustomClaimsForm
          initial={claimsTemplateText(rendered.auth.customClaims)}
          request={request}
          onSaved={(next) => queryClient.setQueryData(key, next)}
        />
      ) : (
        <ErrorMessage error={config.error} />
      )}
    </Section>
  );
}

function CustomClaimsForm(props: { initial: string; request: RequestInit; onSaved: (config: Schema<'ConfigString'>) => void }) {
  const [text, setText] = useState(props.initial);
  const [localError, setLocalError] = useState<string | null>(null);
  const save = api.useUpdateProjectConfigOverride({ request: props.request, mutation: { onSuccess: props.onSaved } });
  const { t } = useDashboardTranslation();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const claims = parseClaimsTemplate(text, t);
    setLocalError('problem' in claims ? claims.problem : null);
    if ('problem' in claims) return save.reset();
    // `{}` removes every claim: the override replaces the whole template.
    save.mutate({ level: 'project', data: { config_override_string: JSON.stringify({ 'auth.customClaims': claims.template }) } });
  };
  return (
    <form onSubmit={submit} aria-label={t('claims.formLabel')} className="dash-fieldset">
      <CustomClaimsField value={text} onChange={setText} error={save.error} />
      <ErrorMessage error={localError ? new Error(localError) : save.error} />
      {save.isSuccess ? <p role="status">{t('auth.saved')}</p> : null}
      <button type="submit" disabled={save.isPending}>
        {t('claims.save')}
      </button>
    </form>
  );
}
