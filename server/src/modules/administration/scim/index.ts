import { defineModule } from '../../../kernel/module.ts';
import { auditLogModule } from '../audit-log/index.ts';
import { permissionsModule } from '../../organisations/permissions/index.ts';
import { ssoModule } from '../../authentication/sso/index.ts';
import { projectsModule } from '../../platform/projects/index.ts';
import { sessionsModule } from '../../authentication/sessions/index.ts';
import { teamsModule } from '../../organisations/teams/index.ts';
import { usersModule } from '../../identity/users/index.ts';
import * as migration0121 from './migrations/0121-scim.ts';
import * as migration0340 from './migrations/0340-scim-token-rotation.ts';
import * as migration0390 from './migrations/0390-scim-group-permissions.ts';
import { ScimDirectoryService } from './scim-directory.service.ts';
import { ScimGroupPermissions } from './scim-group-permissions.ts';
import { ScimProvisioningService } from './scim-provisioning.service.ts';
import { scimHandlers } from './scim.routes.ts';

/** SCIM 2.0 directories of teams: users and groups provisioned from the customer's identity provider. */
export const scimModule = defineModule({
  name: 'scim',
  migrations: { '0121-scim': migration0121, '0340-scim-token-rotation': migration0340, '0390-scim-group-permissions': migration0390 },
  requires: [projectsModule, usersModule, teamsModule, sessionsModule, auditLogModule, permissionsModule, ssoModule],
  services: ({ projects, users, teams, sessions, auditLog, permissions, ssoConnections }, { db, publicUrl }) => ({
    scimDirectories: new ScimDirectoryService(db, projects, auditLog, publicUrl),
    scimProvisioning: new ScimProvisioningService(
      db,
      users,
      teams,
      sessions,
      auditLog,
      new ScimGroupPermissions(permissions, ssoConnections),
    ),
  }),
  handlers: scimHandlers,
});

export type { ScimDirectoryService } from './scim-directory.service.ts';
