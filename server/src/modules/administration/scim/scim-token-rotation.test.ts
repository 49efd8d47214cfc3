import { describe, expect, it } from 'vitest';
import { createScimDirectory } from '@gatehouse/testing/scim-directory';
import { withTestContext } from '@gatehouse/testing/test-context';

/** Rotating a SCIM directory's bearer token: the new token at once, the old one only during the overlap window. */
const env = withTestContext();

const rotate = (teamId: string, directoryId: string, payload: object, headers: Record<string, string> = env.project.headers.server) =>
  env.context.request({
    method: 'POST',
    url: `/api/v1/teams/${teamId}/scim-directories/${directoryId}/rotate-token`,
    headers,
    payload,
  });

/** Moves the end of the directory's overlap window into the past, as if its hours had gone by. */
const endOverlap = (directoryId: string) =>
  env.context.database.db
    .updateTable('scim_directory')
    .set({ previous_token_expires_at: new Date(Date.now() - 1000) })
    .where('id', '=', directoryId)
    .execute();

describe('SCIM token rotation', () => {
  it('accepts the new token, the old one during the overlap and refuses it after', async () => {
    const { scim, team, directory } = await createScimDirectory(env.context, env.project);
    const before = Date.now();
    const rotated = await rotate(team.id, directory.id, { overlap_hours: 2 });
    expect(rotated.status).toBe(200);
    const newToken = rotated.body.token as string;
    expect(newToken).toMatch(/^scim_/);
    expect(newToken).not.toBe(directory.token);
    expect(rotated.body.previous_token_expires_at_millis).toBeGreaterThanOrEqual(before + 2 * 3_600_000 - 1000);
    expect(rotated.body.previous_token_expires_at_millis).toBeLessThanOrEqual(Date.now() + 2 * 3_600_000);
    expect((await scim('GET', '/Users', undefined, { token: newToken })).status).toBe(200);
    expect((await scim('GET', '/Users')).status).toBe(200);
    await endOverlap(directory.id);
    const refused = await scim('GET', '/Users');
    expect(refused.status).toBe(401);
    expect(refused.json.schemas).toEqual(['urn:ietf:params:scim:api:messages:2.0:Error']);
    expect((await scim('GET', '/Users', undefined, { token: newToken })).status).toBe(200);
    // The list shows when the old token stops, never a token.
    const listed = await env.context.request({
      method: 'GET',
      url: `/api/v1/teams/${team.id}/scim-directories`,
      headers: env.project.headers.server,
    });
    expect(listed.body.items[0].previous_token_expires_at_millis).toBeLessThan(Date.now());
    expect(listed.text).not.toContain(newToken);
  });

  it('defaults to a 24-hour overlap, ends it at once with 0, and keeps at most two tokens valid', async () => {
    const { scim, team, directory } = await createScimDirectory(env.context, env.project);
    const first = await rotate(team.id, directory.id, {}, env.project.headers.admin);
    expect(first.body.previous_token_expires_at_millis - Date.now()).toBeGreaterThan(23 * 3_600_000);
    const second = await rotate(team.id, directory.id, { overlap_hours: 1 });
    // The original token was rotated out twice: refused although its own window had not ended.
    expect((await scim('GET', '/Users')).status).toBe(401);
    expect((await scim('GET', '/Users', undefined, { token: first.body.token })).status).toBe(200);
    expect((await scim('GET', '/Users', undefined, { token: second.body.token })).status).toBe(200);
    const third = await rotate(team.id, directory.id, { overlap_hours: 0 });
    expect(third.body.previous_token_expires_at_millis).toBeNull();
    expect((await scim('GET', '/Users', undefined, { token: second.body.token })).status).toBe(401);
    expect((await scim('GET', '/Users', undefined, { token: third.body.token })).status).toBe(200);
  });

  it("refuses another team's or project's token and directory, and records the rotation in the audit log", async () => {
    const a = await createScimDirectory(env.context, env.project);
    const b = await createScimDirectory(env.context, env.project);
    const rotated = await rotate(a.team.id, a.directory.id, { overlap_hours: 1 });
    // Team A's new and old tokens do not open team B's directory, nor B's token A's.
    expect((await b.scim('GET', '/Users', undefined, { token: rotated.body.token })).status).toBe(401);
    expect((await b.scim('GET', '/Users', undefined, { token: a.directory.token })).status).toBe(401);
    expect((await a.scim('GET', '/Users', undefined, { token: b.directory.token })).status).toBe(401);
    // Team B cannot rotate team A's directory through its own team path.
    expect((await rotate(b.team.id, a.directory.id, {})).body.code).toBe('SCIM_DIRECTORY_NOT_FOUND');
    const other = await env.context.createProject();
    const foreign = await rotate(a.team.id, a.directory.id, {}, other.headers.server);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('SCIM_DIRECTORY_NOT_FOUND');
    expect((await a.scim('GET', '/Users', undefined, { token: rotated.body.token })).status).toBe(200);
    const entries = await env.context.request({
      method: 'GET',
      url: `/api/v1/audit-log?action=scim.token_rotated&team_id=${a.team.id}`,
      headers: env.project.headers.admin,
    });
    expect(entries.body.items).toEqual([
      expect.objectContaining({
        action: 'scim.token_rotated',
        target_id: a.directory.id,
        details: expect.objectContaining({ overlap_hours: 1 }),
      }),
    ]);
    expect(JSON.stringify(entries.body)).not.toContain(rotated.body.token);
  });

  it('refuses an overlap out of range with a schema error', async () => {
    const { team, directory } = await createScimDirectory(env.context, env.project);
    for (const overlap_hours of [-1, 721, 1.5, 'two'])
      expect((await rotate(team.id, directory.id, { overlap_hours })).body.code).toBe('SCHEMA_ERROR');
  });
});
