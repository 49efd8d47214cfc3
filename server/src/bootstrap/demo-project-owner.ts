import type { Services } from '../services.ts';
import type { ProjectId } from '../tenancy/project-id.ts';
import { internalProjectId } from '../tenancy/project-id.ts';

/**
 * Development mode only (`pnpm start` on a developer's machine): the first owner to sign up to the
 * dashboard (a user of the `internal` project) becomes an owner of the demo project the first start
 * seeded, through a team of their own, so the project the banner printed is on their dashboard at
 * once. Later owners get nothing; neither does anyone in production mode, where this is not wired.
 * It runs in the sign-up's transaction: two first sign-ups at once give it to one of them.
 */
export function giveDemoProjectToFirstOwner(services: Services, demoProjectId: string): void {
  services.users.created.subscribe(async (trx, project, user) => {
    if (project.id !== internalProjectId || user.is_anonymous) return;
    await services.internalProjects.giveOwnerlessProject(trx, demoProjectId as ProjectId, project, user);
  });
}
