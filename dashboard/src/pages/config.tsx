import type { Schema } from '@gatehouse/client';
import { api } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useProjectScope } from '../shell-context.ts';
import { Checkbox, ConfirmDialog, ErrorMessage, PageHeader, QueryState, Section, TableScroll, TextField } from '../ui.tsx';

type Level = Schema<'ConfigLevel'>;
type ConfigSource = Schema<'ConfigSource'>;
const levels: Array<{ level: Level; label: string }> = [
  { level: 'project', label: 'Project' },
  { level: 'branch', label: 'Branch' },
  { level: 'environment', label: 'Environment' },
];

/**
 * The project's configuration as the config API has it: where the override came from (a push from a
 * GitHub workflow or another tool, or unlinked), each override level as a JSON editor (the server's
 * validation messages shown verbatim, nothing saved when refused), resetting keys (branch and
 * environment levels), and the effective config with where each value comes from (the default or
 * the override). Gatehouse keeps one override per project, so the three levels edit the same one.
 */
export function ConfigPage() {
  return (
    <>
      <PageHeader title="Configuration" />
      <SourceSection />
      <OverrideSection />
      <EffectiveSection />
    </>
  );
}

function describeSource(source: ConfigSource): string {
  switch (source.type) {
    case 'pushed-from-github':
      return `Pushed from GitHub: ${source.owner}/${source.repo}, branch ${source.branch}, commit ${source.commit_hash}, file ${source.config_file_path}${source.workflow_path ? `, workflow ${source.workflow_path}` : ''}.`;
    case 'pushed-from-unknown':
      return 'Pushed from a tool that did not say where from.';
    default:
      return 'Not linked: the override is edited here or through the API.';
  }
}

function SourceSection() {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const source = api.useGetProjectConfigSource({ request });
  const [confirming, setConfirming] = useState(false);
  const unlink = api.useDeleteProjectConfigSource({
    request,
    mutation: {
      onSuccess: () => queryClient.setQueryData(api.getGetProjectConfigSourceQueryKey(), { source: { type: 'unlinked' as const } }),
      onSettled: () => setConfirming(false),
    },
  });
  const current = source.data?.source;
  return (
    <Section
      title="Source"
      description="Where the override came from. Edits made here while it is linked are overwritten by the next push."
    >
      <QueryState query={source} what="the config source">
        <div className="dash-row">
          <p data-testid="config-source">{current ? describeSource(current) : null}</p>
          {current && current.type !== 'unlinked' ? (
            <button type="button" className="gh-danger" onClick={() => setConfirming(true)}>
              Unlink
            </button>
          ) : null}
        </div>
      </QueryState>
      <ErrorMessage error={unlink.error} />
      <ConfirmDialog
        open={confirming}
        title="Unlink the config from its source?"
        confirmLabel="Unlink"
        busy={unlink.isPending}
        onConfirm={() => unlink.mutate()}
        onClose={() => setConfirming(false)}
      >
        <p>The override stays as it is; the dashboard no longer names where it came from.</p>
      </ConfirmDialog>
    </Section>
  );
}

function OverrideSection() {
  const [level, setLevel] = useState<Level>('project');
  const groupId = useId();
  return (
    <Section
      title="Override"
      description="What the project sets over the defaults, as JSON (dotted keys allowed). Gatehouse keeps one override per project: the project, branch and environment levels all show and edit it."
    >
      <fieldset className="dash-fieldset" aria-labelledby={groupId}>
        <span id={groupId} className="dash-muted">
          Level
        </span>
        <div className="dash-row">
          {levels.map((entry) => (
            <div className="dash-check" key={entry.level}>
              <input
                id={`${groupId}-${entry.level}`}
                type="radio"
                name="config-level"
                checked={level === entry.level}
                onChange={() => setLevel(entry.level)}
              />
              <label htmlFor={`${groupId}-${entry.level}`}>{entry.label}</label>
            </div>
          ))}
        </div>
      </fieldset>
      <LevelEditor key={level} level={level} />
    </Section>
  );
}

/** Everything the config shows elsewhere (the project, its pages) is read again after a change. */
function useConfigChanged() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries();
}

function LevelEditor({ level }: { level: Level }) {
  const { request } = useProjectScope();
  const override = api.useGetProjectConfigOverride(level, { request });
  return (
    <QueryState query={override} what={`the ${level} override`}>
      {override.data ? <OverrideForm level={level} stored={override.data.config_string} /> : null}
    </QueryState>
  );
}

function OverrideForm({ level, stored }: { level: Level; stored: string }) {
  const { request } = useProjectScope();
  const changed = useConfigChanged();
  const [text, setText] = useState(() => pretty(stored));
  // When the stored override changes (saved here, keys reset), the editor shows it.
  const [shown, setShown] = useState(stored);
  if (shown !== stored) {
    setShown(stored);
    setText(pretty(stored));
  }
  const [saved, setSaved] = useState(false);
  const save = api.useSetProjectConfigOverride({ request });
  const id = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    setSaved(false);
    // The server checks the JSON and the config it renders; its message is shown as it is.
    save.mutate(
      { level, data: { config_string: text } },
      {
        onSuccess: async () => {
          setSaved(true);
          await changed();
        },
      },
    );
  }

  return (
    <div className="dash-stack">
      <form className="dash-stack" onSubmit={submit}>
        <div className="dash-field dash-json">
          <label htmlFor={id}>{`Override (${level} level)`}</label>
          <textarea
            id={id}
            rows={14}
            spellCheck={false}
            aria-invalid={save.error ? true : undefined}
            aria-describedby={save.error ? `${id}-error` : undefined}
            value={text}
            onChange={(event) => {
              setText(event.target.value);
              setSaved(false);
            }}
          />
        </div>
        <div className="dash-row">
          <button type="submit" className="gh-primary" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : 'Save override'}
          </button>
          <button type="button" disabled={save.isPending} onClick={() => setText(pretty(stored))}>
            Discard changes
          </button>
          {saved ? (
            <span role="status" className="dash-success">
              Override saved.
            </span>
          ) : null}
        </div>
        {save.error ? (
          <div id={`${id}-error`}>
            <ErrorMessage error={save.error} />
          </div>
        ) : null}
      </form>
      <ResetKeys level={level} paths={overridePaths(JSON.parse(stored))} />
    </div>
  );
}

/** Removes dotted paths from the override (their settings fall back to the defaults); only the branch and environment levels may. */
function ResetKeys({ level, paths }: { level: Level; paths: string[] }) {
  const { request } = useProjectScope();
  const changed = useConfigChanged();
  const [chosen, setChosen] = useState<string[]>([]);
  const [typed, setTyped] = useState('');
  const [done, setDone] = useState<number | null>(null);
  const reset = api.useResetProjectConfigKeys({ request });
  const keys = [...new Set([...chosen, ...typed.split(/[\s,]+/).filter(Boolean)])];
  const allowed = level !== 'project';

  function submit(event: FormEvent) {
    event.preventDefault();
    setDone(null);
    reset.mutate(
      { level, data: { keys } },
      {
        onSuccess: async () => {
          setDone(keys.length);
          setChosen([]);
          setTyped('');
          await changed();
        },
      },
    );
  }

  return (
    <form className="dash-stack" onSubmit={submit} aria-label="Reset keys">
      <h3>Reset keys</h3>
      {allowed ? (
        <p className="dash-muted">The settings at the chosen paths (and below them) go back to their defaults.</p>
      ) : (
        <p className="dash-muted">Keys can be reset only at the branch and environment levels.</p>
      )}
      {paths.length === 0 ? <p className="dash-muted">The override sets nothing.</p> : null}
      <div className="dash-fieldset">
        {paths.map((path) => (
          <Checkbox
            key={path}
            label={path}
            disabled={!allowed}
            checked={chosen.includes(path)}
            onChange={(on) => setChosen(on ? [...chosen, path] : chosen.filter((candidate) => candidate !== path))}
          />
        ))}
      </div>
      <TextField
        label="Other keys"
        name="reset-keys"
        hint="Dotted paths, separated by commas or spaces (auth.oauth.providers.github)."
        disabled={!allowed}
        value={typed}
        onChange={(event) => setTyped(event.target.value)}
      />
      <div className="dash-row">
        <button type="submit" className="gh-danger" disabled={!allowed || keys.length === 0 || reset.isPending}>
          {reset.isPending
            ? 'Resetting…'
            : keys.length === 0
              ? 'Reset keys'
              : `Reset ${keys.length === 1 ? '1 key' : `${keys.length} keys`}`}
        </button>
        {done !== null ? (
          <span role="status" className="dash-success">
            {done === 1 ? '1 key reset.' : `${done} keys reset.`}
          </span>
        ) : null}
      </div>
      <ErrorMessage error={reset.error} />
    </form>
  );
}

function EffectiveSection() {
  const { request } = useProjectScope();
  const config = api.useGetProjectConfig({ request });
  const override = api.useGetProjectConfigOverride('project', { request });
  const [filter, setFilter] = useState('');
  const rendered = config.data ? flatten(JSON.parse(config.data.config_string)) : [];
  const set = override.data ? overridePaths(JSON.parse(override.data.config_string)) : null;
  const needle = filter.trim().toLowerCase();
  const rows = rendered.filter(([path, value]) => !needle || path.toLowerCase().includes(needle) || value.toLowerCase().includes(needle));
  return (
    <Section
      title="Effective config"
      description="The defaults with the override applied: every setting, its value and where it comes from."
    >
      <QueryState query={config} what="the effective config">
        <TextField
          label="Filter settings"
          name="config-filter"
          type="search"
          value={filter}
          onChange={(event) => setFilter(event.target.value)}
        />
        <TableScroll label="Effective config">
          <table aria-label="Effective config">
            <thead>
              <tr>
                <th scope="col">Setting</th>
                <th scope="col">Value</th>
                <th scope="col">From</th>
              </tr>
            </thead>
            <tbody>
              {rows.map(([path, value]) => (
                <tr key={path}>
                  <td>
                    <code>{path}</code>
                  </td>
                  <td>
                    <code>{isSecret(path) && value !== '""' ? '•••••• (see the override)' : value}</code>
                  </td>
                  <td>{set === null ? '…' : setBy(set, path) ? 'override' : 'default'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
        {rows.length === 0 ? <p className="dash-muted">No setting matches “{filter}”.</p> : null}
      </QueryState>
    </Section>
  );
}

/** Secrets (OAuth client secrets, the SMTP password) are not spelled out in the table; the override editor holds them. */
const isSecret = (path: string) => /(?:^|\.)(?:clientSecret|password)$/.test(path);

const pretty = (json: string) => JSON.stringify(JSON.parse(json), null, 2);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
const isObject = (value: Json): value is { [key: string]: Json } => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The rendered config as `[dotted path, JSON value]` leaves (arrays and empty objects are leaves). */
function flatten(value: Json, prefix = ''): Array<[string, string]> {
  if (isObject(value) && Object.keys(value).length > 0) {
    return Object.entries(value).flatMap(([key, child]) => flatten(child, prefix ? `${prefix}.${key}` : key));
  }
  return [[prefix, JSON.stringify(value)]];
}

/** The dotted paths an override sets (its keys may themselves be dotted): every leaf it names. */
function overridePaths(override: Json, prefix = ''): string[] {
  if (!isObject(override) || Object.keys(override).length === 0) return prefix ? [prefix] : [];
  return Object.entries(override).flatMap(([key, child]) => overridePaths(child, prefix ? `${prefix}.${key}` : key));
}

/** Whether the override sets a rendered path: it names that path, a path above it, or one below it. */
function setBy(paths: string[], path: string): boolean {
  return paths.some((set) => set === path || path.startsWith(`${set}.`) || set.startsWith(`${path}.`));
}
