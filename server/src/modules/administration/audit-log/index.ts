import { defineModule } from '../../../kernel/module.ts';
import { eventsModule } from '../../platform/events/index.ts';
import { deleteAuditLogEntriesBeforeAcrossProjects } from './audit-log.repository.ts';
import { AuditLog } from './audit-log.service.ts';
import { readAuditLogSettings } from './audit-log-settings.ts';
import { auditEntryForEvent } from './audit-of-event.ts';
import * as migration0120 from './migrations/0120-audit-log.ts';
import * as migration0122 from './migrations/0122-audit-event-opt-in.ts';

/**
 * The audit log's recording API, for every module: `auditLog.record(trx, projectId, { action, teamId?,
 * target?, actor?, details? })` in the transaction of the change (the request's IP address, user agent
 * and actor are added from its origin). Membership and permission changes are derived from the events
 * those modules record, in their transactions.
 */
export type { AuditEvent, AuditLog, AuditLogEntry } from './audit-log.service.ts';
export type { AuditLogFilter } from './audit-log.repository.ts';

/** The audit log: its recording service (low, so every module can require it), its storage and retention. */
export const auditLogModule = defineModule({
  name: 'audit-log',
  migrations: { '0120-audit-log': migration0120, '0122-audit-event-opt-in': migration0122 },
  requires: [eventsModule],
  settings: readAuditLogSettings,
  services: ({ events }, { db }) => {
    const auditLog = new AuditLog(db, events);
    events.recorded.subscribe(async (trx, projectId, type, data) => {
      const entry = auditEntryForEvent(type, data);
      if (entry) await auditLog.record(trx, projectId, entry);
    });
    return { auditLog };
  },
  jobs: (_services, { db, settings }) => [
    {
      name: 'audit log retention',
      intervalMillis: settings.retentionDays > 0 ? settings.retentionIntervalMillis : 0,
      run: async (log) => {
        const removed = await deleteAuditLogEntriesBeforeAcrossProjects(db, new Date(Date.now() - settings.retentionDays * 86_400_000));
        if (removed > 0) log.info({ removed }, 'audit log entries past retention removed');
      },
    },
  ],
});
