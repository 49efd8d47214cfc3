import { randomUUID } from 'node:crypto';
import { type DbHandle, inTransaction } from '../../../db/handle.ts';
import type { AtRestCipher } from '../../../lib/at-rest-cipher.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import type { Language } from '../../../tenancy/project-language.ts';
import { transactionalCategoryId } from '../notification-preferences/index.ts';
import { insertEmailSendBatch } from './email-outbox.repository.ts';
import { type OutboxStore, sealBatchVariables } from './email-outbox-sealing.ts';
import {
  builtInSystemTemplateSource,
  builtInTemplates,
  builtInThemes,
  lightThemeId,
  type SystemEmailKind,
  systemTemplateIds,
} from './built-in-emails.ts';
import type { ProjectLike } from './email-content.types.ts';

/** A system email's subject when its template names none. */
export function builtInSubject(kind: SystemEmailKind, project: Pick<ProjectLike, 'display_name'>): string {
  return `${builtInTemplates[systemTemplateIds[kind]]!.displayName} (${project.display_name})`;
}

/**
 * What a system email falls back to when the project's template (or theme) does not render: the
 * built-in template in the recipient's language inside the built-in light theme (trusted sources).
 */
export function systemEmailFallback(kind: SystemEmailKind, language: Language, project: Pick<ProjectLike, 'display_name'>) {
  return {
    templateSource: builtInSystemTemplateSource(kind, language),
    themeSource: builtInThemes[lightThemeId]!.tsxSource,
    fallbackSubject: builtInSubject(kind, project),
  };
}

/**
 * A system email that did not render in time, queued as a one-row batch of its fallback sources (its
 * variables sealed: they carry the link and code) for the outbox worker to render and send; the row's id.
 */
export async function queueUnrenderedSystemEmail(
  db: DbHandle,
  outbox: OutboxStore,
  cipher: AtRestCipher | undefined,
  projectId: ProjectId,
  email: { to: string; kind: string; user?: { id?: string } },
  sources: ReturnType<typeof systemEmailFallback>,
  variables: Record<string, unknown>,
): Promise<string> {
  const batchId = randomUUID();
  // One transaction: a crash between the two inserts leaves no batch (with its sealed link) that no row sends.
  return inTransaction(db, async (trx) => {
    await insertEmailSendBatch(trx, projectId, {
      id: batchId,
      template_source: sources.templateSource,
      theme_source: sources.themeSource,
      variables: sealBatchVariables(cipher, variables),
      subject: null,
      fallback_subject: sources.fallbackSubject,
      notification_category_id: transactionalCategoryId,
    });
    const row = await outbox.insertEmailOutbox(trx, {
      id: randomUUID(),
      project_id: projectId,
      to_address: email.to,
      kind: email.kind,
      subject: '',
      html: '',
      text: '',
      sent_at: null,
      error: null,
      status: 'queued',
      batch_id: batchId,
      user_id: email.user?.id ?? null,
    });
    return row.id;
  });
}
