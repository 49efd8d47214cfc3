import type { Schema } from '@gatehouse/protocol/operation-types';
import { api, useFileDownload } from '@gatehouse/react';
import { keepPreviousData } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { PagedTable, useUrlPaging } from '../pager.tsx';
import { useProjectScope } from '../shell-context.ts';
import { type Translate, useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { ErrorMessage, PageHeader, Section, TextField } from '../ui.tsx';

type AuditLogEntry = Schema<'AuditLogEntry'>;

export const AUDIT_LOG_PAGE_SIZE = 20;
/** The filters kept in the URL (`?action=…&actor_id=…`), as the operation names them. */
const filterNames = ['action', 'actor_id', 'target_id', 'team_id'] as const;
type FilterName = (typeof filterNames)[number];
const filterLabels = (t: Translate): Record<FilterName, string> => ({
  action: t('auditLog.action'),
  actor_id: t('auditLog.actorId'),
  target_id: t('auditLog.targetId'),
  team_id: t('auditLog.teamId'),
});

/**
 * The project's audit log: newest first in keyset pages, filtered by action, actor, target or team (in
 * the URL, so a filtered page can be linked), and the matching entries downloaded as NDJSON or CSV.
 */
export function AuditLogPage() {
  const { request } = useProjectScope();
  const { t, formatDate } = useDashboardTranslation();
  const paging = useUrlPaging();
  const filters = Object.fromEntries(filterNames.map((name) => [name, paging.filter(name)]).filter(([, value]) => value)) as Partial<
    Record<FilterName, string>
  >;
  const params = { limit: AUDIT_LOG_PAGE_SIZE, ...filters, ...(paging.cursor ? { cursor: paging.cursor } : {}) };
  const entries = api.useListAuditLogEntries(params, {
    request,
    query: { queryKey: api.getListAuditLogEntriesQueryKey(params), placeholderData: keepPreviousData },
  });
  return (
    <>
      <PageHeader title={t('nav.auditLog')}>
        <ExportButton format="ndjson" filters={filters} />
        <ExportButton format="csv" filters={filters} />
      </PageHeader>
      <Section title={t('auditLog.entries')} description={t('auditLog.description')}>
        <Filters key={JSON.stringify(filters)} initial={filters} onApply={(values) => paging.setFilters(values)} />
        <PagedTable
          label={t('auditLog.tableLabel')}
          pagerLabel={t('auditLog.pagerLabel')}
          paging={paging}
          rows={entries.data?.items}
          nextCursor={entries.data?.pagination.next_cursor}
          fetching={entries.isFetching}
          placeholder={entries.isPlaceholderData}
          error={entries.error}
          emptyText={Object.keys(filters).length > 0 ? t('auditLog.noneMatch') : t('auditLog.none')}
          rowKey={(entry) => entry.id}
          columns={[
            { header: t('auditLog.time'), cell: (entry) => formatDate(entry.occurred_at_millis) },
            { header: t('auditLog.action'), cell: (entry) => <code>{entry.action}</code> },
            { header: t('auditLog.actor'), cell: (entry) => <ActorCell entry={entry} /> },
            {
              header: t('auditLog.target'),
              cell: (entry) => (entry.target_type ? <code>{`${entry.target_type} ${entry.target_id ?? ''}`}</code> : '—'),
            },
            { header: t('auditLog.ipAddress'), cell: (entry) => entry.ip_address ?? '—' },
            { header: t('auditLog.details'), cell: (entry) => <code>{JSON.stringify(entry.details)}</code>, className: 'dash-excerpt' },
          ]}
        />
      </Section>
    </>
  );
}

/** Who did it, in the active language, and their id (as the API names it). */
function ActorCell({ entry }: { entry: AuditLogEntry }) {
  const { t } = useDashboardTranslation();
  return (
    <>
      {actorTypeText(entry.actor_type, t)}
      {entry.actor_id ? (
        <>
          {' '}
          <code>{entry.actor_id}</code>
        </>
      ) : null}
    </>
  );
}

function actorTypeText(type: AuditLogEntry['actor_type'], t: Translate): string {
  switch (type) {
    case 'user':
      return t('auditLog.actorUser');
    case 'admin':
      return t('auditLog.actorAdmin');
    case 'server':
      return t('auditLog.actorServer');
    case 'scim_directory':
      return t('auditLog.actorScim');
    case 'sso_setup_link':
      return t('auditLog.actorSsoSetup');
    case 'anonymous':
      return t('auditLog.actorAnonymous');
    default:
      return t('auditLog.actorSystem');
  }
}

/** The filter fields; one form so that several can be set before the list is asked again. */
function Filters({
  initial,
  onApply,
}: {
  initial: Partial<Record<FilterName, string>>;
  onApply: (values: Record<FilterName, string>) => void;
}) {
  const { t } = useDashboardTranslation();
  const labels = filterLabels(t);
  const [values, setValues] = useState<Record<FilterName, string>>({ action: '', actor_id: '', target_id: '', team_id: '', ...initial });
  function submit(event: FormEvent) {
    event.preventDefault();
    onApply(Object.fromEntries(filterNames.map((name) => [name, values[name].trim()])) as Record<FilterName, string>);
  }
  return (
    <form className="dash-row dash-toolbar" aria-label={t('auditLog.filters')} onSubmit={submit}>
      {filterNames.map((name) => (
        <TextField
          key={name}
          label={labels[name]}
          name={`audit-${name}`}
          value={values[name]}
          onChange={(event) => setValues({ ...values, [name]: event.target.value })}
        />
      ))}
      <button type="submit">{t('auditLog.filter')}</button>
    </form>
  );
}

/** Downloads every entry matching the filters (the export operation, with the owner's credentials) as a file. */
function ExportButton({ format, filters }: { format: 'ndjson' | 'csv'; filters: Partial<Record<FilterName, string>> }) {
  const { request } = useProjectScope();
  const { t } = useDashboardTranslation();
  const state = useFileDownload();
  const download = () =>
    state.download(
      () => api.getAuditLogExport({ format, ...filters }, request),
      `audit-log.${format}`,
      format === 'csv' ? 'text/csv' : 'application/x-ndjson',
    );
  return (
    <>
      <button type="button" disabled={state.busy} onClick={() => void download()}>
        {t('auditLog.export', { format: format === 'csv' ? 'CSV' : 'NDJSON' })}
      </button>
      <ErrorMessage error={state.error} />
    </>
  );
}
