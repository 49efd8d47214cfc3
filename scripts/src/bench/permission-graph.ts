import type { Services } from '../../../server/src/services.ts';
import type { ProjectId } from '../../../server/src/tenancy/project-id.ts';

/**
 * 200 team permission definitions in 5 levels of 40; each contains 3 of the level below, so the
 * closure of a grant at the top reaches deep into the graph. The member holds 5 top-level grants.
 */
export async function buildPermissionGraph(services: Services, projectId: ProjectId, teamId: string, userId: string): Promise<void> {
  const levels = 5;
  const perLevel = 40;
  const id = (level: number, index: number) => `l${level}_p${index}`;
  for (let level = levels; level >= 1; level--) {
    for (let index = 0; index < perLevel; index++) {
      const contained = level === levels ? [] : [0, 1, 2].map((offset) => id(level + 1, (index * 3 + offset) % perLevel));
      await services.permissions.createDefinition(projectId, 'team', { id: id(level, index), contained_permission_ids: contained });
    }
  }
  for (let index = 0; index < 5; index++) await services.permissions.grantTeam(projectId, teamId, userId, id(1, index * 8));
}
