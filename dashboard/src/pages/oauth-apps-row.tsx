import { api, type OAuthApplication } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { ConfirmDialog, ErrorMessage, formatDate, TextField } from '../ui.tsx';
import { useProjectScope } from '../shell-context.ts';
import { CustomClaimsField, claimsTemplateText, parseClaimsTemplate } from './custom-claims-field.tsx';
import { linesOf, withReason, wordsOf } from './oauth-apps-form.ts';

const grantLabels: Record<string, string> = {
  authorization_code: 'sign-in',
  refresh_token: 'refresh',
  client_credentials: 'client credentials',
};

/** One application: what it is, its settings edited in place, and its deletion behind a confirmation. */
export function OAuthAppRow({ application }: { application: OAuthApplication }) {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: api.getListOAuthApplicationsQueryKey() });
  const remove = api.useDeleteOAuthApplication({ request });
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  return (
    <li>
      <span>
        {application.logo_url ? <img src={application.logo_url} alt="" width={24} height={24} /> : null} <strong>{application.name}</strong>{' '}
        <span className="dash-muted">
          {application.type} · {application.grant_types.map((grant) => grantLabels[grant] ?? grant).join(', ')}
          {application.registered_dynamically ? ' · registered itself' : ''} · created {formatDate(application.created_at_millis)}
          {Object.keys(application.custom_claims).length > 0
            ? ` · custom claims: ${Object.keys(application.custom_claims).join(', ')}`
            : ''}
        </span>
        <br />
        <code>{application.client_id}</code>
        {application.redirect_uris.length > 0 ? <span className="dash-muted"> · {application.redirect_uris.join(' · ')}</span> : null}
        {editing ? <EditApplication application={application} onDone={() => setEditing(false)} /> : null}
      </span>
      <span className="dash-row">
        {editing ? null : (
          <button type="button" onClick={() => setEditing(true)} aria-label={`Edit ${application.name}`}>
            Edit
          </button>
        )}
        <button type="button" className="gh-danger" onClick={() => setConfirming(true)} aria-label={`Delete ${application.name}`}>
          Delete
        </button>
      </span>
      <ConfirmDialog
        open={confirming}
        title={`Delete ${application.name}?`}
        confirmLabel="Delete application"
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
        <p>Its client ID is refused from now on, and every token it holds stops working at once.</p>
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
    <form className="dash-form" onSubmit={submit} aria-label={`Edit ${application.name}`}>
      <TextField label="Name" name="name" required value={form.name} onChange={(event) => setForm({ ...form, name: event.target.value })} />
      <div className="dash-field">
        <label htmlFor={redirectsId}>Redirect URIs</label>
        <textarea
          id={redirectsId}
          rows={3}
          value={form.redirectUris}
          onChange={(event) => setForm({ ...form, redirectUris: event.target.value })}
        />
      </div>
      <TextField
        label="Logo URL"
        name="logo_url"
        type="url"
        value={form.logoUrl}
        onChange={(event) => setForm({ ...form, logoUrl: event.target.value })}
      />
      <TextField
        label="Allowed scopes"
        name="scopes"
        value={form.scopes}
        onChange={(event) => setForm({ ...form, scopes: event.target.value })}
      />
      <CustomClaimsField value={form.customClaims} onChange={(customClaims) => setForm({ ...form, customClaims })} error={update.error} />
      <ErrorMessage error={localError ? new Error(localError) : withReason(update.error)} />
      <div className="dash-row">
        <button type="submit" className="gh-primary" disabled={update.isPending}>
          {update.isPending ? 'Saving…' : 'Save'}
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
