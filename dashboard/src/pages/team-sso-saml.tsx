import type { Schema } from '@gatehouse/protocol/operation-types';
import { useId, useState } from 'react';
import { CopyButton } from '../copy-button.tsx';
import { useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { formatDate, TextField } from '../ui.tsx';

type SsoConnection = Schema<'SsoConnection'>;
export type MetadataSource = 'url' | 'xml';

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

/**
 * The IdP's metadata, by URL (the server fetches it when saved: a rotated certificate is picked up by saving the
 * URL again) or pasted as XML; exactly one of them is sent, as the API requires.
 */
export function MetadataFields(props: {
  source: MetadataSource;
  onSource: (source: MetadataSource) => void;
  value: string;
  onChange: (value: string) => void;
  renewal?: boolean;
}) {
  const { t } = useDashboardTranslation();
  const id = useId();
  return (
    <>
      <div className="dash-field">
        <label htmlFor={id}>{props.renewal ? t('sso.newMetadataSource') : t('sso.metadataSource')}</label>
        <select id={id} value={props.source} onChange={(event) => props.onSource(event.target.value as MetadataSource)}>
          <option value="url">{t('sso.metadataFromUrl')}</option>
          <option value="xml">{t('sso.metadataFromXml')}</option>
        </select>
      </div>
      {props.source === 'url' ? (
        <TextField
          label={props.renewal ? t('sso.newMetadataUrl') : t('sso.metadataUrl')}
          name={props.renewal ? 'sso-new-metadata-url' : 'sso-metadata-url'}
          type="url"
          value={props.value}
          onChange={(event) => props.onChange(event.target.value)}
        />
      ) : (
        <XmlField label={props.renewal ? t('sso.newMetadataXml') : t('sso.metadataXml')} value={props.value} onChange={props.onChange} />
      )}
    </>
  );
}

/** The SAML settings input for the metadata as given. */
export const samlMetadataInput = (source: MetadataSource, value: string): Schema<'SsoSamlSettingsInput'> =>
  source === 'url' ? { idp_metadata_url: value.trim() } : { idp_metadata_xml: value.trim() };

export function SamlFacts({ connection, saml }: { connection: SsoConnection; saml: NonNullable<SsoConnection['saml']> }) {
  const { t } = useDashboardTranslation();
  return (
    <dl className="dash-facts">
      <dt>{t('sso.idpEntityId')}</dt>
      <dd>{saml.idp_entity_id}</dd>
      <dt>{t('sso.acsUrl')}</dt>
      <dd>
        <code>{saml.sp_acs_url}</code> <CopyButton value={saml.sp_acs_url} label={t('sso.copyAcsUrl')} />
      </dd>
      <dt>{t('sso.spEntityId')}</dt>
      <dd>
        <code>{saml.sp_entity_id}</code>
      </dd>
      <dt>{t('sso.spMetadata')}</dt>
      <dd>
        <a href={saml.sp_metadata_url} download={`sp-metadata-${connection.id}.xml`}>
          {t('sso.downloadSpMetadata')}
        </a>
      </dd>
      <dt>{t('sso.certificates')}</dt>
      <dd>
        <ul className="dash-list" aria-label={t('sso.certificatesOf', { name: connection.display_name })}>
          {saml.certificates.map((certificate) => (
            <li key={certificate.fingerprint_sha256}>
              <code>{certificate.fingerprint_sha256.slice(0, 16)}…</code>{' '}
              <span className="dash-muted">
                {certificate.retires_at ? t('sso.retires', { date: formatDate(Date.parse(certificate.retires_at)) }) : t('sso.current')}
              </span>
            </li>
          ))}
        </ul>
      </dd>
    </dl>
  );
}

/** New IdP metadata: its certificates become current, the replaced ones stay accepted for the overlap. */
export function RotateCertificates({ onSubmit, busy }: { onSubmit: (saml: Schema<'SsoSamlSettingsInput'>) => void; busy: boolean }) {
  const { t } = useDashboardTranslation();
  const [source, setSource] = useState<MetadataSource>('xml');
  const [metadata, setMetadata] = useState('');
  const [overlapHours, setOverlapHours] = useState('24');
  const hours = Number(overlapHours);
  const valid = metadata.trim() !== '' && Number.isInteger(hours) && hours >= 0 && hours <= 720;
  return (
    <form
      className="dash-stack"
      aria-label={t('sso.rotate')}
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit({ ...samlMetadataInput(source, metadata), certificate_overlap_seconds: hours * 3600 });
        setMetadata('');
      }}
    >
      <MetadataFields source={source} onSource={setSource} value={metadata} onChange={setMetadata} renewal />
      <div className="dash-row dash-toolbar">
        <TextField
          label={t('sso.overlapHours')}
          name="overlap-hours"
          inputMode="numeric"
          value={overlapHours}
          onChange={(event) => setOverlapHours(event.target.value)}
        />
        <button type="submit" disabled={busy || !valid}>
          {t('sso.rotate')}
        </button>
      </div>
    </form>
  );
}
