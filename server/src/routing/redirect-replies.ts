import type { FastifyReply } from 'fastify';

/** A redirect with a short plain-text body (what browsers show if they do not follow it). */
export const redirect = (reply: FastifyReply, status: number, location: string) =>
  reply.status(status).header('location', location).type('text/plain; charset=utf-8').send(`Redirecting to ${location}`);

/** The string parameters of a query or form (providers add their own; unknown ones are ignored). */
export const stringsOf = (values: unknown): Record<string, string> =>
  Object.fromEntries(
    Object.entries((values ?? {}) as Record<string, unknown>).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
