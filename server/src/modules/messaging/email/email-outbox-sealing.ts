import type { DbHandle } from '../../../db/handle.ts';
import type { AtRestCipher } from '../../../lib/at-rest-cipher.ts';
import * as repository from './email-outbox.repository.ts';
import type { EmailOutboxRow } from './email-outbox.table.ts';

/**
 * The outbox's rendered content (subject, HTML, text) carries the codes and links of the platform's
 * emails (sign-in codes, magic links, reset and invitation links): stored sealed
 * (lib/at-rest-cipher.ts), so a database dump holds none of them. These are the repository's
 * functions with the content sealed on the way in and opened on the way out; the service uses them
 * instead of the repository's own.
 */
const place = 'email_outbox.content';
type Content = { subject?: string; html?: string; text?: string };

export type OutboxStore = ReturnType<typeof sealedOutbox>;

export function sealedOutbox(cipher: AtRestCipher | undefined) {
  const seal = <T extends Content>(content: T): T => {
    if (!cipher) return content;
    const sealed = { ...content };
    for (const field of ['subject', 'html', 'text'] as const) {
      const value = content[field];
      if (value) sealed[field] = cipher.seal(value, place);
    }
    return sealed;
  };
  // A value that does not open is shown as stored: send-email's rows get their subject (not a
  // secret) in clear from SQL, and a subject that merely looks sealed must not break the listing.
  const openValue = (value: string): string => {
    if (!cipher) return value;
    try {
      return cipher.open(value, place);
    } catch {
      return value;
    }
  };
  const open = <T extends EmailOutboxRow>(row: T): T => ({
    ...row,
    subject: openValue(row.subject),
    html: openValue(row.html),
    text: openValue(row.text),
  });
  const openAll = <T extends EmailOutboxRow>(rows: T[]): T[] => rows.map(open);
  const openMaybe = <T extends EmailOutboxRow>(row: T | undefined): T | undefined => (row ? open(row) : undefined);

  return {
    insertEmailOutbox: async (...[db, row]: Parameters<typeof repository.insertEmailOutbox>) =>
      open(await repository.insertEmailOutbox(db, seal(row))),
    claimDueEmailsAcrossProjects: async (...args: Parameters<typeof repository.claimDueEmailsAcrossProjects>) =>
      openAll(await repository.claimDueEmailsAcrossProjects(...args)),
    settleEmailOutboxesAcrossProjects: (...[db, settlements]: Parameters<typeof repository.settleEmailOutboxesAcrossProjects>) =>
      repository.settleEmailOutboxesAcrossProjects(
        db,
        settlements.map((settlement) =>
          settlement.outcome.status === 'sent' && settlement.outcome.rendered
            ? { ...settlement, outcome: { ...settlement.outcome, rendered: seal(settlement.outcome.rendered) } }
            : settlement,
        ),
      ),
    listEmailOutbox: async (...args: Parameters<typeof repository.listEmailOutbox>) => openAll(await repository.listEmailOutbox(...args)),
    listAttemptedEmails: async (...args: Parameters<typeof repository.listAttemptedEmails>) =>
      openAll(await repository.listAttemptedEmails(...args)),
    findEmailOutbox: async (...args: Parameters<typeof repository.findEmailOutbox>) => openMaybe(await repository.findEmailOutbox(...args)),
    updateUnsentEmailOutbox: async (...[db, projectId, id, change]: Parameters<typeof repository.updateUnsentEmailOutbox>) =>
      openMaybe(await repository.updateUnsentEmailOutbox(db, projectId, id, seal(change))),
  };
}

/**
 * Seals the content of rows written before sealing existed, or under a key since rotated: the
 * upgrade's migration of existing rows, a batch at a time, run by the module's job. A row sealed
 * under a key that is no longer configured cannot be opened and is left as it is (sealing it again
 * would bury it under two keys). How many rows were sealed again, and how many left.
 */
export async function resealOutboxContent(
  db: DbHandle,
  cipher: AtRestCipher,
  batchSize = 500,
): Promise<{ sealed: number; unopenable: number }> {
  const rows = await repository.listUnsealedOutboxContentAcrossProjects(db, cipher.currentPrefix, batchSize);
  let sealed = 0;
  for (const row of rows) {
    let opened: { subject: string; html: string; text: string };
    try {
      opened = { subject: cipher.open(row.subject, place), html: cipher.open(row.html, place), text: cipher.open(row.text, place) };
    } catch {
      continue;
    }
    const sealIfAny = (value: string) => (value ? cipher.seal(value, place) : value);
    await repository.replaceOutboxContentAcrossProjects(db, row, {
      subject: sealIfAny(opened.subject),
      html: sealIfAny(opened.html),
      text: sealIfAny(opened.text),
    });
    sealed++;
  }
  return { sealed, unopenable: rows.length - sealed };
}

const variablesPlace = 'email_send_batch.variables';
const sealedKey = '$sealed';

/**
 * A batch's variables as stored: sealed when they carry a secret (a queued system email's link
 * and code), as given otherwise (send-email's, which the owner wrote).
 */
export function sealBatchVariables(cipher: AtRestCipher | undefined, variables: Record<string, unknown>): unknown {
  return cipher ? { [sealedKey]: cipher.seal(JSON.stringify(variables), variablesPlace) } : variables;
}

/** The variables of a stored batch (opened when sealed). */
export function openBatchVariables(cipher: AtRestCipher | undefined, stored: unknown): Record<string, unknown> {
  const sealed = stored && typeof stored === 'object' ? (stored as Record<string, unknown>)[sealedKey] : undefined;
  if (!cipher || typeof sealed !== 'string' || Object.keys(stored as object).length !== 1) return stored as Record<string, unknown>;
  return JSON.parse(cipher.open(sealed, variablesPlace)) as Record<string, unknown>;
}
