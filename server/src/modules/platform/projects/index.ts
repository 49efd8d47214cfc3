import { auditLogModule } from '../../administration/audit-log/index.ts';
import { defineModule } from '../../../kernel/module.ts';
import { botChallengesModule } from '../../authentication/bot-challenges/index.ts';
import { cacheInvalidationModule } from '../cache-invalidation/index.ts';
import { signingKeysModule } from '../../authentication/signing-keys/index.ts';
import { ProjectDiscovery } from './project-discovery.ts';
import { ProjectService } from './project.service.ts';
import { projectHandlers } from './projects.routes.ts';
import { resealConfigSecrets } from './config-secrets-resealing.ts';
import * as migration0008 from './migrations/0008-project-development-flag.ts';
import * as migration0016 from './migrations/0016-project-logos-onboarding.ts';
import * as migration0065 from './migrations/0065-anonymous-sign-up-kept-on.ts';

/** Projects (the tenants) with their rendered config, cached; their public view and signing keys (JWKS). */
export const projectsModule = defineModule({
  name: 'projects',
  migrations: {
    '0008-project-development-flag': migration0008,
    '0016-project-logos-onboarding': migration0016,
    '0065-anonymous-sign-up-kept-on': migration0065,
  },
  requires: [signingKeysModule, cacheInvalidationModule, botChallengesModule, auditLogModule],
  services: ({ cacheInvalidation, auditLog }, { db, publicUrl, cipher }) => ({
    projects: new ProjectService(db, cacheInvalidation, cipher, auditLog),
    projectDiscovery: new ProjectDiscovery(publicUrl),
  }),
  handlers: projectHandlers,
  jobs: ({ projects }, { db, cipher }) => [
    {
      // Seals config secrets written before sealing existed, or under a key since rotated (the upgrade's migration).
      name: 'config secrets sealing',
      intervalMillis: 60_000,
      run: async (log) => {
        const sealed = await resealConfigSecrets(db, cipher, (id) => projects.forget(id));
        if (sealed > 0) log.info({ sealed }, 'project config secrets sealed');
      },
    },
  ],
});

// The module's public surface: what other modules may import (through this file only).
export type { ProjectLogos, ProjectService } from './project.service.ts';
export { assertTrustedUrl, isTrustedOrigin } from './trusted-urls.ts';
