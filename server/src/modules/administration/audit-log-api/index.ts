import { defineModule } from '../../../kernel/module.ts';
import { auditLogModule } from '../audit-log/index.ts';
import { permissionsModule } from '../../organisations/permissions/index.ts';
import { teamsModule } from '../../organisations/teams/index.ts';
import { auditLogHandlers } from './audit-log.routes.ts';

/**
 * The audit log's operations: the project owner's view and export, a team admin's view. Its own
 * module because it needs teams and permissions, which themselves record through the audit log.
 */
export const auditLogApiModule = defineModule({
  name: 'audit-log-api',
  requires: [auditLogModule, teamsModule, permissionsModule],
  handlers: auditLogHandlers,
});
