import { randomUUID } from 'node:crypto';
import { SchemaError } from '@gatehouse/protocol/errors';
import type { Transporter } from 'nodemailer';
import type { DbHandle } from '../../db/handle.ts';
import type { ProjectId } from '../../tenancy/project-id.ts';
import type { EmailOutboxRow } from './email-outbox.table.ts';
import type { Project } from '../../tenancy/project.ts';
import type { SystemEmailKind, SystemEmailVariables } from './built-in-emails.ts';
import type { EmailContentService } from './email-content.service.ts';
import {
  type ClaimedEmail,
  countSentEmails,
  countUnsentEmailsAcrossProjects,
  findEmailSendBatch,
  insertEmailSendBatch,
  type OutboxFilter,
} from './email-outbox.repository.ts';
import type { EmailSendBatchRow } from './email-outbox.table.ts';
import { resolveSmtpSettings, type SmtpSettings } from './smtp-settings.ts';
import { connectableSmtp, smtpFailureText } from './smtp-guard.ts';
import type { HostResolver } from '../../lib/outbound/outbound-target.ts';
import { signUnsubscribeCode } from './unsubscribe-code.ts';
import { outboxMessageId } from './message-id.ts';
import { type OutboxStore, sealedOutbox } from './email-outbox-sealing.ts';
import type { AtRestCipher } from '../../lib/at-rest-cipher.ts';
import type { JobLog } from '../../kernel/background-job.ts';

export type EmailLog = (message: string, fields: Record<string, unknown>) => void;

/** The variables of each email the platform sends itself, as its callers know them. */
export type EmailVariables = {
  email_verification: { link: string };
  password_reset: { link: string };
  sign_in_code: { link: string; otp: string };
  team_invitation: { link: string; teamName: string };
  sign_in_invitation: { link: string };
};

export type EmailKind = keyof EmailVariables;

export type OutgoingEmail<K extends EmailKind> = {
  to: string;
  kind: K;
  variables: EmailVariables[K];
  /** The recipient as the template sees it (`user`); by default only the address is known. */
  user?: { id?: string; display_name: string | null };
};

/** Each kind's template (built-in-emails.ts) and the variables it is given. */
const templateOf: {
  [K in EmailKind]: (
    variables: EmailVariables[K],
  ) => { [T in SystemEmailKind]: { kind: T; variables: SystemEmailVariables[T] } }[SystemEmailKind];
} = {
  email_verification: ({ link }) => ({ kind: 'email_verification', variables: { emailVerificationLink: link } }),
  password_reset: ({ link }) => ({ kind: 'password_reset', variables: { passwordResetLink: link } }),
  sign_in_code: ({ link, otp }) => ({ kind: 'magic_link', variables: { magicLink: link, otp } }),
  team_invitation: ({ link, teamName }) => ({
    kind: 'team_invitation',
    variables: { teamInvitationLink: link, teamDisplayName: teamName },
  }),
  sign_in_invitation: ({ link }) => ({ kind: 'sign_in_invitation', variables: { signInInvitationLink: link } }),
};

/** Subjects are headers, not HTML: a line break could start a new header. */
const headerText = (value: string): string => value.replace(/[\r\n]+/g, ' ');

// Short timeouts: a dead mail server must not hold a request (or a worker's claim) for minutes.
const timeouts = { connectionTimeout: 5_000, greetingTimeout: 5_000, socketTimeout: 10_000, dnsTimeout: 5_000 };
// Transports are cheap but keyed by credentials; bound the cache so rotating passwords cannot grow it.
const maxCachedTransports = 100;
const transactionalCategoryId = '7bb82d33-2f54-4a3d-9d23-82739e0d66ef';

/** How the outbox is delivered; read from the environment at start (a bad value stops it), or given by a test. */
export type EmailDeliverySettings = {
  /** How often the worker looks for due rows (EMAIL_POLL_INTERVAL_MS, 500; 0: this instance does not deliver queued rows). */
  pollIntervalMillis: number;
  /** How long a claim holds a row before another worker may take it over (EMAIL_LEASE_MS, 60 000). */
  leaseMillis: number;
  /** Attempts before a row is `failed` (EMAIL_MAX_ATTEMPTS, 5). */
  maxAttempts: number;
  /** The wait after the 1st failed attempt, doubled after each further one (EMAIL_RETRY_BASE_MS, 10 000), at most EMAIL_RETRY_MAX_MS (3 600 000). */
  retryBaseMillis: number;
  retryMaxMillis: number;
  /** Rows one worker claims at once (EMAIL_BATCH_SIZE, 64). */
  batchSize: number;
  /** SMTP connections of the pooled transport per mail server (EMAIL_SMTP_CONNECTIONS, 5). */
  smtpConnections: number;
};

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, minimum: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < minimum)
    throw new Error(`${name} must be an integer of at least ${minimum}, not ${JSON.stringify(raw)}`);
  return value;
}

export function readEmailDeliverySettings(env: NodeJS.ProcessEnv): EmailDeliverySettings {
  return {
    pollIntervalMillis: integer(env, 'EMAIL_POLL_INTERVAL_MS', 500, 0),
    leaseMillis: integer(env, 'EMAIL_LEASE_MS', 60_000, 1_000),
    maxAttempts: integer(env, 'EMAIL_MAX_ATTEMPTS', 5, 1),
    retryBaseMillis: integer(env, 'EMAIL_RETRY_BASE_MS', 10_000, 0),
    retryMaxMillis: integer(env, 'EMAIL_RETRY_MAX_MS', 3_600_000, 0),
    batchSize: integer(env, 'EMAIL_BATCH_SIZE', 64, 1),
    smtpConnections: integer(env, 'EMAIL_SMTP_CONNECTIONS', 5, 1),
  };
}

/** nodemailer, loaded at the first email sent (issue #20: a process that sends none never holds it). */
let nodemailerModule: Promise<typeof import('nodemailer')> | undefined;
const loadNodemailer = () => {
  nodemailerModule ??= import('nodemailer');
  return nodemailerModule;
};

/** A pooled nodemailer transport for an SMTP server, with timeouts so a dead server cannot hang a sender. */
async function createSmtpTransport(settings: SmtpSettings, pool?: { maxConnections: number }): Promise<Transporter> {
  const { default: nodemailer } = await loadNodemailer();
  return nodemailer.createTransport({
    host: settings.host,
    port: settings.port,
    ...(settings.servername ? { servername: settings.servername } : {}),
    secure: settings.secure ?? settings.port === 465,
    auth: settings.username ? { user: settings.username, pass: settings.password ?? '' } : undefined,
    ...(pool ? { pool: true, maxConnections: pool.maxConnections, maxMessages: Number.POSITIVE_INFINITY } : {}),
    ...timeouts,
  });
}

type Recipient = { id: string; display_name: string | null; primary_email: string; link: string | undefined };
type Shape = { subject: string; html: string; text: string };
const recipientFields = ['id', 'display_name', 'primary_email', 'link'] as const;
const hole = (field: string) => `\u0000${field}\u0000`;
/** React's escaping of text and attribute values. */
const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' })[character] as string);

/** The rendering with each of the recipient's (placeholder) values replaced by a hole. */
function holesOf(rendered: Shape, recipient: Recipient): Shape {
  const shape = { ...rendered };
  for (const field of recipientFields) {
    const value = recipient[field];
    if (!value) continue;
    shape.html = shape.html.replaceAll(escapeHtml(value), hole(field));
    shape.text = shape.text.replaceAll(value, hole(field));
    shape.subject = shape.subject.replaceAll(value, hole(field));
  }
  return shape;
}

/** The rendering of a recipient: the holes filled with their values. */
function fillIn(shape: Shape, recipient: Recipient): Shape {
  const filled = { ...shape };
  for (const field of recipientFields) {
    const value = recipient[field] ?? '';
    filled.html = filled.html.replaceAll(hole(field), escapeHtml(value));
    filled.text = filled.text.replaceAll(hole(field), value);
    filled.subject = filled.subject.replaceAll(hole(field), value);
  }
  return { ...filled, subject: headerText(filled.subject) };
}

const noServerReason = 'No email server is configured: the email is kept in the outbox and the server log only.';

type ProjectForEmail = Pick<Project, 'id' | 'display_name' | 'config'>;

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
  private readonly transports = new Map<string, Transporter>();
  private readonly batches = new Map<string, EmailSendBatchRow>();
  private readonly preparedBatches = new Map<string, Promise<Shape | undefined>>();
  private round: Promise<void> | undefined;
  private again = false;
  private stopped = false;

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
  }

  /** Emails queued or being sent, in every project (metrics). */
  unsentCount(): Promise<number> {
    return countUnsentEmailsAcrossProjects(this.db);
  }

  get delivery(): EmailDeliverySettings {
    return this.options.delivery ?? readEmailDeliverySettings({});
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
    const { rendered, fallbackReason } = await this.content.renderSystemEmail(project, template.kind, template.variables, user);
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
    const delivered = await this.attempt(project, settings, { ...row, attempts: 1 }, { subject, html, text });
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

  async countSent(projectId: ProjectId, since: Date): Promise<number> {
    return countSentEmails(this.db, projectId, since);
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
    if (change.status === 'queued') this.kick();
    return { updated };
  }

  /** One round: claims a batch of due rows and delivers them; the number claimed. */
  async deliverDue(log?: JobLog): Promise<number> {
    const claimed = await this.outbox.claimDueEmailsAcrossProjects(this.db, this.delivery.batchSize, this.delivery.leaseMillis);
    const projects = new Map<string, Promise<ProjectForEmail | undefined>>();
    await Promise.all(
      claimed.map((row) => {
        let project = projects.get(row.project_id);
        if (!project) {
          project = this.options.findProject?.(row.project_id) ?? Promise.resolve(undefined);
          projects.set(row.project_id, project);
        }
        return this.deliverClaimed(row, project).catch((error: unknown) =>
          log?.error({ err: error, outboxId: row.id }, 'email delivery failed'),
        );
      }),
    );
    return claimed.length;
  }

  /**
   * Rounds until nothing is due (or `budgetMillis` is spent). A call while a run is going joins it
   * (and makes it look once more), so the job and `kick` never run two loops in one instance.
   */
  deliverUntilIdle(log?: JobLog, budgetMillis = 10_000): Promise<void> {
    if (this.round) {
      this.again = true;
      return this.round;
    }
    this.round = (async () => {
      do {
        this.again = false;
        const until = Date.now() + budgetMillis;
        while (!this.stopped && (await this.deliverDue(log)) > 0 && Date.now() < until) {
          // next round
        }
      } while (this.again && !this.stopped);
    })().finally(() => {
      this.round = undefined;
    });
    return this.round;
  }

  /** Starts delivering now (send-email just queued rows); errors are logged, never thrown. */
  kick(): void {
    if (this.stopped || this.delivery.pollIntervalMillis === 0) return;
    this.deliverUntilIdle().catch((error: unknown) =>
      this.options.log('email delivery failed', { error: error instanceof Error ? error.message : String(error) }),
    );
  }

  /** Stops the worker (waits for the round in progress) and closes the pooled SMTP connections. */
  async close(): Promise<void> {
    this.stopped = true;
    await this.round?.catch(() => undefined);
    for (const transport of this.transports.values()) transport.close();
    this.transports.clear();
  }

  private async deliverClaimed(row: ClaimedEmail, projectLookup: Promise<ProjectForEmail | undefined>): Promise<void> {
    const project = await projectLookup;
    if (!project) return; // deleted meanwhile: its rows go with it
    let content = { subject: row.subject, html: row.html, text: row.text };
    if (row.batch_id) {
      const batch = await this.batch(project.id, row.batch_id);
      if (!batch) return;
      try {
        content = await this.renderBatchRow(project, batch, row);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        await this.outbox.settleEmailOutbox(this.db, project.id, row.id, row.attempts, { status: 'failed', error: message });
        return;
      }
    }
    const settings = resolveSmtpSettings(project, this.options.sharedSmtp);
    if (!settings) {
      await this.outbox.settleEmailOutbox(this.db, project.id, row.id, row.attempts, { status: 'skipped', reason: noServerReason });
      return;
    }
    await this.attempt(project, settings, row, content, row.batch_id !== null);
  }

  /**
   * A batch row rendered for its user. The sandbox renders a batch once per kind of recipient (with
   * or without a display name) with placeholder values, twice with different placeholders: when both
   * agree once the placeholders are blanked out, the template uses the recipient's fields only as
   * text (no branching or transforming on them) and each row is the rendering with its values put in
   * (HTML-escaped in the HTML); otherwise every row is rendered on its own.
   */
  private async renderBatchRow(project: ProjectForEmail, batch: EmailSendBatchRow, row: ClaimedEmail) {
    const recipient: Recipient = {
      id: row.user_id ?? '',
      display_name: row.user_display_name,
      primary_email: row.to_address,
      link: this.unsubscribeLinkFor(project.id, batch, row.user_id),
    };
    const key = `${batch.id}:${recipient.display_name === null}:${recipient.link === undefined}`;
    let prepared = this.preparedBatches.get(key);
    if (!prepared) {
      prepared = this.prepareBatch(project, batch, recipient).catch(() => undefined);
      if (this.preparedBatches.size >= 64) this.preparedBatches.delete(this.preparedBatches.keys().next().value as string);
      this.preparedBatches.set(key, prepared);
    }
    const shape = await prepared;
    if (shape) return fillIn(shape, recipient);
    const rendered = await this.renderFor(project, batch, recipient);
    return { subject: headerText(rendered.subject), html: rendered.html, text: rendered.text };
  }

  private unsubscribeLinkFor(projectId: string, batch: EmailSendBatchRow, userId: string | null): string | undefined {
    const unsubscribe = this.options.unsubscribe;
    if (batch.notification_category_id === transactionalCategoryId || !unsubscribe || !userId) return undefined;
    const code = signUnsubscribeCode(unsubscribe.serverSecret, { projectId, userId, categoryId: batch.notification_category_id });
    return `${unsubscribe.publicUrl}/api/v1/emails/unsubscribe-link?code=${code}`;
  }

  private async renderFor(project: ProjectForEmail, batch: EmailSendBatchRow, recipient: Recipient) {
    const rendered = await this.content.renderOrThrow({
      templateSource: batch.template_source,
      themeSource: batch.theme_source,
      props: {
        user: { id: recipient.id, display_name: recipient.display_name, primary_email: recipient.primary_email },
        project: { id: project.id, display_name: project.display_name },
        variables: batch.variables as Record<string, unknown>,
      },
      unsubscribeLink: recipient.link,
    });
    return { subject: batch.subject ?? rendered.subject ?? batch.fallback_subject, html: rendered.html, text: rendered.text };
  }

  /** The batch's rendering with holes for the recipient's fields, or undefined when the template depends on them otherwise. */
  private async prepareBatch(project: ProjectForEmail, batch: EmailSendBatchRow, like: Recipient): Promise<Shape | undefined> {
    const placeholders = (set: string): Recipient => ({
      id: `gh${set}id&"0`,
      display_name: like.display_name === null ? null : `gh${set}name&"1`,
      primary_email: `gh${set}mail&"2@example.com`,
      link: like.link === undefined ? undefined : `https://gh${set}.invalid/u&"3`,
    });
    const [a, b] = [placeholders('q7x'), placeholders('k2z')];
    const [renderedA, renderedB] = [await this.renderFor(project, batch, a), await this.renderFor(project, batch, b)];
    const shapeA = holesOf(renderedA, a);
    const shapeB = holesOf(renderedB, b);
    if (shapeA.html !== shapeB.html || shapeA.text !== shapeB.text || shapeA.subject !== shapeB.subject) return undefined;
    return shapeA;
  }

  private async batch(projectId: ProjectId, id: string): Promise<EmailSendBatchRow | undefined> {
    const cached = this.batches.get(id);
    if (cached) return cached;
    const batch = await findEmailSendBatch(this.db, projectId, id);
    if (batch) {
      if (this.batches.size >= 32) this.batches.delete(this.batches.keys().next().value as string);
      this.batches.set(id, batch);
    }
    return batch;
  }

  /** One SMTP attempt of a claimed row, then its settlement: sent, queued again after the backoff, or failed. */
  private async attempt(
    project: ProjectForEmail,
    settings: SmtpSettings,
    row: Pick<EmailOutboxRow, 'id' | 'attempts' | 'to_address' | 'kind'>,
    content: { subject: string; html: string; text: string },
    storeRendered = false,
  ): Promise<boolean> {
    const fields = { projectId: project.id, outboxId: row.id, kind: row.kind, to: row.to_address, subject: content.subject };
    try {
      await (await this.transport(settings)).sendMail({
        from: { name: settings.senderName, address: settings.senderEmail },
        to: row.to_address,
        messageId: outboxMessageId(row.id, settings.senderEmail),
        subject: content.subject,
        html: content.html,
        text: content.text,
      });
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      this.options.log('email delivery failed', { ...fields, host: settings.host, port: settings.port, error: detail });
      // What the project sees on the row: a fixed sentence for its own server (smtp-guard.ts).
      const message = smtpFailureText(settings, error);
      const { maxAttempts, retryBaseMillis, retryMaxMillis } = this.delivery;
      const wait = Math.min(retryMaxMillis, retryBaseMillis * 2 ** (row.attempts - 1));
      await this.record(
        () =>
          this.outbox.settleEmailOutbox(
            this.db,
            project.id,
            row.id,
            row.attempts,
            row.attempts >= maxAttempts
              ? { status: 'failed', error: message }
              : { status: 'queued', error: message, nextAttemptAt: new Date(Date.now() + wait) },
          ),
        fields,
      );
      return false;
    }
    await this.record(
      () =>
        this.outbox.settleEmailOutbox(this.db, project.id, row.id, row.attempts, {
          status: 'sent',
          at: new Date(),
          ...(storeRendered ? { rendered: content } : {}),
        }),
      fields,
    );
    return true;
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

  private async transport(given: SmtpSettings): Promise<Transporter> {
    await loadNodemailer();
    // A project's host is resolved and judged before every send; the pooled transport is keyed by the judged address.
    const settings = await connectableSmtp(given, this.options.resolve);
    const key = JSON.stringify([
      settings.host,
      settings.servername ?? '',
      settings.port,
      settings.secure ?? false,
      settings.username ?? '',
      settings.password ?? '',
    ]);
    let transport = this.transports.get(key);
    if (!transport) {
      transport = await createSmtpTransport(settings, { maxConnections: this.delivery.smtpConnections });
      const raced = this.transports.get(key);
      if (raced) {
        transport.close();
        return raced;
      }
      if (this.transports.size >= maxCachedTransports) {
        const oldest = this.transports.keys().next().value as string;
        this.transports.get(oldest)?.close();
        this.transports.delete(oldest);
      }
      this.transports.set(key, transport);
    }
    return transport;
  }

  // The email's fate is already decided; a failure to note it is logged rather than failing the caller.
  private async record(update: () => Promise<void>, fields: Record<string, unknown>): Promise<void> {
    try {
      await update();
    } catch (error) {
      this.options.log('email outbox update failed', { ...fields, error: error instanceof Error ? error.message : String(error) });
    }
  }
}
