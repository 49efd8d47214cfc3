import type { GetTeamAuditLogExportParams } from '../../generated/hooks.schemas.ts';
import { getTeamAuditLogExport } from '../../generated/hooks.ts';
import { useFileDownload } from '../../hooks/use-file-download.ts';
import { useTranslation } from '../../i18n/i18n-context.ts';
import { RequestError } from '../../ui/form.tsx';

type Filters = Omit<GetTeamAuditLogExportParams, 'format'>;
const mediaTypes = { ndjson: 'application/x-ndjson', csv: 'text/csv' } as const;

/**
 * Downloads the team's entries matching the applied filters as a file, through the team export operation (the
 * server keeps it to this team and to `$update_team`): the request carries the person's token, so a plain link
 * cannot fetch it; the answer becomes a Blob saved under the team's name.
 */
export function TeamAuditLogExport({ teamId, filters }: { teamId: string; filters: Filters }) {
  const { t } = useTranslation();
  const state = useFileDownload();
  const download = (format: 'ndjson' | 'csv') =>
    state.download(() => getTeamAuditLogExport(teamId, { ...filters, format }), `audit-log-team-${teamId}.${format}`, mediaTypes[format]);
  return (
    <div style={{ display: 'flex', gap: '0.5rem', flexWrap: 'wrap' }}>
      <button type="button" disabled={state.busy} onClick={() => void download('ndjson')}>
        {t('teamAuditLog.exportNdjson')}
      </button>
      <button type="button" disabled={state.busy} onClick={() => void download('csv')}>
        {t('teamAuditLog.exportCsv')}
      </button>
      <RequestError error={state.error} />
    </div>
  );
}
