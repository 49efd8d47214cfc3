import { api } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useProjectScope } from '../shell-context.ts';
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
  const stores = storesOf(config.data);
  const ids = Object.keys(stores).sort();
  const write = (next: Stores) =>
    save.mutateAsync({ level: 'project', data: { config_override_string: JSON.stringify({ 'dataVault.stores': next }) } });

  return (
    <>
      <PageHeader title="Data vault" />
      <Section
        title="Add a store"
        description="A store keeps values by key, encrypted twice: by the server SDK with your secret before they leave your server (PBKDF2 + AES-GCM), and again at rest with a key derived from the platform's secret."
      >
        <AddStore existing={ids} onAdd={(id, displayName) => write({ ...stores, [id]: { displayName } })} busy={save.isPending} />
      </Section>
      <Section title="Stores">
        {ids.length === 0 ? <p className="dash-muted">No stores yet.</p> : null}
        <ErrorMessage error={save.error} />
        <ul className="dash-list" aria-label="Stores">
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
      <Section title="Use a store">
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
  function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = id.trim();
    if (!storeIdPattern.test(trimmed)) return setProblem('Use 1 to 63 letters, digits, - or _.');
    if (existing.includes(trimmed)) return setProblem(`A store with the id ${trimmed} exists.`);
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
          <label htmlFor={`${fieldId}-id`}>Store id</label>
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
              Letters, digits, - and _; the SDK names the store with it.
            </span>
          )}
        </div>
        <div className="dash-field">
          <label htmlFor={`${fieldId}-name`}>Display name</label>
          <input id={`${fieldId}-name`} name="display_name" value={displayName} onChange={(event) => setDisplayName(event.target.value)} />
        </div>
      </div>
      <div>
        <button type="submit" className="gh-primary" disabled={busy || !id.trim()}>
          Add store
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
          Display name of {props.id}
        </label>
        <input id={inputId} value={name} onChange={(event) => setName(event.target.value)} />
        <button type="submit" disabled={!changed || props.busy} aria-label={`Rename ${props.id}`}>
          Rename
        </button>
      </form>
      <button type="button" className="gh-danger" onClick={() => setConfirming(true)} aria-label={`Remove ${props.id}`}>
        Remove
      </button>
      <ConfirmDialog
        open={confirming}
        title={`Remove the store ${props.id}?`}
        confirmLabel="Remove store"
        busy={props.busy}
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          props.onRemove().then(
            () => setConfirming(false),
            () => setConfirming(false),
          )
        }
      >
        <p>
          Reading or writing <code>{props.id}</code> answers that the store does not exist until it is added again; the encrypted values
          stay in the database and come back with it.
        </p>
      </ConfirmDialog>
    </li>
  );
}
