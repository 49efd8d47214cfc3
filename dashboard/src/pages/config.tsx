import type { Schema } from '@gatehouse/client';
import { api } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useProjectScope } from '../shell-context.ts';
import { type Translate, useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { Checkbox, ConfirmDialog, ErrorMessage, PageHeader, QueryState, Section, TableScroll, TextField } from '../ui.tsx';

type Level = Schema<'ConfigLevel'>;
type ConfigSource = Schema<'ConfigSource'>;
const levels = (t: Translate): Array<{ level: Level; label: string; editorLabel: string }> => [
  { level: 'project', label: t('config.levelProject'), editorLabel: t('config.overrideProject') },
  { level: 'branch', label: t('config.levelBranch'), editorLabel: t('config.overrideBranch') },
  { level: 'environment', label: t('config.levelEnvironment'), editorLabel: t('config.overrideEnvironment') },
];

/**
 * The project's configuration as the config API has it: where the override came from (a push from a
 * GitHub workflow or another tool, or unlinked), each override level as a JSON editor (the server's
 * validation messages shown verbatim, nothing saved when refused), resetting keys (branch and
 * environment levels), and the effective config with where each value comes from (the default or
 * the override). Gatehouse keeps one override per project, so the three levels edit the same one.
 */
export function ConfigPage() {
  const { t } = useDashboardTranslation();
  return (
    <>
      <PageHeader title={t('nav.config')} />
      <SourceSection />
      <OverrideSection />
      <EffectiveSection />
    </>
  );
}

function describeSource(source: ConfigSource, t: Translate): string {
  switch (source.type) {
    case 'pushed-from-github': {
      const where = {
        repo: `${source.owner}/${source.repo}`,
        branch: source.branch,
        commit: source.commit_hash,
        file: source.config_file_path,
      };
      return source.workflow_path
        ? t('config.sourceGithubWorkflow', { ...where, workflow: source.workflow_path })
        : t('config.sourceGithub', where);
    }
    case 'pushed-from-unknown':
      return t('config.sourceUnknown');
    default:
      return t('config.sourceUnlinked');
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
  const { t } = useDashboardTranslation();
  return (
    <Section title={t('config.source')} description={t('config.sourceDescription')}>
      <QueryState query={source} what={t('config.sourceWhat')}>
        <div className="dash-row">
          <p data-testid="config-source">{current ? describeSource(current, t) : null}</p>
          {current && current.type !== 'unlinked' ? (
            <button type="button" className="gh-danger" onClick={() => setConfirming(true)}>
              {t('config.unlink')}
            </button>
          ) : null}
        </div>
      </QueryState>
      <ErrorMessage error={unlink.error} />
      <ConfirmDialog
        open={confirming}
        title={t('config.unlinkTitle')}
        confirmLabel={t('config.unlink')}
        busy={unlink.isPending}
        onConfirm={() => unlink.mutate()}
        onClose={() => setConfirming(false)}
      >
        <p>{t('config.unlinkExplained')}</p>
      </ConfirmDialog>
    </Section>
  );
}

function OverrideSection() {
  const [level, setLevel] = useState<Level>('project');
  const groupId = useId();
  const { t } = useDashboardTranslation();
  return (
    <Section title={t('config.override')} description={t('config.overrideDescription')}>
      <fieldset className="dash-fieldset" aria-labelledby={groupId}>
        <span id={groupId} className="dash-muted">
          {t('config.level')}
        </span>
        <div className="dash-row">
          {levels(t).map((entry) => (
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
  const { t } = useDashboardTranslation();
  const what = { project: t('config.whatProject'), branch: t('config.whatBranch'), environment: t('config.whatEnvironment') }[level];
  return (
    <QueryState query={override} what={what}>
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
  const { t } = useDashboardTranslation();

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
          <label htmlFor={id}>{levels(t).find((entry) => entry.level === level)?.editorLabel}</label>
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
            {save.isPending ? t('settings.saving') : t('config.saveOverride')}
          </button>
          <button type="button" disabled={save.isPending} onClick={() => setText(pretty(stored))}>
            {t('config.discard')}
          </button>
          {saved ? (
            <span role="status" className="dash-success">
              {t('config.saved')}
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
  const { t } = useDashboardTranslation();

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
    <form className="dash-stack" onSubmit={submit} aria-label={t('config.resetKeys')}>
      <h3>{t('config.resetKeys')}</h3>
      {allowed ? <p className="dash-muted">{t('config.resetExplained')}</p> : <p className="dash-muted">{t('config.resetOnlyBelow')}</p>}
      {paths.length === 0 ? <p className="dash-muted">{t('config.setsNothing')}</p> : null}
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
        label={t('config.otherKeys')}
        name="reset-keys"
        hint={t('config.otherKeysHint')}
        disabled={!allowed}
        value={typed}
        onChange={(event) => setTyped(event.target.value)}
      />
      <div className="dash-row">
        <button type="submit" className="gh-danger" disabled={!allowed || keys.length === 0 || reset.isPending}>
          {reset.isPending
            ? t('config.resetting')
            : keys.length === 0
              ? t('config.resetKeys')
              : t('config.resetCount', { count: keys.length })}
        </button>
        {done !== null ? (
          <span role="status" className="dash-success">
            {t('config.resetDone', { count: done })}
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
  const { t } = useDashboardTranslation();
  return (
    <Section title={t('config.effective')} description={t('config.effectiveDescription')}>
      <QueryState query={config} what={t('config.effectiveWhat')}>
        <TextField
          label={t('config.filter')}
          name="config-filter"
          type="search"
          value={filter}
          onChange={(event) => setFilter(event.target.value)}
        />
        <TableScroll label={t('config.effective')}>
          <table aria-label={t('config.effective')}>
            <thead>
              <tr>
                <th scope="col">{t('config.setting')}</th>
                <th scope="col">{t('config.value')}</th>
                <th scope="col">{t('config.from')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map(([path, value]) => (
                <tr key={path}>
                  <td>
                    <code>{path}</code>
                  </td>
                  <td>
                    <code>{isSecret(path) && value !== '""' ? t('config.secretHidden') : value}</code>
                  </td>
                  <td>{set === null ? '…' : setBy(set, path) ? t('config.fromOverride') : t('config.fromDefault')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
        {rows.length === 0 ? <p className="dash-muted">{t('config.noMatch', { filter })}</p> : null}
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
