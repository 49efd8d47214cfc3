import { api, type OAuthApplicationWithSecret } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { CopyButton } from '../copy-button.tsx';
import { CustomClaimsField, parseClaimsTemplate } from './custom-claims-field.tsx';
import { useProjectScope } from '../shell-context.ts';
import { useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { Checkbox, ErrorMessage, PageHeader, Section, TextField } from '../ui.tsx';
import { createBodyOf, emptyOAuthAppForm, type OAuthAppForm, withReason } from './oauth-apps-form.ts';
import { OAuthAppRow } from './oauth-apps-row.tsx';

/**
 * The project as an OAuth 2.1 / OpenID provider: its applications (created with the secret shown this once, edited,
 * deleted) and whether apps may register themselves (dynamic client registration, RFC 7591).
 */
export function OAuthAppsPage() {
  const { request } = useProjectScope();
  const applications = api.useListOAuthApplicationsSuspense({ request });
  const [created, setCreated] = useState<OAuthApplicationWithSecret | null>(null);
  const { t } = useDashboardTranslation();
  return (
    <>
      <PageHeader title={t('nav.oauthApps')} />
      <p className="dash-muted dash-page-intro">{t('oauthApps.intro')}</p>
      <ProviderSettings />
      <CreateApplication onCreated={setCreated} />
      {created ? <CreatedApplication application={created} onDone={() => setCreated(null)} /> : null}
      <Section title={t('oauthApps.applications')}>
        {applications.data.items.length === 0 ? <p className="dash-muted">{t('oauthApps.none')}</p> : null}
        <ul className="dash-list" aria-label={t('nav.oauthApps')}>
          {applications.data.items.map((application) => (
            <OAuthAppRow key={application.client_id} application={application} />
          ))}
        </ul>
      </Section>
    </>
  );
}

function ProviderSettings() {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const settings = api.useGetOAuthProviderSettingsSuspense({ request });
  const update = api.useUpdateOAuthProviderSettings({ request });
  // The box shows the choice at once, while the change is saved (then the saved settings).
  const pending = update.isPending ? update.variables?.data.allow_dynamic_registration : undefined;
  const { t } = useDashboardTranslation();
  return (
    <Section
      title={t('oauthApps.provider')}
      description={
        <>
          {t('oauthApps.issuer')} <code>{settings.data.issuer}</code>
        </>
      }
    >
      <Checkbox
        label={t('oauthApps.allowDynamic')}
        checked={pending ?? settings.data.allow_dynamic_registration}
        disabled={update.isPending}
        onChange={(allow) =>
          update.mutate(
            { data: { allow_dynamic_registration: allow } },
            { onSuccess: (next) => queryClient.setQueryData(api.getGetOAuthProviderSettingsQueryKey(), next) },
          )
        }
      />
      <ErrorMessage error={update.error} />
    </Section>
  );
}

function CreateApplication({ onCreated }: { onCreated: (application: OAuthApplicationWithSecret) => void }) {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const create = api.useCreateOAuthApplication({ request });
  const [form, setForm] = useState<OAuthAppForm>(emptyOAuthAppForm);
  const [localError, setLocalError] = useState<string | null>(null);
  const ids = { type: useId(), redirects: useId(), redirectsHint: useId() };
  const set = (change: Partial<OAuthAppForm>) => setForm({ ...form, ...change });
  const { t } = useDashboardTranslation();

  function submit(event: FormEvent) {
    event.preventDefault();
    const claims = parseClaimsTemplate(form.customClaims);
    setLocalError('problem' in claims ? claims.problem : null);
    if ('problem' in claims) return create.reset();
    create.mutate(
      { data: createBodyOf(form, claims.template) },
      {
        onSuccess: (application) => {
          onCreated(application);
          setForm(emptyOAuthAppForm);
          void queryClient.invalidateQueries({ queryKey: api.getListOAuthApplicationsQueryKey() });
        },
      },
    );
  }

  return (
    <Section title={t('oauthApps.registerTitle')}>
      <form className="dash-form" onSubmit={submit}>
        <div className="dash-grid-2">
          <TextField
            label={t('oauthApps.name')}
            name="name"
            required
            value={form.name}
            onChange={(event) => set({ name: event.target.value })}
          />
          <div className="dash-field">
            <label htmlFor={ids.type}>{t('oauthApps.type')}</label>
            <select id={ids.type} value={form.type} onChange={(event) => set({ type: event.target.value as OAuthAppForm['type'] })}>
              <option value="confidential">{t('oauthApps.typeConfidential')}</option>
              <option value="public">{t('oauthApps.typePublic')}</option>
            </select>
          </div>
        </div>
        <div className="dash-field">
          <label htmlFor={ids.redirects}>{t('oauthApps.redirectUris')}</label>
          <textarea
            id={ids.redirects}
            rows={3}
            aria-describedby={ids.redirectsHint}
            value={form.redirectUris}
            onChange={(event) => set({ redirectUris: event.target.value })}
          />
          <span id={ids.redirectsHint} className="dash-muted">
            {t('oauthApps.redirectUrisHint')}
          </span>
        </div>
        <div className="dash-grid-2">
          <TextField
            label={t('oauthApps.logoUrl')}
            name="logo_url"
            type="url"
            value={form.logoUrl}
            onChange={(event) => set({ logoUrl: event.target.value })}
          />
          <TextField
            label={t('oauthApps.scopes')}
            name="scopes"
            hint={t('oauthApps.scopesHint')}
            value={form.scopes}
            onChange={(event) => set({ scopes: event.target.value })}
          />
        </div>
        {form.type === 'confidential' ? (
          <Checkbox
            label={t('oauthApps.machineToMachine')}
            checked={form.machineToMachine}
            onChange={(machineToMachine) => set({ machineToMachine })}
          />
        ) : null}
        <CustomClaimsField value={form.customClaims} onChange={(customClaims) => set({ customClaims })} error={create.error} />
        <ErrorMessage error={localError ? new Error(localError) : withReason(create.error, t)} />
        <div>
          <button type="submit" className="gh-primary" disabled={create.isPending}>
            {create.isPending ? t('oauthApps.registering') : t('oauthApps.register')}
          </button>
        </div>
      </form>
    </Section>
  );
}

function CreatedApplication({ application, onDone }: { application: OAuthApplicationWithSecret; onDone: () => void }) {
  const { t } = useDashboardTranslation();
  return (
    <section className="dash-panel dash-created-keys" aria-label={t('oauthApps.newApplication')}>
      <h2>{t('oauthApps.registered', { name: application.name })}</h2>
      {application.client_secret ? <p>{t('oauthApps.copySecretNow')}</p> : null}
      <dl>
        <div>
          <dt>{t('oauthApps.clientId')}</dt>
          <dd>
            <code>{application.client_id}</code> <CopyButton value={application.client_id} label={t('oauthApps.copyClientId')} />
          </dd>
        </div>
        {application.client_secret ? (
          <div>
            <dt>{t('oauthApps.clientSecret')}</dt>
            <dd>
              <code>{application.client_secret}</code>{' '}
              <CopyButton value={application.client_secret} label={t('oauthApps.copyClientSecret')} />
            </dd>
          </div>
        ) : null}
      </dl>
      <button type="button" onClick={onDone}>
        {t('oauthApps.done')}
      </button>
    </section>
  );
}
