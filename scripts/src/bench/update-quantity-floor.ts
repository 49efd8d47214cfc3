import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Floor E, update-quantity's own floor: a bare Fastify route with the same authentication (the server
 * key compared by digest) and the one statement our handler sends, `payment_item_change_apply`
 * (migration 0250: the customer check, the advisory lock, the checked insert, the running total, the
 * event) with the same arguments, prepared by name. Floor B is a read by primary key; this is the
 * write a decrement cannot avoid, so the gap between the two is the statement's, not ours.
 */
export function registerUpdateQuantityFloor(
  floor: FastifyInstance,
  pool: pg.Pool,
  context: { projectId: string; serverKey: string },
): void {
  const expected = digest(context.serverKey);
  // The customer's products stamp, read as the function computes it (our service caches it the same way).
  const stamps = new Map<string, Promise<string>>();
  const stampOf = (customerId: string) => {
    let stamp = stamps.get(customerId);
    if (!stamp) {
      stamp = pool
        .query<{ stamp: string }>(
          `select md5(coalesce(string_agg(p.id::text || ':' || p.status || ':' || p.quantity::text || ':' || coalesce(p.ended_at::text, ''), ',' order by p.id), '')) as stamp
             from payment_customer_product p where p.project_id = $1 and p.customer_type = 'user' and p.customer_id = $2`,
          [context.projectId, customerId],
        )
        .then((result) => result.rows[0]?.stamp ?? '');
      stamps.set(customerId, stamp);
    }
    return stamp;
  };
  floor.post<{ Params: { customerId: string } }>('/update-quantity/:customerId', async (request, reply) => {
    const sent = request.headers['x-stack-secret-server-key'];
    if (typeof sent !== 'string' || !timingSafeEqual(digest(sent), expected)) return reply.code(401).send({ code: 'KEY' });
    const customerId = request.params.customerId;
    const now = new Date();
    const { rows } = await pool.query({
      name: 'floor-update-quantity',
      text: `select * from payment_item_change_apply($1, $2::uuid, $3, 'user', $4, 'credits', -1::bigint, null::timestamptz, null::text,
        $5::timestamptz, true, 0::bigint, $6::text, $7::jsonb)`,
      values: [
        JSON.stringify([context.projectId, 'user', customerId, 'credits']),
        randomUUID(),
        context.projectId,
        customerId,
        now,
        await stampOf(customerId),
        JSON.stringify({ customer_type: 'user', customer_id: customerId, item_id: 'credits', delta: -1 }),
      ],
    });
    if (rows[0]?.outcome !== 'changed') return reply.code(409).send({ outcome: rows[0]?.outcome });
    return { outcome: 'changed' };
  });
}
