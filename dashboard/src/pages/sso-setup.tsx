import type { Schema } from '@gatehouse/protocol/operation-types';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { CopyButton } from '../copy-button.tsx';
import { type Translate, useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { errorText, formatDate, Section, TextField } from '../ui.tsx';
import { openSetupSession, SetupError, setupApi } from './sso-setup-session.ts';

type Api = ReturnType<typeof setupApi>;
type Overview = Schema<'SsoSetupOverview'>;

/** What the admin can do about a link that no longer opens, in their language. */
const linkRefusals: Record<string, (t: Translate) => string> = {
  SSO_SETUP_LINK_EXPIRED: (t) => t('ssoSetup.linkExpired'),
  SSO_SETUP_LINK_REVOKED: (t) => t('ssoSetup.linkRevoked'),
  SSO_SETUP_LINK_ALREADY_USED: (t) => t('ssoSetup.linkAlreadyUsed'),
  SSO_SETUP_LINK_NOT_FOUND: (t) => t('ssoSetup.linkNotFound'),
  SSO_SETUP_SESSION_INVALID: (t) => t('ssoSetup.sessionInvalid'),
};

const failureText = (failure: unknown, t: Translate): string => {
  const link = failure instanceof SetupError ? linkRefusals[failure.code] : undefined;
  return link ? link(t) : errorText(failure, t);
};

/**
 * The self-serve setup page a team's IT admin opens from the link the project owner gave them (no account): the
 * team's SAML or OpenID connection, its email domains with their TXT records, and a SCIM directory.
 */
export function SsoSetupPage() {
  const [api, setApi] = useState<Api | null>(null);
  const [overview, setOverview] = useState<Overview | null>(null);
  const [error, setError] = useState<unknown>(null);
  const { t } = useDashboardTranslation();
  const [scimToken, setScimToken] = useState<Schema<'ScimDirectoryWithToken'> | null>(null);

  const run = useCallback(
    async (work: () => Promise<unknown>, current: Api | null = api) => {
      setError(null);
      try {
        await work();
        if (current) setOverview(await current.overview());
      } catch (failure) {
        setError(failure);
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
        setError(failure);
      }
    })();
  }, []);

  return (
    <main className="gh dash dash-main" id="main">
      <h1>{t('ssoSetup.title')}</h1>
      {error ? (
        <p role="alert" className="dash-error">
          {failureText(error, t)}
        </p>
      ) : null}
      {overview && api ? (
        <>
          <p>
            {t('ssoSetup.teamOf', {
              team: overview.team_display_name,
              project: overview.project_display_name,
              date: formatDate(overview.expires_at_millis),
            })}
          </p>
          <ConnectionSection overview={overview} onCreate={(body) => run(() => api.createConnection(body))} />
          <DomainSection
            overview={overview}
            onAdd={(domain) => run(() => api.createDomain(domain))}
            onVerify={(id) => run(() => api.verifyDomain(id))}
          />
          <Section title={t('scim.title')} description={t('ssoSetup.scimDescription')}>
            {overview.scim_directories.map((directory) => (
              <p key={directory.id}>
                <code>{directory.scim_base_url}</code>
              </p>
            ))}
            <button type="button" onClick={() => run(async () => setScimToken(await api.createScimDirectory()))}>
              {t('ssoSetup.createScim')}
            </button>
            {scimToken ? (
              <dl className="dash-facts" aria-label={t('scim.newToken')}>
                <dt>{t('scim.baseUrl')}</dt>
                <dd>
                  <code>{scimToken.scim_base_url}</code>
                </dd>
                <dt>{t('ssoSetup.bearerShownOnce')}</dt>
                <dd>
                  <code>{scimToken.token}</code> <CopyButton value={scimToken.token} label={t('scim.copyToken')} />
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
  const { t } = useDashboardTranslation();
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
    <Section title={t('ssoSetup.connectionTitle')} description={t('ssoSetup.connectionDescription')}>
      {overview.connections.map((connection) => (
        <dl key={connection.id} className="dash-facts" aria-label={t('ssoSetup.connectionOf', { name: connection.display_name })}>
          <dt>{t('ssoSetup.connection')}</dt>
          <dd>{connection.display_name}</dd>
          {connection.saml ? (
            <>
              <dt>{t('ssoSetup.spMetadata')}</dt>
              <dd>
                <code>{connection.saml.sp_metadata_url}</code>
              </dd>
              <dt>{t('ssoSetup.acsUrl')}</dt>
              <dd>
                <code>{connection.saml.sp_acs_url}</code>
              </dd>
            </>
          ) : null}
        </dl>
      ))}
      <form onSubmit={submit}>
        <label>
          {t('sso.protocol')}{' '}
          <select name="protocol" value={protocol} onChange={(event) => setProtocol(event.target.value as 'saml' | 'oidc')}>
            <option value="saml">{t('sso.saml')}</option>
            <option value="oidc">{t('sso.oidc')}</option>
          </select>
        </label>
        {protocol === 'saml' ? (
          <>
            <label>
              {t('ssoSetup.metadataFrom')}{' '}
              <select
                name="metadata-source"
                value={metadataSource}
                onChange={(event) => setMetadataSource(event.target.value as 'url' | 'xml')}
              >
                <option value="url">{t('ssoSetup.aUrl')}</option>
                <option value="xml">{t('ssoSetup.xml')}</option>
              </select>
            </label>
            {metadataSource === 'url' ? (
              <TextField
                label={t('ssoSetup.metadataUrl')}
                name="idp-metadata-url"
                type="url"
                placeholder="https://idp.example.com/metadata"
                value={metadataUrl}
                onChange={(event) => setMetadataUrl(event.target.value)}
              />
            ) : (
              <div className="dash-field">
                <label htmlFor="idp-metadata">{t('ssoSetup.metadataXml')}</label>
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
            <TextField label={t('sso.issuer')} name="issuer" value={issuer} onChange={(event) => setIssuer(event.target.value)} />
            <TextField
              label={t('ssoSetup.clientId')}
              name="client-id"
              value={clientId}
              onChange={(event) => setClientId(event.target.value)}
            />
            <TextField
              label={t('sso.clientSecret')}
              name="client-secret"
              type="password"
              value={clientSecret}
              onChange={(event) => setClientSecret(event.target.value)}
            />
          </>
        )}
        <button type="submit">{t('ssoSetup.saveConnection')}</button>
      </form>
    </Section>
  );
}

function DomainSection(props: { overview: Overview; onAdd: (domain: string) => void; onVerify: (id: string) => void }) {
  const [domain, setDomain] = useState('');
  const { t } = useDashboardTranslation();
  return (
    <Section title={t('ssoSetup.domainsTitle')} description={t('ssoSetup.domainsDescription')}>
      <ul className="dash-list" aria-label={t('ssoSetup.domains')}>
        {props.overview.domains.map((row) => (
          <li key={row.id}>
            <span>
              <strong>{row.domain}</strong> {row.verified ? t('ssoSetup.verified') : t('ssoSetup.notVerified')} {t('ssoSetup.txt')}{' '}
              <code>{row.verification_record_name}</code> <code>{row.verification_record_value}</code>
            </span>
            {row.verified ? null : (
              <button type="button" onClick={() => props.onVerify(row.id)}>
                {t('ssoSetup.verify', { domain: row.domain })}
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
          label={t('ssoSetup.domain')}
          name="domain"
          placeholder="example.com"
          value={domain}
          onChange={(event) => setDomain(event.target.value)}
        />
        <button type="submit">{t('ssoSetup.addDomain')}</button>
      </form>
    </Section>
  );
}
