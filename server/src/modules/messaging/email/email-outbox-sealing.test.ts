import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { handleOf } from '../../../db/handle.ts';
import { AtRestCipher } from '../../../lib/at-rest-cipher.ts';
import { testServerSecret, withTestContext } from '@gatehouse/testing/test-context';
import { resealOutboxContent } from './email-outbox-sealing.ts';

/**
 * The upgrade's migration of the outbox (issue #30 finding 11): rows an earlier version wrote in
 * clear (sign-in codes and links in their subject, HTML and text), and rows sealed under a key since
 * rotated, are sealed under the current key by the module's job; the API still shows them as before.
 */
const env = withTestContext();
const place = 'email_outbox.content';
const oldKey = 'an older encryption key of at least 32 characters';
// The suite's files share one database: the current key is the test servers' own (derived from the
// server secret), so sealing other files' rows along the way leaves them readable to their servers.
const current = new AtRestCipher(testServerSecret, { previous: [oldKey] });

async function insertSentRow(content: { subject: string; html: string; text: string }) {
  const id = randomUUID();
  await env.context.database.db
    .insertInto('email_outbox')
    .values({
      id,
      project_id: env.project.project.id,
      to_address: 'old@example.com',
      kind: 'otp',
      ...content,
      status: 'sent',
      sent_at: new Date(),
    })
    .execute();
  return id;
}
const stored = (id: string) =>
  env.context.database.db.selectFrom('email_outbox').select(['subject', 'html', 'text']).where('id', '=', id).executeTakeFirstOrThrow();
const readThroughApi = async (id: string) =>
  (await env.context.request({ url: `/api/v1/emails/outbox/${id}`, headers: env.project.headers.admin })).body;

describe('sealing outbox rows written before sealing existed', () => {
  it('seals rows in clear and rows under an older key; the API reads them as before; a row under an unknown key is left alone', async () => {
    const code = `C${randomUUID().slice(0, 6).toUpperCase()}`;
    const plain = { subject: `Your sign-in code is ${code}`, html: `<p>Your code: <b>${code}</b></p>`, text: `Your code: ${code}` };
    const inClear = await insertSentRow(plain);
    const underOldKey = await insertSentRow({
      subject: new AtRestCipher(testServerSecret, { current: oldKey }).seal(plain.subject, place),
      html: new AtRestCipher(testServerSecret, { current: oldKey }).seal(plain.html, place),
      text: new AtRestCipher(testServerSecret, { current: oldKey }).seal(plain.text, place),
    });
    const stranger = new AtRestCipher(testServerSecret, { current: 'a key nobody configured, 32 characters long' });
    const underUnknownKey = await insertSentRow({
      subject: stranger.seal(plain.subject, place),
      html: stranger.seal(plain.html, place),
      text: stranger.seal(plain.text, place),
    });
    const unknownBefore = await stored(underUnknownKey);

    const db = handleOf(env.context.database.db);
    let outcome = { sealed: 0, unopenable: 0 };
    // Other files' rows share the table: run until this file's rows are done (a batch of 500 at a time).
    for (let round = 0; round < 20; round++) {
      outcome = await resealOutboxContent(db, current);
      const rows = await Promise.all([stored(inClear), stored(underOldKey)]);
      if (rows.every((row) => [row.subject, row.html, row.text].every((value) => current.isCurrent(value)))) break;
    }
    for (const id of [inClear, underOldKey]) {
      const row = await stored(id);
      expect(JSON.stringify(row)).not.toContain(code);
      for (const value of [row.subject, row.html, row.text]) expect(current.isCurrent(value)).toBe(true);
      for (const field of ['subject', 'html', 'text'] as const) expect(current.open(row[field], place)).toBe(plain[field]);
    }
    expect(await stored(underUnknownKey)).toEqual(unknownBefore);
    expect(outcome.unopenable).toBeGreaterThanOrEqual(1);
    // The server reads the sealed rows as it read them in clear.
    for (const id of [inClear, underOldKey]) expect(await readThroughApi(id)).toMatchObject(plain);
  });
});
