import { api } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useProjectScope } from '../shell-context.ts';
import { useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { ConfirmDialog, ErrorMessage, PageHeader, Section } from '../ui.tsx';

type Stores = Record<string, { displayName: string }>;
type RenderedConfig = { config_string: string };

/** Store ids name a URL segment (`/data-vault/stores/<id>/get`) and a config key: letters, digits, `-` and `_`. */
const storeIdPattern = /^[A-Za-z0-9_-]{1,63}$/;

const storesOf = (config: RenderedConfig | undefined): Stores =>
  config ? ((JSON.parse(config.config_string) as { dataVault?: { stores?: Stores } }).dataVault?.stores ?? {}) : {};

/**
 * Writes the whole `dataVault.stores` object as one dotted override key (a removed store disappears;
 * adding and renaming keep the others as they are). The page shows the new stores at once and puts
 * the previous ones back when the server refuses.
 */
function useSaveStores() {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const key = api.getGetProjectConfigQueryKey();
  return api.useUpdateProjectConfigOverride({
    request,
    mutation: {
      onMutate: async ({ data }) => {
        await queryClient.cancelQueries({ queryKey: key });
        const previous = queryClient.getQueryData<RenderedConfig>(key);
        if (previous) {
          const rendered = JSON.parse(previous.config_string) as { dataVault: { stores: Stores } };
          const stores = (JSON.parse(data.config_override_string) as { 'dataVault.stores': Stores })['dataVault.stores'];
          queryClient.setQueryData<RenderedConfig>(key, {
            ...previous,
            config_string: JSON.stringify({ ...rendered, dataVault: { ...rendered.dataVault, stores } }),
          });
        }
        return { previous };
      },
      onError: (_error, _variables, context) => {
        if (context?.previous) queryClient.setQueryData(key, context.previous);
      },
      onSuccess: (rendered) => queryClient.setQueryData(key, rendered),
    },
  });
}

/**
 * The data vault's stores, declared in the project config (`dataVault.stores.<id>.displayName`):
 * listed, added, renamed and removed. Values are encrypted by the server SDK with the caller's
 * secret before they leave the app, so the dashboard never lists them.
 */
export function DataVaultPage() {
  const { request } = useProjectScope();
  const config = api.useGetProjectConfigSuspense({ request, query: { queryKey: api.getGetProjectConfigQueryKey() } });
  const save = useSaveStores();
  const { t } = useDashboardTranslation();
  const stores = storesOf(config.data);
  const ids = Object.keys(stores).sort();
  const write = (next: Stores) =>
    save.mutateAsync({ level: 'project', data: { config_override_string: JSON.stringify({ 'dataVault.stores': next }) } });

  return (
    <>
      <PageHeader title={t('nav.dataVault')} />
      <Section title={t('dataVault.addTitle')} description={t('dataVault.addDescription')}>
        <AddStore existing={ids} onAdd={(id, displayName) => write({ ...stores, [id]: { displayName } })} busy={save.isPending} />
      </Section>
      <Section title={t('dataVault.stores')}>
        {ids.length === 0 ? <p className="dash-muted">{t('dataVault.none')}</p> : null}
        <ErrorMessage error={save.error} />
        <ul className="dash-list" aria-label={t('dataVault.stores')}>
          {ids.map((id) => (
            <StoreRow
              key={id}
              id={id}
              displayName={stores[id]?.displayName ?? id}
              busy={save.isPending}
              onRename={(displayName) => write({ ...stores, [id]: { displayName } })}
              onRemove={() => write(Object.fromEntries(Object.entries(stores).filter(([other]) => other !== id)))}
            />
          ))}
        </ul>
      </Section>
      <Section title={t('dataVault.useTitle')}>
        <pre className="dash-code">
          <code>{`const store = serverApp.dataVault.getStore('${ids[0] ?? 'tax-ids'}');
await store.setValue(userId, value, { secret: process.env.VAULT_SECRET });
const value = await store.getValue(userId, { secret: process.env.VAULT_SECRET }); // null when missing`}</code>
        </pre>
      </Section>
    </>
  );
}

function AddStore({
  existing,
  onAdd,
  busy,
}: {
  existing: string[];
  onAdd: (id: string, displayName: string) => Promise<unknown>;
  busy: boolean;
}) {
  const [id, setId] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const fieldId = useId();
  const { t } = useDashboardTranslation();
  function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = id.trim();
    if (!storeIdPattern.test(trimmed)) return setProblem(t('dataVault.idInvalid'));
    if (existing.includes(trimmed)) return setProblem(t('dataVault.idExists', { id: trimmed }));
    setProblem(null);
    onAdd(trimmed, displayName.trim() || trimmed).then(
      () => {
        setId('');
        setDisplayName('');
      },
      () => {},
    );
  }
  return (
    <form className="dash-form" onSubmit={submit} noValidate>
      <div className="dash-grid-2">
        <div className="dash-field">
          <label htmlFor={`${fieldId}-id`}>{t('dataVault.storeId')}</label>
          <input
            id={`${fieldId}-id`}
            name="store_id"
            value={id}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${fieldId}-problem` : `${fieldId}-hint`}
            onChange={(event) => {
              setId(event.target.value);
              setProblem(null);
            }}
          />
          {problem ? (
            <span id={`${fieldId}-problem`} className="dash-error" role="alert">
              {problem}
            </span>
          ) : (
            <span id={`${fieldId}-hint`} className="dash-muted">
              {t('dataVault.idHint')}
            </span>
          )}
        </div>
        <div className="dash-field">
          <label htmlFor={`${fieldId}-name`}>{t('dataVault.displayName')}</label>
          <input id={`${fieldId}-name`} name="display_name" value={displayName} onChange={(event) => setDisplayName(event.target.value)} />
        </div>
      </div>
      <div>
        <button type="submit" className="gh-primary" disabled={busy || !id.trim()}>
          {t('dataVault.add')}
        </button>
      </div>
    </form>
  );
}

function StoreRow(props: {
  id: string;
  displayName: string;
  busy: boolean;
  onRename: (displayName: string) => Promise<unknown>;
  onRemove: () => Promise<unknown>;
}) {
  const [name, setName] = useState(props.displayName);
  const [confirming, setConfirming] = useState(false);
  const inputId = useId();
  const { t } = useDashboardTranslation();
  const changed = name.trim() !== '' && name.trim() !== props.displayName;
  return (
    <li>
      <form
        className="dash-row"
        onSubmit={(event) => {
          event.preventDefault();
          if (changed) props.onRename(name.trim()).catch(() => setName(props.displayName));
        }}
      >
        <code>{props.id}</code>
        <label htmlFor={inputId} className="dash-visually-hidden">
          {t('dataVault.displayNameOf', { id: props.id })}
        </label>
        <input id={inputId} value={name} onChange={(event) => setName(event.target.value)} />
        <button type="submit" disabled={!changed || props.busy} aria-label={t('dataVault.renameNamed', { id: props.id })}>
          {t('dataVault.rename')}
        </button>
      </form>
      <button
        type="button"
        className="gh-danger"
        onClick={() => setConfirming(true)}
        aria-label={t('dataVault.removeNamed', { id: props.id })}
      >
        {t('dataVault.remove')}
      </button>
      <ConfirmDialog
        open={confirming}
        title={t('dataVault.removeTitle', { id: props.id })}
        confirmLabel={t('dataVault.removeConfirm')}
        busy={props.busy}
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          props.onRemove().then(
            () => setConfirming(false),
            () => setConfirming(false),
          )
        }
      >
        <p>{t('dataVault.removeExplained', { id: props.id })}</p>
      </ConfirmDialog>
    </li>
  );
}
