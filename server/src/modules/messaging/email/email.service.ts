import { randomUUID } from 'node:crypto';
import { SchemaError } from '@gatehouse/protocol/errors';
import type { Transporter } from 'nodemailer';
import type { DbHandle } from '../../../db/handle.ts';
import type { JobLog } from '../../../kernel/background-job.ts';
import type { AtRestCipher } from '../../../lib/at-rest-cipher.ts';
import type { HostResolver } from '../../../lib/outbound/outbound-target.ts';
import type { Project } from '../../../tenancy/project.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import { isSupportedLanguage, projectLanguageOf } from '../../../tenancy/project-language.ts';
import { BatchRendering, type ProjectForEmail } from './batch-rendering.ts';
import type { EmailContentService } from './email-content.service.ts';
import type { EmailDeliverySettings } from './email-delivery-settings.ts';
import { type EmailKind, headerText, type OutgoingEmail, templateOf } from './email-kinds.ts';
import {
  countSentEmailsSince,
  countUnsentEmailsAcrossProjects,
  insertEmailSendBatch,
  type OutboxFilter,
} from './email-outbox.repository.ts';
import type { EmailOutboxRow } from './email-outbox.table.ts';
import { type OutboxStore, sealedOutbox } from './email-outbox-sealing.ts';
import { EmailSourceError } from './rendering/email-renderer.ts';
import { queueUnrenderedSystemEmail, systemEmailFallback } from './system-email-fallback.ts';
import { type EmailLog, noServerReason, OutboxDelivery } from './outbox-delivery.ts';
import { connectableSmtp, smtpFailureText } from './smtp-guard.ts';
import { resolveSmtpSettings, type SmtpSettings } from './smtp-settings.ts';
import { createSmtpTransport } from './smtp-transports.ts';

export type { EmailDeliverySettings } from './email-delivery-settings.ts';
export { readEmailDeliverySettings } from './email-delivery-settings.ts';
export type { EmailKind, EmailVariables, OutgoingEmail } from './email-kinds.ts';
export type { EmailLog } from './outbox-delivery.ts';

/**
 * The outbox and its delivery. Every email is a row with a status: `queued` → `sending` (claimed
 * with a lease) → `sent`, or back to `queued` after a failed attempt (waits EMAIL_RETRY_BASE_MS,
 * doubled per attempt), `failed` after the last attempt (or a template that does not render),
 * `skipped` with its reason (no mail server, the user's preference, no address). The platform's
 * own emails are rendered and tried at once (the caller waits for the first attempt); send-email's
 * rows are rendered and sent by the worker (`deliverUntilIdle`, the `email delivery` job), which
 * claims rows with `FOR UPDATE SKIP LOCKED` so several instances never take the same row while its
 * lease holds; a row whose worker died is taken over once the lease ran out (at least once).
 */
export class EmailService {
  private readonly outbox: OutboxStore;
  private readonly worker: OutboxDelivery;

  constructor(
    private readonly db: DbHandle,
    private readonly content: EmailContentService,
    private readonly options: {
      sharedSmtp?: SmtpSettings;
      log: EmailLog;
      delivery?: EmailDeliverySettings;
      findProject?: (id: string) => Promise<ProjectForEmail | undefined>;
      unsubscribe?: { publicUrl: string; serverSecret: Buffer };
      /** Seals the outbox's content at rest (email-outbox-sealing.ts); the module always gives it. */
      cipher?: AtRestCipher;
      /** How a project's own SMTP host is resolved (the system resolver; a test points names where it wants). */
      resolve?: HostResolver;
    },
  ) {
    this.outbox = sealedOutbox(options.cipher);
    this.worker = new OutboxDelivery(db, this.outbox, new BatchRendering(db, content, options.unsubscribe, options.cipher), options);
  }

  /** Emails queued or being sent, in every project (metrics). */
  unsentCount(): Promise<number> {
    return countUnsentEmailsAcrossProjects(this.db);
  }

  get delivery(): Required<EmailDeliverySettings> {
    return this.worker.settings;
  }

  /**
   * Renders one of the platform's own emails with the project's template of its kind inside the
   * selected theme (see EmailContentService.renderSystemEmail). Throws only when the outbox row
   * cannot be written; a delivery failure is recorded on the row (and retried by the worker).
   */
  async send<K extends EmailKind>(
    project: Pick<Project, 'id' | 'display_name' | 'config' | 'config_override'>,
    email: OutgoingEmail<K>,
  ): Promise<{ outboxId: string; delivered: boolean }> {
    const template = templateOf[email.kind](email.variables);
    const user = { ...(email.user ?? { display_name: null }), primary_email: email.to };
    const language = isSupportedLanguage(email.language) ? email.language : projectLanguageOf(project.config);
    let result: Awaited<ReturnType<EmailContentService['renderSystemEmail']>>;
    try {
      result = await this.content.renderSystemEmail(project, template.kind, template.variables, user, language);
    } catch (error) {
      if (!(error instanceof EmailSourceError)) throw error;
      // Not even the built-in fallback rendered in time (a loaded machine): the worker renders it later.
      this.options.log('email not rendered in time, queued for the worker', {
        projectId: project.id,
        kind: email.kind,
        error: error.message,
      });
      const sources = systemEmailFallback(template.kind, language, project);
      const outboxId = await queueUnrenderedSystemEmail(
        this.db,
        this.outbox,
        this.options.cipher,
        project.id,
        email,
        sources,
        template.variables,
      );
      this.worker.kick();
      return { outboxId, delivered: false };
    }
    const { rendered, fallbackReason } = result;
    if (fallbackReason)
      this.options.log('email template failed, sent the built-in one', { projectId: project.id, kind: email.kind, error: fallbackReason });
    return this.deliver(project, { to: email.to, kind: email.kind, subject: rendered.subject, html: rendered.html, text: rendered.text });
  }

  /**
   * Records an already rendered email in the outbox, logs it, and makes its first attempt now when
   * a mail server is configured (without one the row is `skipped`: outbox and log only).
   */
  async deliver(project: ProjectForEmail, email: { to: string; kind: string; subject: string; html: string; text: string }) {
    const { html, text } = email;
    const subject = headerText(email.subject);
    const settings = resolveSmtpSettings(project, this.options.sharedSmtp);
    const row = await this.outbox.insertEmailOutbox(this.db, {
      id: randomUUID(),
      project_id: project.id,
      to_address: email.to,
      kind: email.kind,
      subject,
      html,
      text,
      sent_at: null,
      error: null,
      ...(settings
        ? { status: 'sending', attempts: 1, next_attempt_at: new Date(Date.now() + this.delivery.leaseMillis) }
        : { status: 'skipped', skipped_reason: noServerReason }),
    });
    const fields = { projectId: project.id, outboxId: row.id, kind: email.kind, to: email.to, subject };
    // The message names the email only: a subject can carry its code ("Your sign-in code is …"); the
    // development-mode log adds the subject and text from the fields (email/index.ts).
    this.options.log(`email to ${email.to} (${email.kind}, outbox ${row.id})`, { ...fields, text });
    if (!settings) return { outboxId: row.id, delivered: false };
    const delivered = await this.worker.attempt(project, settings, { ...row, attempts: 1 }, { subject, html, text });
    return { outboxId: row.id, delivered };
  }

  /** An email not sent on purpose, kept in the outbox with the reason. */
  async recordSkipped(projectId: ProjectId, email: { to: string; kind: string; subject: string; reason: string }): Promise<string> {
    const row = await this.outbox.insertEmailOutbox(this.db, {
      id: randomUUID(),
      project_id: projectId,
      to_address: email.to,
      kind: email.kind,
      subject: headerText(email.subject),
      html: '',
      text: '',
      sent_at: null,
      error: null,
      status: 'skipped',
      skipped_reason: email.reason,
    });
    return row.id;
  }

  /** Stores the sources of one send-email call; its rows (written by the caller) name it. */
  async createSendBatch(
    projectId: ProjectId,
    batch: {
      templateSource: string;
      themeSource: string | null;
      variables: Record<string, unknown>;
      subject: string | undefined;
      fallbackSubject: string;
      notificationCategoryId: string;
    },
  ): Promise<string> {
    const id = randomUUID();
    await insertEmailSendBatch(this.db, projectId, {
      id,
      template_source: batch.templateSource,
      theme_source: batch.themeSource,
      variables: batch.variables,
      subject: batch.subject ?? null,
      fallback_subject: batch.fallbackSubject,
      notification_category_id: batch.notificationCategoryId,
    });
    return id;
  }

  /** The project's outbox, newest first. */
  async listOutbox(projectId: ProjectId, filter: number | OutboxFilter = 50): Promise<EmailOutboxRow[]> {
    return this.outbox.listEmailOutbox(this.db, projectId, filter);
  }

  async findOutbox(projectId: ProjectId, id: string): Promise<EmailOutboxRow | undefined> {
    return this.outbox.findEmailOutbox(this.db, projectId, id);
  }

  /** Sent emails since each of the given times, counted in one statement. */
  countSentSince<K extends string>(projectId: ProjectId, since: Record<K, Date>): Promise<Record<K, number>> {
    return countSentEmailsSince(this.db, projectId, since);
  }

  async listAttempted(projectId: ProjectId, limit: number): Promise<EmailOutboxRow[]> {
    return this.outbox.listAttemptedEmails(this.db, projectId, limit);
  }

  /**
   * Changes, resends (`status: queued`) or cancels (`status: skipped`) a row not sent yet; undefined
   * when there is no such row, the row itself when it is sending or sent (not editable).
   */
  async updateUnsent(
    projectId: ProjectId,
    id: string,
    change: { to?: string; subject?: string; html?: string; text?: string; status?: 'queued' | 'skipped' },
  ): Promise<{ updated: EmailOutboxRow } | { notEditable: EmailOutboxRow } | undefined> {
    const current = await this.outbox.findEmailOutbox(this.db, projectId, id);
    if (!current) return undefined;
    if (current.status === 'sending' || current.status === 'sent') return { notEditable: current };
    const content = change.html !== undefined || change.text !== undefined || change.subject !== undefined;
    if (content && current.batch_id !== null && change.html === undefined)
      throw new SchemaError(
        { message: 'Give html when changing an email that is not rendered yet.' },
        'Give html when changing an email that is not rendered yet.',
      );
    const updated = await this.outbox.updateUnsentEmailOutbox(this.db, projectId, id, {
      ...(change.to !== undefined ? { to_address: change.to } : {}),
      ...(change.subject !== undefined ? { subject: headerText(change.subject) } : {}),
      ...(change.html !== undefined ? { html: change.html } : {}),
      ...(change.text !== undefined ? { text: change.text } : {}),
      // Edited content is sent as it is, not rendered from the batch's template.
      ...(content ? { batch_id: null } : {}),
      ...(change.status === 'queued' ? { status: 'queued', next_attempt_at: new Date(), skipped_reason: null, error: null } : {}),
      ...(change.status === 'skipped' ? { status: 'skipped', skipped_reason: 'Cancelled.' } : {}),
    });
    if (!updated) {
      const now = await this.outbox.findEmailOutbox(this.db, projectId, id);
      return now ? { notEditable: now } : undefined;
    }
    if (change.status === 'queued') this.worker.kick();
    return { updated };
  }

  /** One round of the worker: claims a batch of due rows, delivers and settles them; the number claimed. */
  deliverDue(log?: JobLog): Promise<number> {
    return this.worker.deliverDue(log);
  }

  /** The worker's rounds until nothing is due (OutboxDelivery.deliverUntilIdle). */
  deliverUntilIdle(log?: JobLog, budgetMillis?: number): Promise<void> {
    return this.worker.deliverUntilIdle(log, budgetMillis);
  }

  /** Starts delivering now (send-email just queued rows); errors are logged, never thrown. */
  kick(): void {
    this.worker.kick();
  }

  /** Stops the worker (waits for the round in progress) and closes the pooled SMTP connections. */
  close(): Promise<void> {
    return this.worker.close();
  }

  /**
   * Sends one test email through a project's server (not cached), under the project's outbound
   * policy; a failure is one of smtpFailures' sentences, its details only in the server log.
   */
  async sendTest(
    settings: SmtpSettings & Required<Pick<SmtpSettings, 'policy'>>,
    to: string,
  ): Promise<{ success: boolean; error_message?: string }> {
    let transport: Transporter | undefined;
    try {
      transport = await createSmtpTransport(await connectableSmtp(settings, this.options.resolve));
      await transport.sendMail({
        from: { name: settings.senderName, address: settings.senderEmail },
        to,
        subject: 'Test email',
        text: 'This test email shows that your email server settings work.',
      });
      return { success: true };
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      this.options.log('test email failed', { host: settings.host, port: settings.port, error: detail });
      return { success: false, error_message: smtpFailureText(settings, error) };
    } finally {
      transport?.close();
    }
  }
}
