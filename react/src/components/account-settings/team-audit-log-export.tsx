import { useState } from 'react';
import type { GetTeamAuditLogExportParams } from '../../generated/hooks.schemas.ts';
import { getTeamAuditLogExport } from '../../generated/hooks.ts';
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
  const [state, setState] = useState<{ busy: boolean; error: unknown }>({ busy: false, error: null });
  async function download(format: 'ndjson' | 'csv') {
    setState({ busy: true, error: null });
    try {
      const body = await getTeamAuditLogExport(teamId, { ...filters, format });
      const url = URL.createObjectURL(new Blob([body], { type: mediaTypes[format] }));
      const link = document.createElement('a');
      link.href = url;
      link.download = `audit-log-team-${teamId}.${format}`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      setState({ busy: false, error: null });
    } catch (error) {
      setState({ busy: false, error });
    }
  }
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
