import type { ProjectId } from '../../../tenancy/project-id.ts';
import type { Project } from '../../../tenancy/project.ts';
import type { DbHandle } from '../../../db/handle.ts';
import type { EmailContentService } from './email-content.service.ts';
import { transactionalCategoryId } from '../notification-preferences/index.ts';
import { headerText } from './email-kinds.ts';
import type { AtRestCipher } from '../../../lib/at-rest-cipher.ts';
import { openBatchVariables } from './email-outbox-sealing.ts';
import { type ClaimedEmail, findEmailSendBatch } from './email-outbox.repository.ts';
import type { EmailSendBatchRow } from './email-outbox.table.ts';
import { fillIn, holesOf, type Recipient, type RenderedEmail } from './recipient-holes.ts';
import { signUnsubscribeCode } from './unsubscribe-code.ts';
import { isSupportedLanguage, type Language, projectLanguageOf } from '../../../tenancy/project-language.ts';

export type ProjectForEmail = Pick<Project, 'id' | 'display_name' | 'config'>;

const maxCachedBatches = 32;
const maxPreparedShapes = 64;

/**
 * Renders send-email rows for their users. The sandbox renders a batch once per kind of recipient
 * (their language, with or without a display name, with or without an unsubscribe link) with placeholder values,
 * twice with different placeholders: when both agree once the placeholders are blanked out, the
 * template uses the recipient's fields only as text (no branching or transforming on them) and each
 * row is the rendering with its values put in (HTML-escaped in the HTML; nothing to put in when the
 * body is the same for everyone); otherwise every row is rendered on its own.
 */
export class BatchRendering {
  private readonly batches = new Map<string, EmailSendBatchRow>();
  private readonly prepared = new Map<string, Promise<RenderedEmail | undefined>>();

  constructor(
    private readonly db: DbHandle,
    private readonly content: EmailContentService,
    private readonly unsubscribe: { publicUrl: string; serverSecret: Buffer } | undefined,
    private readonly cipher: AtRestCipher | undefined,
  ) {}

  /** The batch's sources (cached: a batch never changes), undefined when it is gone. */
  async batch(projectId: ProjectId, id: string): Promise<EmailSendBatchRow | undefined> {
    const cached = this.batches.get(id);
    if (cached) return cached;
    const stored = await findEmailSendBatch(this.db, projectId, id);
    const batch = stored && { ...stored, variables: openBatchVariables(this.cipher, stored.variables) };
    if (batch) {
      if (this.batches.size >= maxCachedBatches) this.batches.delete(this.batches.keys().next().value as string);
      this.batches.set(id, batch);
    }
    return batch;
  }

  /** The row rendered for its user; throws when the template does not render. */
  async render(project: ProjectForEmail, batch: EmailSendBatchRow, row: ClaimedEmail): Promise<RenderedEmail> {
    const recipient: Recipient = {
      id: row.user_id ?? '',
      display_name: row.user_display_name,
      primary_email: row.to_address,
      link: this.unsubscribeLinkFor(project.id, batch, row.user_id),
    };
    // The theme speaks the recipient's language: one shape per language of the batch's recipients, not per recipient.
    const language = isSupportedLanguage(row.user_language) ? row.user_language : projectLanguageOf(project.config);
    const key = `${batch.id}:${language}:${recipient.display_name === null}:${recipient.link === undefined}`;
    let prepared = this.prepared.get(key);
    if (!prepared) {
      prepared = this.prepare(project, batch, recipient, language).catch(() => undefined);
      if (this.prepared.size >= maxPreparedShapes) this.prepared.delete(this.prepared.keys().next().value as string);
      this.prepared.set(key, prepared);
    }
    const shape = await prepared;
    if (shape) return fillIn(shape, recipient);
    const rendered = await this.renderFor(project, batch, recipient, language);
    return { subject: headerText(rendered.subject), html: rendered.html, text: rendered.text };
  }

  private unsubscribeLinkFor(projectId: string, batch: EmailSendBatchRow, userId: string | null): string | undefined {
    const unsubscribe = this.unsubscribe;
    if (batch.notification_category_id === transactionalCategoryId || !unsubscribe || !userId) return undefined;
    const code = signUnsubscribeCode(unsubscribe.serverSecret, { projectId, userId, categoryId: batch.notification_category_id });
    return `${unsubscribe.publicUrl}/api/v1/emails/unsubscribe-link?code=${code}`;
  }

  private async renderFor(
    project: ProjectForEmail,
    batch: EmailSendBatchRow,
    recipient: Recipient,
    language: Language,
  ): Promise<RenderedEmail> {
    const rendered = await this.content.renderOrThrow({
      templateSource: batch.template_source,
      themeSource: batch.theme_source,
      props: {
        user: { id: recipient.id, display_name: recipient.display_name, primary_email: recipient.primary_email },
        project: { id: project.id, display_name: project.display_name },
        variables: batch.variables as Record<string, unknown>,
      },
      unsubscribeLink: recipient.link,
      language,
    });
    return { subject: batch.subject ?? rendered.subject ?? batch.fallback_subject, html: rendered.html, text: rendered.text };
  }

  /** The batch's rendering with holes for the recipient's fields, or undefined when the template depends on them otherwise. */
  private async prepare(
    project: ProjectForEmail,
    batch: EmailSendBatchRow,
    like: Recipient,
    language: Language,
  ): Promise<RenderedEmail | undefined> {
    const placeholders = (set: string): Recipient => ({
      id: `gh${set}id&"0`,
      display_name: like.display_name === null ? null : `gh${set}name&"1`,
      primary_email: `gh${set}mail&"2@example.com`,
      link: like.link === undefined ? undefined : `https://gh${set}.invalid/u&"3`,
    });
    const [a, b] = [placeholders('q7x'), placeholders('k2z')];
    const [renderedA, renderedB] = [await this.renderFor(project, batch, a, language), await this.renderFor(project, batch, b, language)];
    const shapeA = holesOf(renderedA, a);
    const shapeB = holesOf(renderedB, b);
    if (shapeA.html !== shapeB.html || shapeA.text !== shapeB.text || shapeA.subject !== shapeB.subject) return undefined;
    return shapeA;
  }
}
