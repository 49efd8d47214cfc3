import type autocannon from 'autocannon';
import { describeWaits, sampleStatementWaits } from './statement-waits.ts';

type Result = { name: string; rps: number; p50: number; p99: number; errors: number };
type Request = NonNullable<autocannon.Options['requests']>[number];
type Context = {
  databaseUrl: string;
  app: string;
  floorUrl: string;
  serverHeaders: Record<string, string>;
  userId: string;
  paymentUsers: string[];
  measure: (name: string, url: string, request?: Request) => Promise<Result>;
  againstFloorB: (name: string, url: string, request: Request) => Promise<[Result, Result]>;
};

/**
 * update-quantity (`delta: -1`, checked) over 32 customers round-robin and on one customer, each
 * against floor B (verify a JWT, read a row) and against floor E (the same authentication and the
 * same one statement, `payment_item_change_apply`: update-quantity-floor.ts), with where the
 * statement's time in Postgres goes sampled from `pg_stat_activity` for ours and for floor E.
 */
export async function benchUpdateQuantity(context: Context): Promise<{ rows: Array<[Result, Result]>; lines: string[] }> {
  const { app, floorUrl, serverHeaders, paymentUsers } = context;
  const headers = { ...serverHeaders, 'content-type': 'application/json' };
  const body = JSON.stringify({ delta: -1 });
  const pathOf = (customerId: string) => `/api/v1/payments/items/user/${customerId}/credits/update-quantity?allow_negative=false`;
  const rows: Array<[Result, Result]> = [];
  const lines: string[] = [];
  const waitsOf = <T>(run: () => Promise<T>) => sampleStatementWaits(context.databaseUrl, 'payment_item_change_apply', run);
  for (const shape of ['32 customers', 'one customer'] as const) {
    let turn = 0;
    const roundRobin = shape === '32 customers';
    const ours = await waitsOf(() =>
      context.againstFloorB(`POST /payments/items/.../update-quantity (${shape})`, `${app}${pathOf(context.userId)}`, {
        method: 'POST',
        headers,
        body,
        ...(roundRobin
          ? { setupRequest: (request: Request) => ({ ...request, path: pathOf(paymentUsers[++turn % paymentUsers.length] as string) }) }
          : {}),
      }),
    );
    rows.push(ours.result);
    let floorTurn = 0;
    const floorE = await waitsOf(() =>
      context.measure(`floor E: server key + payment_item_change_apply (${shape})`, `${floorUrl}/update-quantity/${context.userId}`, {
        method: 'POST',
        headers,
        body,
        ...(roundRobin
          ? {
              setupRequest: (request: Request) => ({
                ...request,
                path: `/update-quantity/${paymentUsers[++floorTurn % paymentUsers.length] as string}`,
              }),
            }
          : {}),
      }),
    );
    rows.push([ours.result[0], floorE.result]);
    lines.push(`update-quantity (${shape}), ours: ${describeWaits(ours.waits, ours.result[0].rps)}`);
    lines.push(`update-quantity (${shape}), floor E: ${describeWaits(floorE.waits, floorE.result.rps)}`);
  }
  return { rows, lines };
}
