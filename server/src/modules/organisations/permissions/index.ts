import { defineModule } from '../../../kernel/module.ts';
import { eventsModule } from '../../platform/events/index.ts';
import { projectsModule } from '../../platform/projects/index.ts';
import { usersModule } from '../../identity/users/index.ts';
import { PermissionService } from './permission.service.ts';
import { permissionHandlers } from './permissions.routes.ts';
import * as migration0006 from './migrations/0006-permission-closure.ts';
import * as migration0018 from './migrations/0018-permission-graph-version.ts';

/** Team and project permission definitions (a DAG per scope), grants and effective permissions. */
export const permissionsModule = defineModule({
  name: 'permissions',
  migrations: { '0006-permission-closure': migration0006, '0018-permission-graph-version': migration0018 },
  requires: [eventsModule, projectsModule, usersModule],
  services: ({ events, projects, users }, { db }) => {
    const permissions = new PermissionService(db, events, users, {
      update: (projectId, change, trx) => projects.updateDefaultPermissions(projectId, change, trx),
      // A failed broadcast leaves other instances at most the cache's 5 s behind.
      committed: (projectId) => void projects.forget(projectId).catch(() => undefined),
    });
    // Every new project starts with the default team roles.
    projects.created.subscribe((trx, projectId) => permissions.seedDefaults(projectId, trx));
    // New users get the project's sign-up default permissions.
    users.created.subscribe((trx, project, user) =>
      permissions.grantProjectDefaults(project.id, user.id, Object.keys(project.config.rbac.defaultPermissions.signUp), trx),
    );
    return { permissions };
  },
  handlers: permissionHandlers,
});

// The module's public surface: what other modules may import (through this file only).
export type { PermissionService } from './permission.service.ts';
export { requireTeamPermission } from './team-permission-guard.ts';
