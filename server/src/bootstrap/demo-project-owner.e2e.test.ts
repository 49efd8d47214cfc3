import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freshDatabase, type ServerProcess, startServerProcess } from '@gatehouse/testing/server-process';

/**
 * The demo project the first start seeds goes to the first owner who signs up to the dashboard, in
 * development mode only; real server processes as `pnpm start` runs them (seeding, the banner's mode).
 */
const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

type Owner = { email: string; headers: Record<string, string> };

/** An owner signs up to the dashboard (a password user of `internal`), as its sign-up page does. */
async function signUpOwner(server: ServerProcess): Promise<Owner> {
  const internal = JSON.parse(readFileSync(join(server.dataDir, 'internal-project.json'), 'utf8')) as {
    keys: { publishable_client_key: string };
  };
  const client = {
    'content-type': 'application/json',
    'x-stack-access-type': 'client',
    'x-stack-project-id': 'internal',
    'x-stack-publishable-client-key': internal.keys.publishable_client_key,
  };
  const email = `owner-${randomUUID()}@example.com`;
  const response = await fetch(`${server.baseUrl}/api/v1/auth/password/sign-up`, {
    method: 'POST',
    headers: client,
    body: JSON.stringify({ email, password: 'owner-password-1' }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  const { access_token } = (await response.json()) as { access_token: string };
  return { email, headers: { ...client, 'x-stack-access-token': access_token } };
}

async function projectsOf(server: ServerProcess, owner: Owner): Promise<Array<{ id: string; display_name: string }>> {
  const response = await fetch(`${server.baseUrl}/api/v1/internal/projects`, { headers: owner.headers });
  expect(response.status).toBe(200);
  return ((await response.json()) as { items: Array<{ id: string; display_name: string }> }).items;
}

async function teamsOf(server: ServerProcess, owner: Owner): Promise<string[]> {
  const response = await fetch(`${server.baseUrl}/api/v1/teams?user_id=me`, { headers: owner.headers });
  expect(response.status).toBe(200);
  return ((await response.json()) as { items: Array<{ display_name: string }> }).items.map((team) => team.display_name);
}

describe('the demo project and the first dashboard owner', () => {
  it('development mode: of two owners signing up at once exactly one gets it, with a team named after them; later owners get nothing', async () => {
    const database = await freshDatabase();
    cleanups.push(database.drop);
    const server = await startServerProcess({ DATABASE_URL: database.url, DEVELOPMENT_MODE: 'true' });
    cleanups.push(server.cleanup);
    const demo = server.demo();

    const first = await Promise.all([signUpOwner(server), signUpOwner(server)]);
    const listed = await Promise.all(first.map((owner) => projectsOf(server, owner)));
    const winners = first.filter((_, index) => listed[index]?.length === 1);
    expect(winners).toHaveLength(1);
    const winner = winners[0] as Owner;
    expect(await projectsOf(server, winner)).toEqual([expect.objectContaining({ id: demo.id, display_name: 'Demo project' })]);
    expect(await teamsOf(server, winner)).toEqual([`${winner.email}'s team`]);
    const loser = first.find((owner) => owner !== winner) as Owner;
    expect(await projectsOf(server, loser)).toEqual([]);
    expect(await teamsOf(server, loser)).toEqual([]);

    // The owner administers it at once with their own token (no stale cached owner).
    const current = await fetch(`${server.baseUrl}/api/v1/internal/projects/current`, {
      headers: {
        'x-stack-access-type': 'admin',
        'x-stack-project-id': demo.id,
        'x-stack-admin-access-token': winner.headers['x-stack-access-token'] as string,
      },
    });
    expect(current.status, await current.clone().text()).toBe(200);

    expect(await projectsOf(server, await signUpOwner(server))).toEqual([]);
  }, 180_000);

  it('production mode: the first owner gets nothing', async () => {
    const database = await freshDatabase();
    cleanups.push(database.drop);
    const server = await startServerProcess({ DATABASE_URL: database.url, DEVELOPMENT_MODE: 'false' });
    cleanups.push(server.cleanup);
    const owner = await signUpOwner(server);
    expect(await projectsOf(server, owner)).toEqual([]);
    expect(await teamsOf(server, owner)).toEqual([]);
  }, 180_000);
});
