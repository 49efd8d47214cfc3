import type { Schema } from '@gatehouse/protocol/operation-types';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { CopyButton } from '../copy-button.tsx';
import { formatDate, Section, TextField } from '../ui.tsx';
import { openSetupSession, setupApi } from './sso-setup-session.ts';

type Api = ReturnType<typeof setupApi>;
type Overview = Schema<'SsoSetupOverview'>;

/**
 * The self-serve setup page a team's IT admin opens from the link the project owner gave them (no account): the
 * team's SAML or OpenID connection, its email domains with their TXT records, and a SCIM directory.
 */
export function SsoSetupPage() {
  const [api, setApi] = useState<Api | null>(null);
  const [overview, setOverview] = useState<Overview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [scimToken, setScimToken] = useState<Schema<'ScimDirectoryWithToken'> | null>(null);

  const run = useCallback(
    async (work: () => Promise<unknown>, current: Api | null = api) => {
      setError(null);
      try {
        await work();
        if (current) setOverview(await current.overview());
      } catch (failure) {
        setError(failure instanceof Error ? failure.message : String(failure));
      }
    },
    [api],
  );

  useEffect(() => {
    void (async () => {
      try {
        const opened = setupApi(await openSetupSession());
        setApi(opened);
        setOverview(await opened.overview());
      } catch (failure) {
        setError(failure instanceof Error ? failure.message : String(failure));
      }
    })();
  }, []);

  return (
    <main className="gh dash dash-main" id="main">
      <h1>Single sign-on setup</h1>
      {error ? (
        <p role="alert" className="dash-error">
          {error}
        </p>
      ) : null}
      {overview && api ? (
        <>
          <p>
            Team <strong>{overview.team_display_name}</strong> of {overview.project_display_name}. This session ends{' '}
            {formatDate(overview.expires_at_millis)}.
          </p>
          <ConnectionSection overview={overview} onCreate={(body) => run(() => api.createConnection(body))} />
          <DomainSection
            overview={overview}
            onAdd={(domain) => run(() => api.createDomain(domain))}
            onVerify={(id) => run(() => api.verifyDomain(id))}
          />
          <Section title="SCIM provisioning" description="Your identity provider creates and removes the team's members.">
            {overview.scim_directories.map((directory) => (
              <p key={directory.id}>
                <code>{directory.scim_base_url}</code>
              </p>
            ))}
            <button type="button" onClick={() => run(async () => setScimToken(await api.createScimDirectory()))}>
              Create SCIM directory
            </button>
            {scimToken ? (
              <dl className="dash-facts" aria-label="New SCIM token">
                <dt>SCIM base URL</dt>
                <dd>
                  <code>{scimToken.scim_base_url}</code>
                </dd>
                <dt>Bearer token (shown once)</dt>
                <dd>
                  <code>{scimToken.token}</code> <CopyButton value={scimToken.token} label="Copy the SCIM token" />
                </dd>
              </dl>
            ) : null}
          </Section>
        </>
      ) : null}
    </main>
  );
}

function ConnectionSection({ overview, onCreate }: { overview: Overview; onCreate: (body: Schema<'SsoSetupConnectionCreate'>) => void }) {
  const [protocol, setProtocol] = useState<'saml' | 'oidc'>('saml');
  // Most IdPs publish their metadata at a URL (the server reads it); the XML itself is the fallback.
  const [metadataSource, setMetadataSource] = useState<'url' | 'xml'>('url');
  const [metadataUrl, setMetadataUrl] = useState('');
  const [metadata, setMetadata] = useState('');
  const [issuer, setIssuer] = useState('');
  const [clientId, setClientId] = useState('');
  const [clientSecret, setClientSecret] = useState('');
  function submit(event: FormEvent) {
    event.preventDefault();
    const display_name = `${overview.team_display_name} ${protocol === 'saml' ? 'SAML' : 'OpenID'}`;
    onCreate(
      protocol === 'saml'
        ? {
            protocol,
            display_name,
            saml: metadataSource === 'url' ? { idp_metadata_url: metadataUrl.trim() } : { idp_metadata_xml: metadata },
          }
        : { protocol, display_name, oidc: { issuer, client_id: clientId, client_secret: clientSecret } },
    );
  }
  return (
    <Section title="SSO connection" description="Connect your identity provider (SAML 2.0 or OpenID Connect).">
      {overview.connections.map((connection) => (
        <dl key={connection.id} className="dash-facts" aria-label={`Connection ${connection.display_name}`}>
          <dt>Connection</dt>
          <dd>{connection.display_name}</dd>
          {connection.saml ? (
            <>
              <dt>Service provider metadata</dt>
              <dd>
                <code>{connection.saml.sp_metadata_url}</code>
              </dd>
              <dt>ACS URL</dt>
              <dd>
                <code>{connection.saml.sp_acs_url}</code>
              </dd>
            </>
          ) : null}
        </dl>
      ))}
      <form onSubmit={submit}>
        <label>
          Protocol{' '}
          <select name="protocol" value={protocol} onChange={(event) => setProtocol(event.target.value as 'saml' | 'oidc')}>
            <option value="saml">SAML 2.0</option>
            <option value="oidc">OpenID Connect</option>
          </select>
        </label>
        {protocol === 'saml' ? (
          <>
            <label>
              Metadata from{' '}
              <select
                name="metadata-source"
                value={metadataSource}
                onChange={(event) => setMetadataSource(event.target.value as 'url' | 'xml')}
              >
                <option value="url">A URL</option>
                <option value="xml">XML</option>
              </select>
            </label>
            {metadataSource === 'url' ? (
              <TextField
                label="Identity provider metadata URL"
                name="idp-metadata-url"
                type="url"
                placeholder="https://idp.example.com/metadata"
                value={metadataUrl}
                onChange={(event) => setMetadataUrl(event.target.value)}
              />
            ) : (
              <div className="dash-field">
                <label htmlFor="idp-metadata">Identity provider metadata (XML)</label>
                <textarea
                  id="idp-metadata"
                  name="idp-metadata"
                  rows={6}
                  value={metadata}
                  onChange={(event) => setMetadata(event.target.value)}
                />
              </div>
            )}
          </>
        ) : (
          <>
            <TextField label="Issuer" name="issuer" value={issuer} onChange={(event) => setIssuer(event.target.value)} />
            <TextField label="Client id" name="client-id" value={clientId} onChange={(event) => setClientId(event.target.value)} />
            <TextField
              label="Client secret"
              name="client-secret"
              type="password"
              value={clientSecret}
              onChange={(event) => setClientSecret(event.target.value)}
            />
          </>
        )}
        <button type="submit">Save connection</button>
      </form>
    </Section>
  );
}

function DomainSection(props: { overview: Overview; onAdd: (domain: string) => void; onVerify: (id: string) => void }) {
  const [domain, setDomain] = useState('');
  return (
    <Section title="Email domains" description="Publish the TXT record, then verify: people with these addresses sign in through your IdP.">
      <ul className="dash-list" aria-label="Domains">
        {props.overview.domains.map((row) => (
          <li key={row.id}>
            <span>
              <strong>{row.domain}</strong> {row.verified ? '(verified)' : '(not verified)'} TXT <code>{row.verification_record_name}</code>{' '}
              <code>{row.verification_record_value}</code>
            </span>
            {row.verified ? null : (
              <button type="button" onClick={() => props.onVerify(row.id)}>
                Verify {row.domain}
              </button>
            )}
          </li>
        ))}
      </ul>
      <form
        className="dash-row dash-toolbar"
        onSubmit={(event) => {
          event.preventDefault();
          props.onAdd(domain.trim());
          setDomain('');
        }}
      >
        <TextField
          label="Domain"
          name="domain"
          placeholder="example.com"
          value={domain}
          onChange={(event) => setDomain(event.target.value)}
        />
        <button type="submit">Add domain</button>
      </form>
    </Section>
  );
}
