import type { TestContext, TestProject } from './test-context.ts';

/** A team with a SCIM directory, and a caller of its SCIM endpoints with its token (for the SCIM tests). */
export async function createScimDirectory(context: TestContext, project: TestProject) {
  const server = project.headers.server;
  const team = (await context.request({ method: 'POST', url: '/api/v1/teams', headers: server, payload: { display_name: 'Acme' } })).body;
  const created = await context.request({
    method: 'POST',
    url: `/api/v1/teams/${team.id}/scim-directories`,
    headers: server,
    payload: { display_name: 'Okta' },
  });
  const directory = created.body as { id: string; token: string; scim_base_url: string };
  const scim = async (
    method: string,
    path: string,
    body?: unknown,
    options: { token?: string; directoryId?: string; contentType?: string } = {},
  ) => {
    const response = await context.request({
      method: method as 'GET',
      url: `/api/v1/scim/v2/${options.directoryId ?? directory.id}${path}`,
      headers: {
        authorization: `Bearer ${options.token ?? directory.token}`,
        ...(body === undefined ? {} : { 'content-type': options.contentType ?? 'application/scim+json' }),
      },
      ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    return { ...response, json: response.text ? JSON.parse(response.text) : undefined };
  };
  return { team: team as { id: string }, directory, scim };
}
