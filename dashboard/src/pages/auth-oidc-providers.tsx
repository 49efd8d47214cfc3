import { api, useGatehouse } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { useProjectScope } from '../shell-context.ts';
import { ConfirmDialog, ErrorMessage, Section, TextField } from '../ui.tsx';

/** A `type: oidc` entry of `auth.oauth.providers` as the rendered config has it (the server checks it when saved). */
type OidcProviderEntry = {
  type: 'oidc';
  issuer?: string;
  displayName?: string;
  clientId?: string;
  clientSecret?: string;
  scopes?: string;
} & Record<string, unknown>;
type RenderedConfig = { auth?: { oauth?: { providers?: Record<string, { type?: string } & Record<string, unknown>> } } };
type Fields = { key: string; displayName: string; issuer: string; clientId: string; clientSecret: string; scopes: string };

const emptyFields: Fields = { key: 'oidc-', displayName: '', issuer: '', clientId: '', clientSecret: '', scopes: '' };
const providersPath = 'auth.oauth.providers';

const fieldsOf = (key: string, entry: OidcProviderEntry): Fields => ({
  key,
  displayName: entry.displayName ?? '',
  issuer: entry.issuer ?? '',
  clientId: entry.clientId ?? '',
  clientSecret: entry.clientSecret ?? '',
  scopes: entry.scopes ?? '',
});

/** The entry to save: what the form says over what was there (`allowSignIn` and the like kept); blank scopes mean the default. */
function entryOf(fields: Fields, previous: OidcProviderEntry | undefined): OidcProviderEntry {
  const { scopes: _scopes, ...kept } = previous ?? { type: 'oidc', allowSignIn: true, allowConnectedAccounts: true };
  const scopes = fields.scopes.trim();
  return {
    ...kept,
    type: 'oidc',
    issuer: fields.issuer.trim(),
    displayName: fields.displayName.trim(),
    clientId: fields.clientId.trim(),
    clientSecret: fields.clientSecret.trim(),
    ...(scopes ? { scopes } : {}),
  };
}

/** The stored override without anything at or under `path` (dotted keys, or nested in an object value above it). */
function overrideWithout(override: Record<string, unknown>, path: string): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(override)) {
    if (key === path || key.startsWith(`${path}.`)) continue;
    if (path.startsWith(`${key}.`) && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      result[key] = overrideWithout(value as Record<string, unknown>, path.slice(key.length + 1));
    } else result[key] = value;
  }
  return result;
}

/**
 * The project's own OpenID Connect providers (`auth.oauth.providers.oidc-<slug>`, a Gatehouse capability):
 * listed from the rendered config, added and edited through the config override (the server reads the
 * issuer's discovery document before it saves, and names what is wrong), removed from the project's override.
 */
export function OidcProviders() {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const { t } = useDashboardTranslation();
  const renderedKey = api.getGetProjectConfigQueryKey();
  const config = api.useGetProjectConfig({ request, query: { queryKey: renderedKey } });
  const onSaved = (rendered: { config_string: string }) => {
    queryClient.setQueryData(renderedKey, rendered);
    void queryClient.invalidateQueries({ queryKey: api.getGetProjectConfigOverrideQueryKey('project') });
  };
  const rendered = config.data ? (JSON.parse(config.data.config_string) as RenderedConfig) : null;
  const providers = Object.entries(rendered?.auth?.oauth?.providers ?? {}).filter(
    (entry): entry is [string, OidcProviderEntry] => entry[1].type === 'oidc',
  );
  return (
    <Section title={t('auth.oidc.title')} description={t('auth.oidc.description')}>
      <ErrorMessage error={config.error} />
      {rendered && providers.length === 0 ? <p className="dash-muted">{t('auth.oidc.none')}</p> : null}
      {providers.map(([key, entry]) => (
        <OidcProviderCard key={key} configKey={key} entry={entry} onSaved={onSaved} />
      ))}
      {rendered ? <NewOidcProvider taken={providers.map(([key]) => key)} onSaved={onSaved} /> : null}
    </Section>
  );
}

function useSaveProvider(onSaved: (rendered: { config_string: string }) => void) {
  const { request } = useProjectScope();
  const save = api.useUpdateProjectConfigOverride({ request, mutation: { onSuccess: onSaved } });
  const mutate = (fields: Fields, previous: OidcProviderEntry | undefined, onSuccess?: () => void) =>
    save.mutate(
      {
        level: 'project',
        data: { config_override_string: JSON.stringify({ [`${providersPath}.${fields.key.trim()}`]: entryOf(fields, previous) }) },
      },
      { onSuccess },
    );
  return { mutate, error: save.error, isPending: save.isPending, reset: save.reset };
}

function NewOidcProvider({ taken, onSaved }: { taken: string[]; onSaved: (rendered: { config_string: string }) => void }) {
  const save = useSaveProvider(onSaved);
  const [fields, setFields] = useState(emptyFields);
  const [added, setAdded] = useState<string | null>(null);
  const { t } = useDashboardTranslation();
  const duplicate = taken.includes(fields.key.trim());
  return (
    <section className="dash-card dash-stack" aria-label={t('auth.oidc.new')}>
      <OidcProviderFields
        label={t('auth.oidc.new')}
        idPrefix="new-oidc"
        fields={fields}
        keyEditable
        onChange={(next) => {
          setAdded(null);
          setFields(next);
        }}
        onSubmit={() =>
          save.mutate(fields, undefined, () => {
            setAdded(fields.displayName.trim());
            setFields(emptyFields);
          })
        }
        submitLabel={save.isPending ? t('auth.saving') : t('auth.oidc.add')}
        busy={save.isPending || duplicate}
      >
        {duplicate ? <p className="dash-muted">{t('auth.oidc.keyTaken', { key: fields.key.trim() })}</p> : null}
        <ErrorMessage error={save.error} />
        {added ? (
          <p role="status" className="dash-success">
            {t('auth.oidc.added', { provider: added })}
          </p>
        ) : null}
      </OidcProviderFields>
    </section>
  );
}

function OidcProviderCard({
  configKey,
  entry,
  onSaved,
}: {
  configKey: string;
  entry: OidcProviderEntry;
  onSaved: (rendered: { config_string: string }) => void;
}) {
  const { request } = useProjectScope();
  const { t } = useDashboardTranslation();
  const { baseUrl } = useGatehouse();
  const save = useSaveProvider(onSaved);
  const [fields, setFields] = useState(() => fieldsOf(configKey, entry));
  const [saved, setSaved] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const override = api.useGetProjectConfigOverride('project', {
    request,
    query: { queryKey: api.getGetProjectConfigOverrideQueryKey('project'), enabled: confirming },
  });
  const replace = api.useSetProjectConfigOverride({ request, mutation: { onSuccess: onSaved } });
  const name = entry.displayName ?? configKey;

  function remove() {
    if (!override.data) return;
    const stored = JSON.parse(override.data.config_string) as Record<string, unknown>;
    replace.mutate({ level: 'project', data: { config_string: JSON.stringify(overrideWithout(stored, `${providersPath}.${configKey}`)) } });
  }

  return (
    <section className="dash-card dash-stack" aria-label={t('auth.oidc.provider', { provider: name })}>
      <OidcProviderFields
        label={t('auth.oidc.provider', { provider: name })}
        idPrefix={configKey}
        fields={fields}
        onChange={(next) => {
          setSaved(false);
          setFields(next);
        }}
        onSubmit={() => save.mutate(fields, entry, () => setSaved(true))}
        submitLabel={save.isPending ? t('auth.saving') : t('auth.oidc.save', { provider: name })}
        busy={save.isPending}
      >
        <p className="dash-muted">
          {t('auth.oidc.redirectUri')} <code>{`${baseUrl}/api/v1/auth/oauth/callback/${configKey}`}</code>
        </p>
        <ErrorMessage error={save.error} />
        {saved ? (
          <p role="status" className="dash-success">
            {t('auth.oidc.saved', { provider: name })}
          </p>
        ) : null}
      </OidcProviderFields>
      <div>
        <button type="button" className="gh-danger" onClick={() => setConfirming(true)}>
          {t('auth.oidc.remove', { provider: name })}
        </button>
      </div>
      <ConfirmDialog
        open={confirming}
        title={t('auth.oidc.removeTitle', { provider: name })}
        confirmLabel={t('auth.oidc.removeConfirm')}
        busy={replace.isPending}
        canConfirm={!!override.data}
        onClose={() => setConfirming(false)}
        onConfirm={remove}
      >
        <p>{t('auth.oidc.removeExplained')}</p>
        <ErrorMessage error={replace.error ?? override.error} />
      </ConfirmDialog>
    </section>
  );
}

function OidcProviderFields(props: {
  label: string;
  idPrefix: string;
  fields: Fields;
  keyEditable?: boolean;
  onChange: (fields: Fields) => void;
  onSubmit: () => void;
  submitLabel: string;
  busy: boolean;
  children?: ReactNode;
}) {
  const { fields, onChange, idPrefix } = props;
  const { t } = useDashboardTranslation();
  const set = (field: keyof Fields) => (event: { target: { value: string } }) => onChange({ ...fields, [field]: event.target.value });
  const filled = fields.key.trim() !== '' && fields.displayName.trim() !== '' && fields.issuer.trim() !== '';
  function submit(event: FormEvent) {
    event.preventDefault();
    props.onSubmit();
  }
  return (
    <form className="dash-stack" onSubmit={submit}>
      <h3>{props.label}</h3>
      <div className="dash-grid-2">
        {props.keyEditable ? (
          <TextField label={t('auth.oidc.key')} name={`${idPrefix}-key`} value={fields.key} onChange={set('key')} />
        ) : (
          <p>
            {t('auth.oidc.key')} <code>{fields.key}</code>
          </p>
        )}
        <TextField label={t('auth.oidc.displayName')} name={`${idPrefix}-name`} value={fields.displayName} onChange={set('displayName')} />
        <TextField label={t('auth.oidc.issuer')} name={`${idPrefix}-issuer`} type="url" value={fields.issuer} onChange={set('issuer')} />
        <TextField label={t('auth.oidc.scopes')} name={`${idPrefix}-scopes`} value={fields.scopes} onChange={set('scopes')} />
        <TextField label={t('auth.oidc.clientId')} name={`${idPrefix}-client-id`} value={fields.clientId} onChange={set('clientId')} />
        <TextField
          label={t('auth.oidc.clientSecret')}
          name={`${idPrefix}-client-secret`}
          type="password"
          autoComplete="off"
          value={fields.clientSecret}
          onChange={set('clientSecret')}
        />
      </div>
      <div>
        <button type="submit" className="gh-primary" disabled={props.busy || !filled}>
          {props.submitLabel}
        </button>
      </div>
      {props.children}
    </form>
  );
}
