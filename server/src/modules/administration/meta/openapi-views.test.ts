import { describe, expect, it } from 'vitest';
import { withTestContext } from '@gatehouse/testing/test-context';

const env = withTestContext();

type Document = {
  info: { title: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Record<string, unknown>>; responses: Record<string, Response> };
};
type Operation = {
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, Response>;
  security?: Array<Record<string, string[]>>;
};
type Response = { content?: Record<string, { schema: Record<string, unknown> }>; headers?: Record<string, unknown> };

async function served(query: string): Promise<Document> {
  const response = await env.context.request({ url: `/api/v1/openapi.json${query}` });
  expect(response.status).toBe(200);
  return response.body as Document;
}

const schemesOf = (operation: Operation) => new Set(operation.security?.flatMap((requirement) => Object.keys(requirement)));

describe('views of the served document', () => {
  it('the client view has client shapes, client operations and credentials, and no deleted-admin text', async () => {
    const [whole, client] = await Promise.all([served(''), served('?access_type=client')]);
    const patchMe = (document: Document) => document.paths['/users/me']?.patch?.requestBody?.content['application/json']?.schema;
    expect(patchMe(whole)?.anyOf).toHaveLength(2);
    expect(patchMe(client)).toMatchObject({ $ref: '#/components/schemas/CurrentUserClientUpdate' });
    expect(client.components.schemas.CurrentUser).toMatchObject({ $ref: '#/components/schemas/ClientCurrentUser' });
    expect(client.components.schemas.TeamView).toMatchObject({ $ref: '#/components/schemas/ClientTeam' });
    // Team bodies: the whole document admits both shapes; the client view only the one without server-only metadata.
    expect(whole.components.schemas.TeamCreate?.anyOf).toHaveLength(2);
    expect(whole.components.schemas.TeamUpdate?.anyOf).toHaveLength(2);
    expect(client.components.schemas.TeamCreate).toMatchObject({ $ref: '#/components/schemas/ClientTeamCreate' });
    expect(client.components.schemas.TeamUpdate).toMatchObject({ $ref: '#/components/schemas/ClientTeamUpdate' });
    expect(client.components.schemas.ClientTeamCreate?.properties).not.toHaveProperty('server_metadata');
    expect(client.components.schemas.ClientTeamUpdate?.properties).not.toHaveProperty('client_read_only_metadata');
    expect(client.info.title).toContain('(client access)');

    // Admin-only operations are left out; every kept one names only the client key.
    expect(whole.paths['/internal/api-keys']).toBeDefined();
    expect(client.paths['/internal/api-keys']).toBeUndefined();
    const clientSchemes = new Set(Object.values(client.paths).flatMap((item) => Object.values(item).flatMap((op) => [...schemesOf(op)])));
    expect(clientSchemes).toContain('PublishableClientKey');
    for (const other of ['SecretServerKey', 'SuperSecretAdminKey', 'AdminAccessToken']) expect(clientSchemes).not.toContain(other);

    expect(Object.keys(whole.components.responses.ProjectAuth401?.content ?? {})).toEqual(['application/json', 'text/plain']);
    expect(Object.keys(client.components.responses.ProjectAuth401?.content ?? {})).toEqual(['application/json']);
  });

  it('the server and admin views have server shapes; only the admin view keeps the deleted-admin text', async () => {
    const [server, admin] = await Promise.all([served('?access_type=server'), served('?access_type=admin')]);
    expect(server.components.schemas.CurrentUser).toMatchObject({ $ref: '#/components/schemas/ServerUser' });
    expect(admin.components.schemas.CurrentUser).toMatchObject({ $ref: '#/components/schemas/ServerUser' });
    for (const view of [server, admin]) {
      expect(view.components.schemas.TeamCreate).toMatchObject({ $ref: '#/components/schemas/ServerTeamCreate' });
      expect(view.components.schemas.TeamUpdate).toMatchObject({ $ref: '#/components/schemas/ServerTeamUpdate' });
    }
    expect(schemesOf(server.paths['/users/me']?.get as Operation)).not.toContain('PublishableClientKey');
    expect(schemesOf(admin.paths['/users/me']?.get as Operation)).toContain('AdminAccessToken');
    expect(Object.keys(server.components.responses.ProjectAuth401?.content ?? {})).toEqual(['application/json']);
    expect(Object.keys(admin.components.responses.ProjectAuth401?.content ?? {})).toEqual(['application/json', 'text/plain']);
  });

  it("the override-error-status view lets each 200 carry the operation's 4xx bodies", async () => {
    const override = await served('?override_error_status=true');
    const signUp = override.paths['/auth/password/sign-up']?.post as Operation;
    const ok = signUp.responses['200'] as Response;
    expect(ok.headers).toHaveProperty('X-Stack-Actual-Status');
    const anyOf = ok.content?.['application/json']?.schema.anyOf as unknown[];
    expect(anyOf[0]).toEqual({ $ref: '#/components/schemas/SignInResponse' });
    expect(JSON.stringify(anyOf.slice(1))).toContain('"#/components/schemas/UserEmailAlreadyExistsError"');
    // An operation whose success is 201 gains a 200 for its overridden refusals.
    const createTeam = override.paths['/teams']?.post as Operation;
    expect(createTeam.responses['200']?.headers).toHaveProperty('X-Stack-Actual-Status');
  });

  it('an unknown view is a SCHEMA_ERROR', async () => {
    const response = await env.context.request({ url: '/api/v1/openapi.json?access_type=root' });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('SCHEMA_ERROR');
  });
});
