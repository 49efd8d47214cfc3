import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Unsubscribe codes: project, user and category, signed with HMAC-SHA256 under a key derived from
 * the server secret. Stateless, so sending to 100 000 users writes no code rows; they do not expire
 * (turning a category off twice changes nothing).
 */
export type UnsubscribeTarget = { projectId: string; userId: string; categoryId: string };

const keyOf = (serverSecret: Buffer) => createHmac('sha256', serverSecret).update('gatehouse email unsubscribe v1').digest();

export function signUnsubscribeCode(serverSecret: Buffer, target: UnsubscribeTarget): string {
  const payload = Buffer.from(JSON.stringify([target.projectId, target.userId, target.categoryId])).toString('base64url');
  const signature = createHmac('sha256', keyOf(serverSecret)).update(payload).digest('base64url');
  return `${payload}.${signature}`;
}

/** The target of a code this server signed, or undefined. */
export function readUnsubscribeCode(serverSecret: Buffer, code: string): UnsubscribeTarget | undefined {
  const [payload, signature, extra] = code.split('.');
  if (!payload || !signature || extra !== undefined) return undefined;
  const expected = createHmac('sha256', keyOf(serverSecret)).update(payload).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    const [projectId, userId, categoryId] = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown[];
    if (typeof projectId !== 'string' || typeof userId !== 'string' || typeof categoryId !== 'string') return undefined;
    return { projectId, userId, categoryId };
  } catch {
    return undefined;
  }
}
