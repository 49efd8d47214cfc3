import { defineModule } from '../../kernel/module.ts';
import { cacheInvalidationModule } from '../cache-invalidation/index.ts';
import { signingKeysModule } from '../signing-keys/index.ts';
import { ProjectDiscovery } from './project-discovery.ts';
import { ProjectService } from './project.service.ts';
import { projectHandlers } from './projects.routes.ts';
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
  requires: [signingKeysModule, cacheInvalidationModule],
  services: ({ cacheInvalidation }, { db, publicUrl }) => ({
    projects: new ProjectService(db, cacheInvalidation),
    projectDiscovery: new ProjectDiscovery(publicUrl),
  }),
  handlers: projectHandlers,
});
