import { createHash, type KeyObject, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { type CryptoKey, jwtVerify } from 'jose';
import type pg from 'pg';
import type { DerivedFloor } from './derived-floors.ts';
import type { Fixture, FloorDefinition } from './operation-plan.ts';

type FloorAuth = {
  /** The project's keys, as the bench sends them. */
  keys: Record<string, string>;
  /** The project's ES256 public key for user access tokens. */
  publicKey: CryptoKey | KeyObject | Uint8Array;
};

const digest = (value: string) => createHash('sha256').update(value).digest();
const keyHeaders = {
  publishable_client_key: 'x-stack-publishable-client-key',
  secret_server_key: 'x-stack-secret-server-key',
  super_secret_admin_key: 'x-stack-super-secret-admin-key',
} as const;

/**
 * `GET /floor/<operationId>`: per read operation, what a bare Fastify route would need to answer it —
 * the same authentication (the key the access type needs compared by digest, as the platform's
 * cached check does; a user access token's ES256 signature verified) and one prepared statement
 * returning the same rows (prepared by name on each pooled connection, as `pg` does).
 */
export function registerReadFloors(
  floor: FastifyInstance,
  pool: pg.Pool,
  auth: FloorAuth,
  floors: Readonly<Record<string, FloorDefinition>>,
  fixture: Fixture,
): void {
  const authenticate = floorAuthentication(auth);
  for (const [operationId, definition] of Object.entries(floors)) {
    const values = definition.values?.(fixture) ?? [];
    floor.get(`/floor/${operationId}`, async (request, reply) => {
      if (!(await authenticate(request.headers))) return reply.code(401).send({ code: 'KEY' });
      if (!definition.statement) return { ok: true };
      const { rows } = await pool.query({ name: operationId, text: definition.statement, values });
      return { items: rows };
    });
  }
}

/**
 * `GET /derived/<operationId>`: the floor of an operation with no hand-written one, derived from the
 * statements our handler sent for the same request (derived-floors.ts), filled in once the bench has
 * captured them. The same authentication as above, then that one statement prepared by name.
 */
export function registerDerivedFloors(
  floor: FastifyInstance,
  pool: pg.Pool,
  auth: FloorAuth,
  derived: ReadonlyMap<string, DerivedFloor>,
): void {
  const authenticate = floorAuthentication(auth);
  floor.get<{ Params: { operationId: string } }>('/derived/:operationId', async (request, reply) => {
    const definition = derived.get(request.params.operationId);
    if (!definition) return reply.code(404).send({ code: 'NO_FLOOR' });
    if (!(await authenticate(request.headers))) return reply.code(401).send({ code: 'KEY' });
    if (!definition.statement) return { ok: true };
    const { rows } = await pool.query({
      name: `derived_${request.params.operationId}`,
      text: definition.statement,
      values: definition.values,
    });
    return { items: rows };
  });
}

/** The key the access type needs compared by digest, and a user access token's ES256 signature verified. */
function floorAuthentication(auth: FloorAuth): (headers: Record<string, string | string[] | undefined>) => Promise<boolean> {
  const expected = Object.entries(keyHeaders).map(([kind, header]) => [header, digest(auth.keys[kind] ?? '')] as const);
  return async (headers) => {
    for (const [header, want] of expected) {
      const sent = headers[header];
      if (typeof sent === 'string' && !timingSafeEqual(digest(sent), want)) return false;
    }
    const token = headers['x-stack-access-token'];
    if (typeof token === 'string') await jwtVerify(token, auth.publicKey, { algorithms: ['ES256'] });
    return true;
  };
}
