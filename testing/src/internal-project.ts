import type { Project } from '@gatehouse/server/src/tenancy/project.ts';
import type { TestContext } from './test-context.ts';

/**
 * The `internal` project, created by whichever test file gets there first (files run concurrently
 * on one database), with a fresh key set holding the requested keys.
 */
export async function ensureInternalProject(context: TestContext, keys: { publishable_client_key?: true; super_secret_admin_key?: true }) {
  const { projects, apiKeys } = context.services;
  if (!(await projects.find('internal'))) {
    try {
      await projects.create({ id: 'internal', displayName: 'Internal' });
    } catch (error) {
      // Another file created it at the same moment; drop this instance's cached "not found".
      if ((error as { code?: string }).code !== '23505') throw error;
      projects.forget('internal');
    }
  }
  const project = (await projects.find('internal')) as Project;
  const created = await apiKeys.createKeySet({
    projectId: project.id,
    description: 'test keys',
    expiresAt: new Date(Date.now() + 3_600_000),
    keys,
  });
  return { project, keys: created.keys };
}

/** A dashboard user (of `internal`) with a team of their own, and the headers of their client calls. */
export async function newDashboardUser(context: TestContext, internal: Project, publishableKey: string, name: string) {
  const { users, signIn, teams } = context.services;
  const user = await users.create(internal, { display_name: name }, 'server');
  const { access_token: token } = await signIn.signIn(internal, user);
  const team = await teams.create(internal, { display_name: `${name} team` }, user.id);
  const client: Record<string, string> = {
    'x-stack-access-type': 'client',
    'x-stack-project-id': 'internal',
    'x-stack-publishable-client-key': publishableKey,
    'x-stack-access-token': token,
  };
  return { user, token, team, client };
}

/** Headers of an admin call on `projectId` with a dashboard user's access token (another access type: to test its refusal). */
export const adminTokenHeaders = (projectId: string, token: string, accessType = 'admin'): Record<string, string> => ({
  'x-stack-access-type': accessType,
  'x-stack-project-id': projectId,
  'x-stack-admin-access-token': token,
});
