import { type FormEvent, Suspense, useState } from 'react';
import type { AuditLogEntry, ListTeamAuditLogEntriesParams } from '../../generated/hooks.schemas.ts';
import { useListTeamAuditLogEntriesSuspense } from '../../generated/hooks.ts';
import { useTranslation } from '../../i18n/i18n-context.ts';
import { intlLocaleOf } from '../../i18n/language-formats.ts';
import { Field, Loading } from '../../ui/form.tsx';
import { TeamAuditLogExport } from './team-audit-log-export.tsx';

type Filters = Pick<ListTeamAuditLogEntriesParams, 'action' | 'actor_id' | 'target_id' | 'since_millis' | 'until_millis'>;
type FilterDraft = { action: string; actor: string; target: string; since: string; until: string };
const emptyDraft: FilterDraft = { action: '', actor: '', target: '', since: '', until: '' };
const pageSize = 20;

/** A `datetime-local` value (the person's own time zone) as milliseconds; blank stays unset. */
const millisOf = (local: string): number | undefined => (local ? new Date(local).getTime() : undefined);

function filtersOf(draft: FilterDraft): Filters {
  const filters: Filters = {};
  if (draft.action.trim()) filters.action = draft.action.trim();
  if (draft.actor.trim()) filters.actor_id = draft.actor.trim();
  if (draft.target.trim()) filters.target_id = draft.target.trim();
  const since = millisOf(draft.since);
  const until = millisOf(draft.until);
  if (since !== undefined && !Number.isNaN(since)) filters.since_millis = since;
  if (until !== undefined && !Number.isNaN(until)) filters.until_millis = until;
  return filters;
}

/**
 * A team's audit log for its administrators (`$update_team`): filters, an export of what they select, then pages newest first. "More" adds the
 * next page through the server's keyset cursor, so entries written meanwhile never shift or repeat a page.
 */
export function TeamAuditLog({ teamId, teamName }: { teamId: string; teamName: string }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<FilterDraft>(emptyDraft);
  const [filters, setFilters] = useState<Filters>({});
  // One cursor per page shown; the first page has none.
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);

  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFilters(filtersOf(draft));
    setCursors([undefined]);
  };
  const field = (key: keyof FilterDraft) => ({
    value: draft[key],
    onChange: (event: { target: { value: string } }) => setDraft({ ...draft, [key]: event.target.value }),
  });

  return (
    <section aria-label={t('teamAuditLog.title', { team: teamName })} className="gh-stack">
      <form
        onSubmit={apply}
        noValidate
        aria-label={t('teamAuditLog.filters')}
        style={{ flexDirection: 'row', flexWrap: 'wrap', alignItems: 'end' }}
      >
        <Field label={t('teamAuditLog.action')} name="audit-action" placeholder="team.member_added" {...field('action')} />
        <Field label={t('teamAuditLog.actor')} name="audit-actor" {...field('actor')} />
        <Field label={t('teamAuditLog.target')} name="audit-target" {...field('target')} />
        <Field label={t('teamAuditLog.since')} name="audit-since" type="datetime-local" {...field('since')} />
        <Field label={t('teamAuditLog.until')} name="audit-until" type="datetime-local" {...field('until')} />
        <button type="submit">{t('teamAuditLog.apply')}</button>
      </form>
      <TeamAuditLogExport teamId={teamId} filters={filters} />
      <table style={{ width: '100%', textAlign: 'start', borderCollapse: 'collapse' }}>
        <caption>{t('teamAuditLog.title', { team: teamName })}</caption>
        <thead>
          <tr>
            <th scope="col">{t('teamAuditLog.when')}</th>
            <th scope="col">{t('teamAuditLog.action')}</th>
            <th scope="col">{t('teamAuditLog.actor')}</th>
            <th scope="col">{t('teamAuditLog.target')}</th>
          </tr>
        </thead>
        {cursors.map((cursor, index) => (
          <Suspense key={cursor ?? 'first'} fallback={<LoadingRows />}>
            <AuditPage
              teamId={teamId}
              params={{ ...filters, limit: pageSize, ...(cursor ? { cursor } : {}) }}
              onMore={index === cursors.length - 1 ? (next) => setCursors([...cursors, next]) : undefined}
              first={index === 0}
            />
          </Suspense>
        ))}
      </table>
    </section>
  );
}

function LoadingRows() {
  return (
    <tbody>
      <tr>
        <td colSpan={4}>
          <Loading />
        </td>
      </tr>
    </tbody>
  );
}

function AuditPage({
  teamId,
  params,
  onMore,
  first,
}: {
  teamId: string;
  params: ListTeamAuditLogEntriesParams;
  onMore: ((cursor: string) => void) | undefined;
  first: boolean;
}) {
  const { t } = useTranslation();
  const page = useListTeamAuditLogEntriesSuspense(teamId, params).data;
  const next = page.pagination.next_cursor;
  return (
    <tbody>
      {first && page.items.length === 0 ? (
        <tr>
          <td colSpan={4} className="gh-muted">
            {t('teamAuditLog.none')}
          </td>
        </tr>
      ) : null}
      {page.items.map((entry) => (
        <EntryRow key={entry.id} entry={entry} />
      ))}
      {onMore && next ? (
        <tr>
          <td colSpan={4}>
            <button type="button" onClick={() => onMore(next)}>
              {t('teamAuditLog.more')}
            </button>
          </td>
        </tr>
      ) : null}
    </tbody>
  );
}

function EntryRow({ entry }: { entry: AuditLogEntry }) {
  const { language } = useTranslation();
  // Times in the reader's language (the pseudo-locale's are English's).
  const time = new Intl.DateTimeFormat(intlLocaleOf(language), { dateStyle: 'medium', timeStyle: 'medium' });
  const actor = entry.actor_id ? `${entry.actor_type} ${entry.actor_id}` : entry.actor_type;
  const target = entry.target_type ? `${entry.target_type} ${entry.target_id ?? ''}`.trim() : '—';
  return (
    <tr>
      <td>
        <time dateTime={new Date(entry.occurred_at_millis).toISOString()}>{time.format(entry.occurred_at_millis)}</time>
      </td>
      <td>
        <code>{entry.action}</code>
      </td>
      <td>{actor}</td>
      <td>{target}</td>
    </tr>
  );
}
