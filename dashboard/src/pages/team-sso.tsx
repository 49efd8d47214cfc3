import type { Schema } from '@gatehouse/protocol/operation-types';
import { api } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { CopyButton } from '../copy-button.tsx';
import { useProjectScope } from '../shell-context.ts';
import { Checkbox, ConfirmDialog, ErrorMessage, formatDate, Section, TextField } from '../ui.tsx';

type SsoConnection = Schema<'SsoConnection'>;

/** A labelled multi-line field (the IdP's metadata XML). */
function XmlField({ label, value, onChange }: { label: string; value: string; onChange: (value: string) => void }) {
  const id = useId();
  return (
    <div className="dash-field">
      <label htmlFor={id}>{label}</label>
      <textarea id={id} rows={6} spellCheck={false} value={value} onChange={(event) => onChange(event.target.value)} />
    </div>
  );
}

/** Drops the team's cached connection list after a change. */
function useForgetConnections(teamId: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: api.getListSsoConnectionsQueryKey({ team_id: teamId }) });
}

/**
 * A team's SSO connections (SAML 2.0 or OpenID Connect): add one from the IdP's metadata or the issuer,
 * see what to give the IdP (SP metadata, ACS URL, redirect URI), rename, turn off, roll the IdP's
 * certificates by new metadata (the old ones stay accepted for the overlap) and remove.
 */
export function SsoConnections({ teamId }: { teamId: string }) {
  const { request } = useProjectScope();
  const connections = api.useListSsoConnections({ team_id: teamId }, { request });
  return (
    <Section
      title="SSO connections"
      description="The team's members sign in through their own identity provider (SAML 2.0 or OpenID Connect)."
    >
      <ErrorMessage error={connections.error} />
      {connections.data?.items.length === 0 ? <p className="dash-muted">No SSO connections.</p> : null}
      {connections.data?.items.map((connection) => (
        <ConnectionCard key={connection.id} teamId={teamId} connection={connection} />
      ))}
      <NewConnection teamId={teamId} />
    </Section>
  );
}

function NewConnection({ teamId }: { teamId: string }) {
  const { request } = useProjectScope();
  const forget = useForgetConnections(teamId);
  const create = api.useCreateSsoConnection({ request });
  const [protocol, setProtocol] = useState<'saml' | 'oidc'>('saml');
  const [name, setName] = useState('');
  const [metadata, setMetadata] = useState('');
  const [oidc, setOidc] = useState({ issuer: '', client_id: '', client_secret: '' });
  const protocolId = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    const settings =
      protocol === 'saml' ? { saml: { idp_metadata_xml: metadata.trim() } } : { oidc: { ...oidc, issuer: oidc.issuer.trim() } };
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
    <form className="dash-card dash-stack" aria-label="New SSO connection" onSubmit={submit}>
      <div className="dash-row dash-toolbar">
        <TextField label="Connection name" name="sso-name" value={name} onChange={(event) => setName(event.target.value)} />
        <div className="dash-field">
          <label htmlFor={protocolId}>Protocol</label>
          <select id={protocolId} value={protocol} onChange={(event) => setProtocol(event.target.value as 'saml' | 'oidc')}>
            <option value="saml">SAML 2.0</option>
            <option value="oidc">OpenID Connect</option>
          </select>
        </div>
      </div>
      {protocol === 'saml' ? (
        <XmlField label="IdP metadata XML" value={metadata} onChange={setMetadata} />
      ) : (
        <div className="dash-row dash-toolbar">
          <TextField
            label="Issuer URL"
            name="oidc-issuer"
            type="url"
            value={oidc.issuer}
            onChange={(event) => setOidc({ ...oidc, issuer: event.target.value })}
          />
          <TextField
            label="Client ID"
            name="oidc-client-id"
            value={oidc.client_id}
            onChange={(event) => setOidc({ ...oidc, client_id: event.target.value })}
          />
          <TextField
            label="Client secret"
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
          Add connection
        </button>
      </div>
      <ErrorMessage error={create.error} />
    </form>
  );
}

function ConnectionCard({ teamId, connection }: { teamId: string; connection: SsoConnection }) {
  const { request } = useProjectScope();
  const forget = useForgetConnections(teamId);
  const update = api.useUpdateSsoConnection({ request });
  const remove = api.useDeleteSsoConnection({ request });
  const [name, setName] = useState(connection.display_name);
  const [confirming, setConfirming] = useState(false);
  const change = (data: Schema<'SsoConnectionUpdate'>) =>
    update.mutate({ connectionId: connection.id, data }, { onSuccess: () => void forget() });

  return (
    <section className="dash-card dash-stack" aria-label={`SSO connection ${connection.display_name}`}>
      <h3>
        {connection.display_name} <span className="dash-badge">{connection.protocol === 'saml' ? 'SAML 2.0' : 'OpenID Connect'}</span>{' '}
        {connection.enabled ? null : <span className="dash-badge">off</span>}
      </h3>
      {connection.saml ? <SamlFacts connection={connection} saml={connection.saml} /> : null}
      {connection.oidc ? (
        <dl className="dash-facts">
          <dt>Issuer</dt>
          <dd>{connection.oidc.issuer}</dd>
          <dt>Redirect URI to register</dt>
          <dd>
            <code>{connection.oidc.redirect_uri}</code> <CopyButton value={connection.oidc.redirect_uri} label="Copy the redirect URI" />
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
        <TextField
          label={`Name of ${connection.display_name}`}
          name="sso-rename"
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
        <button type="submit" disabled={update.isPending || !name.trim()}>
          Rename
        </button>
        <Checkbox label="Enabled" checked={connection.enabled} disabled={update.isPending} onChange={(enabled) => change({ enabled })} />
      </form>
      {connection.saml ? <RotateCertificates onSubmit={(saml) => change({ saml })} busy={update.isPending} /> : null}
      <ErrorMessage error={update.error} />
      <div>
        <button type="button" className="gh-danger" onClick={() => setConfirming(true)}>
          Remove {connection.display_name}
        </button>
      </div>
      <ConfirmDialog
        open={confirming}
        title={`Remove ${connection.display_name}?`}
        confirmLabel="Remove connection"
        busy={remove.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() => remove.mutate({ connectionId: connection.id }, { onSuccess: () => void forget() })}
      >
        <p>Its users stay members of the team; they can no longer sign in through it.</p>
        <ErrorMessage error={remove.error} />
      </ConfirmDialog>
    </section>
  );
}

function SamlFacts({ connection, saml }: { connection: SsoConnection; saml: NonNullable<SsoConnection['saml']> }) {
  return (
    <dl className="dash-facts">
      <dt>IdP entity ID</dt>
      <dd>{saml.idp_entity_id}</dd>
      <dt>ACS URL to give the IdP</dt>
      <dd>
        <code>{saml.sp_acs_url}</code> <CopyButton value={saml.sp_acs_url} label="Copy the ACS URL" />
      </dd>
      <dt>SP entity ID</dt>
      <dd>
        <code>{saml.sp_entity_id}</code>
      </dd>
      <dt>SP metadata</dt>
      <dd>
        <a href={saml.sp_metadata_url} download={`sp-metadata-${connection.id}.xml`}>
          Download SP metadata
        </a>
      </dd>
      <dt>IdP signing certificates</dt>
      <dd>
        <ul className="dash-list" aria-label={`Certificates of ${connection.display_name}`}>
          {saml.certificates.map((certificate) => (
            <li key={certificate.fingerprint_sha256}>
              <code>{certificate.fingerprint_sha256.slice(0, 16)}…</code>{' '}
              <span className="dash-muted">
                {certificate.retires_at ? `retires ${formatDate(Date.parse(certificate.retires_at))}` : 'current'}
              </span>
            </li>
          ))}
        </ul>
      </dd>
    </dl>
  );
}

/** New IdP metadata: its certificates become current, the replaced ones stay accepted for the overlap. */
function RotateCertificates({ onSubmit, busy }: { onSubmit: (saml: Schema<'SsoSamlSettingsInput'>) => void; busy: boolean }) {
  const [metadata, setMetadata] = useState('');
  const [overlapHours, setOverlapHours] = useState('24');
  const hours = Number(overlapHours);
  const valid = metadata.trim() !== '' && Number.isInteger(hours) && hours >= 0 && hours <= 720;
  return (
    <form
      className="dash-stack"
      aria-label="Rotate certificates"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit({ idp_metadata_xml: metadata.trim(), certificate_overlap_seconds: hours * 3600 });
        setMetadata('');
      }}
    >
      <XmlField label="New IdP metadata XML" value={metadata} onChange={setMetadata} />
      <div className="dash-row dash-toolbar">
        <TextField
          label="Old certificates accepted for (hours)"
          name="overlap-hours"
          inputMode="numeric"
          value={overlapHours}
          onChange={(event) => setOverlapHours(event.target.value)}
        />
        <button type="submit" disabled={busy || !valid}>
          Rotate certificates
        </button>
      </div>
    </form>
  );
}
