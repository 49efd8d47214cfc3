import { defineModule } from '../../../kernel/module.ts';
import { apiKeysModule } from '../../platform/project-keys/index.ts';
import { emailModule } from '../../messaging/email/index.ts';
import { projectsModule } from '../../platform/projects/index.ts';
import { teamsModule } from '../../organisations/teams/index.ts';
import { InternalProjectService } from './internal-project.service.ts';
import { internalHandlers } from './internal.routes.ts';
import { MetricsService } from './metrics.service.ts';
import * as migration0009 from './migrations/0009-metrics-indexes.ts';
import * as migration0015 from './migrations/0015-user-metrics-rollups.ts';
import * as migration0066 from './migrations/0066-config-source.ts';

/**
 * The admin API: dashboard users (of the `internal` project) manage the projects their teams own:
 * the project, its config, key sets, metrics and a test email.
 */
export const internalModule = defineModule({
  name: 'internal',
  migrations: { '0009-metrics-indexes': migration0009, '0015-user-metrics-rollups': migration0015, '0066-config-source': migration0066 },
  requires: [projectsModule, teamsModule, apiKeysModule, emailModule],
  services: ({ projects, teams }, { db }) => ({
    internalProjects: new InternalProjectService(projects, teams, db),
    metrics: new MetricsService(db),
  }),
  handlers: internalHandlers,
});
