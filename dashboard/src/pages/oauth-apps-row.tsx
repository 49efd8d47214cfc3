import { api, type OAuthApplication } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { type Translate, useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { ConfirmDialog, ErrorMessage, TextField } from '../ui.tsx';
import { useProjectScope } from '../shell-context.ts';
import { CustomClaimsField, claimsTemplateText, parseClaimsTemplate } from './custom-claims-field.tsx';
import { linesOf, withReason, wordsOf } from './oauth-apps-form.ts';

const grantLabel = (grant: string, t: Translate): string => {
  if (grant === 'authorization_code') return t('oauthApps.grantSignIn');
  if (grant === 'refresh_token') return t('oauthApps.grantRefresh');
  if (grant === 'client_credentials') return t('oauthApps.grantClientCredentials');
  return grant;
};

/** One application: what it is, its settings edited in place, and its deletion behind a confirmation. */
export function OAuthAppRow({ application }: { application: OAuthApplication }) {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: api.getListOAuthApplicationsQueryKey() });
  const remove = api.useDeleteOAuthApplication({ request });
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const { t, formatDate } = useDashboardTranslation();
  return (
    <li>
      <span>
        {application.logo_url ? <img src={application.logo_url} alt="" width={24} height={24} /> : null} <strong>{application.name}</strong>{' '}
        <span className="dash-muted">
          {application.type === 'public' ? t('oauthApps.public') : t('oauthApps.confidential')} ·{' '}
          {application.grant_types.map((grant) => grantLabel(grant, t)).join(', ')}
          {application.registered_dynamically ? ` · ${t('oauthApps.registeredItself')}` : ''} ·{' '}
          {t('oauthApps.createdAt', { date: formatDate(application.created_at_millis) })}
          {Object.keys(application.custom_claims).length > 0
            ? ` · ${t('oauthApps.customClaims', { claims: Object.keys(application.custom_claims).join(', ') })}`
            : ''}
        </span>
        <br />
        <code>{application.client_id}</code>
        {application.redirect_uris.length > 0 ? <span className="dash-muted"> · {application.redirect_uris.join(' · ')}</span> : null}
        {editing ? <EditApplication application={application} onDone={() => setEditing(false)} /> : null}
      </span>
      <span className="dash-row">
        {editing ? null : (
          <button type="button" onClick={() => setEditing(true)} aria-label={t('oauthApps.editNamed', { name: application.name })}>
            {t('oauthApps.edit')}
          </button>
        )}
        <button
          type="button"
          className="gh-danger"
          onClick={() => setConfirming(true)}
          aria-label={t('oauthApps.deleteNamed', { name: application.name })}
        >
          {t('oauthApps.delete')}
        </button>
      </span>
      <ConfirmDialog
        open={confirming}
        title={t('oauthApps.deleteTitle', { name: application.name })}
        confirmLabel={t('oauthApps.deleteConfirm')}
        busy={remove.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          remove.mutate(
            { clientId: application.client_id },
            {
              onSuccess: async () => {
                await refresh();
                setConfirming(false);
              },
            },
          )
        }
      >
        <p>{t('oauthApps.deleteExplained')}</p>
        <ErrorMessage error={remove.error} />
      </ConfirmDialog>
    </li>
  );
}

function EditApplication({ application, onDone }: { application: OAuthApplication; onDone: () => void }) {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const update = api.useUpdateOAuthApplication({ request });
  const redirectsId = useId();
  const { t } = useDashboardTranslation();
  const [form, setForm] = useState({
    name: application.name,
    redirectUris: application.redirect_uris.join('\n'),
    logoUrl: application.logo_url ?? '',
    scopes: application.scopes.join(' '),
    customClaims: claimsTemplateText(application.custom_claims),
  });
  const [localError, setLocalError] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    const claims = parseClaimsTemplate(form.customClaims);
    setLocalError('problem' in claims ? claims.problem : null);
    if ('problem' in claims) return update.reset();
    update.mutate(
      {
        clientId: application.client_id,
        data: {
          name: form.name.trim(),
          redirect_uris: linesOf(form.redirectUris),
          logo_url: form.logoUrl.trim() || null,
          scopes: wordsOf(form.scopes),
          custom_claims: claims.template,
        },
      },
      {
        onSuccess: async () => {
          await queryClient.invalidateQueries({ queryKey: api.getListOAuthApplicationsQueryKey() });
          onDone();
        },
      },
    );
  }

  return (
    <form className="dash-form" onSubmit={submit} aria-label={t('oauthApps.editNamed', { name: application.name })}>
      <TextField
        label={t('oauthApps.name')}
        name="name"
        required
        value={form.name}
        onChange={(event) => setForm({ ...form, name: event.target.value })}
      />
      <div className="dash-field">
        <label htmlFor={redirectsId}>{t('oauthApps.redirectUris')}</label>
        <textarea
          id={redirectsId}
          rows={3}
          value={form.redirectUris}
          onChange={(event) => setForm({ ...form, redirectUris: event.target.value })}
        />
      </div>
      <TextField
        label={t('oauthApps.logoUrl')}
        name="logo_url"
        type="url"
        value={form.logoUrl}
        onChange={(event) => setForm({ ...form, logoUrl: event.target.value })}
      />
      <TextField
        label={t('oauthApps.scopes')}
        name="scopes"
        value={form.scopes}
        onChange={(event) => setForm({ ...form, scopes: event.target.value })}
      />
      <CustomClaimsField value={form.customClaims} onChange={(customClaims) => setForm({ ...form, customClaims })} error={update.error} />
      <ErrorMessage error={localError ? new Error(localError) : withReason(update.error, t)} />
      <div className="dash-row">
        <button type="submit" className="gh-primary" disabled={update.isPending}>
          {update.isPending ? t('webhooks.saving') : t('oauthApps.save')}
        </button>
        <button type="button" onClick={onDone}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}
