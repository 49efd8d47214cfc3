import { randomBytes } from 'node:crypto';

/** An object of a connected account (customer, payment intent, subscription, setup intent, ...), as Stripe answers it. */
export type AccountObject = { id: string; account: string | undefined } & Record<string, unknown>;
/** A stand-in answer: status and JSON body. */
export type Answer = [number, unknown];

/** A new Stripe-style object id (`cus_…`, `pi_…`). */
export const id = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex')}`;

/** The `metadata[...]` entries of a form-encoded Stripe request. */
export function metadataOf(body: URLSearchParams): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const [key, value] of body) {
    if (key.startsWith('metadata[') && key.endsWith(']')) metadata[key.slice('metadata['.length, -1)] = value;
  }
  return metadata;
}

/** Stripe's 404 for an object id it does not know. */
export const missing = (what: string, objectId: string): Answer => [
  404,
  { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}: '${objectId}'` } },
];
