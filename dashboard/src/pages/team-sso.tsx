import type { Schema } from '@gatehouse/protocol/operation-types';
import { api } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { CopyButton } from '../copy-button.tsx';
import { useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { useProjectScope } from '../shell-context.ts';
import { Checkbox, ConfirmDialog, ErrorMessage, Section, TextField } from '../ui.tsx';
import { MetadataFields, type MetadataSource, RotateCertificates, SamlFacts, samlMetadataInput } from './team-sso-saml.tsx';

type SsoConnection = Schema<'SsoConnection'>;

/** Drops the team's cached connection list after a change. */
function useForgetConnections(teamId: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: api.getListSsoConnectionsQueryKey({ team_id: teamId }) });
}

/**
 * A team's SSO connections (SAML 2.0 or OpenID Connect): add one from the IdP's metadata (by URL or XML) or the
 * issuer, see what to give the IdP (SP metadata, ACS URL, redirect URI), rename, turn off, roll the IdP's
 * certificates by new metadata (the old ones stay accepted for the overlap) and remove.
 */
export function SsoConnections({ teamId }: { teamId: string }) {
  const { request } = useProjectScope();
  const { t } = useDashboardTranslation();
  const connections = api.useListSsoConnections({ team_id: teamId }, { request });
  return (
    <Section title={t('sso.title')} description={t('sso.description')}>
      <ErrorMessage error={connections.error} />
      {connections.data?.items.length === 0 ? <p className="dash-muted">{t('sso.none')}</p> : null}
      {connections.data?.items.map((connection) => (
        <ConnectionCard key={connection.id} teamId={teamId} connection={connection} />
      ))}
      <NewConnection teamId={teamId} />
    </Section>
  );
}

function NewConnection({ teamId }: { teamId: string }) {
  const { request } = useProjectScope();
  const { t } = useDashboardTranslation();
  const forget = useForgetConnections(teamId);
  const create = api.useCreateSsoConnection({ request });
  const [protocol, setProtocol] = useState<'saml' | 'oidc'>('saml');
  const [name, setName] = useState('');
  const [source, setSource] = useState<MetadataSource>('xml');
  const [metadata, setMetadata] = useState('');
  const [oidc, setOidc] = useState({ issuer: '', client_id: '', client_secret: '' });
  const protocolId = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    const settings =
      protocol === 'saml' ? { saml: samlMetadataInput(source, metadata) } : { oidc: { ...oidc, issuer: oidc.issuer.trim() } };
    create.mutate(
      { data: { team_id: teamId, protocol, display_name: name.trim(), ...settings } },
      {
        onSuccess: () => {
          setName('');
          setMetadata('');
          setOidc({ issuer: '', client_id: '', client_secret: '' });
          void forget();
        },
      },
    );
  }

  return (
    <form className="dash-card dash-stack" aria-label={t('sso.newConnection')} onSubmit={submit}>
      <div className="dash-row dash-toolbar">
        <TextField label={t('sso.connectionName')} name="sso-name" value={name} onChange={(event) => setName(event.target.value)} />
        <div className="dash-field">
          <label htmlFor={protocolId}>{t('sso.protocol')}</label>
          <select id={protocolId} value={protocol} onChange={(event) => setProtocol(event.target.value as 'saml' | 'oidc')}>
            <option value="saml">{t('sso.saml')}</option>
            <option value="oidc">{t('sso.oidc')}</option>
          </select>
        </div>
      </div>
      {protocol === 'saml' ? (
        <MetadataFields source={source} onSource={setSource} value={metadata} onChange={setMetadata} />
      ) : (
        <div className="dash-row dash-toolbar">
          <TextField
            label={t('sso.issuerUrl')}
            name="oidc-issuer"
            type="url"
            value={oidc.issuer}
            onChange={(event) => setOidc({ ...oidc, issuer: event.target.value })}
          />
          <TextField
            label={t('sso.clientId')}
            name="oidc-client-id"
            value={oidc.client_id}
            onChange={(event) => setOidc({ ...oidc, client_id: event.target.value })}
          />
          <TextField
            label={t('sso.clientSecret')}
            name="oidc-client-secret"
            type="password"
            autoComplete="off"
            value={oidc.client_secret}
            onChange={(event) => setOidc({ ...oidc, client_secret: event.target.value })}
          />
        </div>
      )}
      <div>
        <button type="submit" disabled={create.isPending || !name.trim()}>
          {t('sso.add')}
        </button>
      </div>
      <ErrorMessage error={create.error} />
    </form>
  );
}

function ConnectionCard({ teamId, connection }: { teamId: string; connection: SsoConnection }) {
  const { request } = useProjectScope();
  const { t } = useDashboardTranslation();
  const forget = useForgetConnections(teamId);
  const update = api.useUpdateSsoConnection({ request });
  const remove = api.useDeleteSsoConnection({ request });
  const [name, setName] = useState(connection.display_name);
  const [confirming, setConfirming] = useState(false);
  const change = (data: Schema<'SsoConnectionUpdate'>) =>
    update.mutate({ connectionId: connection.id, data }, { onSuccess: () => void forget() });
  const named = { name: connection.display_name };

  return (
    <section className="dash-card dash-stack" aria-label={t('sso.connection', named)}>
      <h3>
        {connection.display_name} <span className="dash-badge">{connection.protocol === 'saml' ? t('sso.saml') : t('sso.oidc')}</span>{' '}
        {connection.enabled ? null : <span className="dash-badge">{t('sso.off')}</span>}
      </h3>
      {connection.saml ? <SamlFacts connection={connection} saml={connection.saml} /> : null}
      {connection.oidc ? (
        <dl className="dash-facts">
          <dt>{t('sso.issuer')}</dt>
          <dd>{connection.oidc.issuer}</dd>
          <dt>{t('sso.redirectUri')}</dt>
          <dd>
            <code>{connection.oidc.redirect_uri}</code> <CopyButton value={connection.oidc.redirect_uri} label={t('sso.copyRedirectUri')} />
          </dd>
        </dl>
      ) : null}
      <form
        className="dash-row dash-toolbar"
        onSubmit={(event) => {
          event.preventDefault();
          change({ display_name: name.trim() });
        }}
      >
        <TextField label={t('sso.nameOf', named)} name="sso-rename" value={name} onChange={(event) => setName(event.target.value)} />
        <button type="submit" disabled={update.isPending || !name.trim()}>
          {t('sso.rename')}
        </button>
        <Checkbox
          label={t('sso.enabled')}
          checked={connection.enabled}
          disabled={update.isPending}
          onChange={(enabled) => change({ enabled })}
        />
      </form>
      {connection.saml ? <RotateCertificates onSubmit={(saml) => change({ saml })} busy={update.isPending} /> : null}
      <ErrorMessage error={update.error} />
      <div>
        <button type="button" className="gh-danger" onClick={() => setConfirming(true)}>
          {t('sso.remove', named)}
        </button>
      </div>
      <ConfirmDialog
        open={confirming}
        title={t('sso.removeTitle', named)}
        confirmLabel={t('sso.removeConfirm')}
        busy={remove.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() => remove.mutate({ connectionId: connection.id }, { onSuccess: () => void forget() })}
      >
        <p>{t('sso.removeExplained')}</p>
        <ErrorMessage error={remove.error} />
      </ConfirmDialog>
    </section>
  );
}
