import autocannon from 'autocannon';
import type { Sample } from './measure-operations.ts';

type WriteOptions = {
  appUrl: string;
  serverHeaders: Record<string, string>;
  /** Users of the bench project that belong to no team yet (membership adds cycle over them and the teams). */
  spareUserIds: string[];
  teamIds: string[];
  seconds: number;
  connections: number;
};

/**
 * The writes users make in bulk, each alone (they have no floor here; sign-up and item changes are
 * judged in the main table against argon2id's hash rate and floor B): team creation, team renames,
 * membership adds.
 */
export async function measureBulkWrites(options: WriteOptions): Promise<Array<{ name: string } & Sample>> {
  const headers = { ...options.serverHeaders, 'content-type': 'application/json' };
  const run = async (name: string, request: NonNullable<autocannon.Options['requests']>[number], path: string) => {
    const result = await autocannon({
      url: `${options.appUrl}/api/v1${path}`,
      connections: options.connections,
      duration: options.seconds,
      requests: [request],
    });
    return {
      name,
      rps: Math.round(result.requests.total / Math.max(result.duration, options.seconds)),
      p50: result.latency.p50,
      p99: result.latency.p99,
      non2xx: result.non2xx + result.errors,
    };
  };
  let created = 0;
  let renamed = 0;
  let added = 0;
  const { spareUserIds, teamIds } = options;
  const pairs = spareUserIds.length * teamIds.length;
  return [
    await run(
      'POST /teams (server key)',
      {
        method: 'POST',
        headers,
        setupRequest: (request) => ({ ...request, body: JSON.stringify({ display_name: `Bulk team ${++created}` }) }),
      },
      '/teams',
    ),
    await run(
      'PATCH /teams/{team_id} display name (server key, 32 teams round-robin)',
      {
        method: 'PATCH',
        headers,
        setupRequest: (request) => {
          const team = teamIds[++renamed % teamIds.length];
          return { ...request, path: `/api/v1/teams/${team}`, body: JSON.stringify({ display_name: `Renamed ${renamed}` }) };
        },
      },
      `/teams/${teamIds[0]}`,
    ),
    await run(
      `POST /team-memberships/{team_id}/{user_id} (server key, ${pairs} distinct pairs)`,
      {
        method: 'POST',
        headers,
        body: '{}',
        setupRequest: (request) => {
          const index = added++ % pairs;
          const team = teamIds[index % teamIds.length];
          const user = spareUserIds[Math.floor(index / teamIds.length)];
          return { ...request, path: `/api/v1/team-memberships/${team}/${user}` };
        },
      },
      `/team-memberships/${teamIds[0]}/${spareUserIds[0]}`,
    ),
  ];
}
