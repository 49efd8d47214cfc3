import { randomUUID } from 'node:crypto';
import nodemailer, { type Transporter } from 'nodemailer';
import type { DbHandle } from '../../db/handle.ts';
import type { ProjectId } from '../../tenancy/project-id.ts';
import type { EmailOutboxRow } from './email-outbox.table.ts';
import type { Project } from '../../tenancy/project.ts';
import type { SystemEmailKind, SystemEmailVariables } from './built-in-emails.ts';
import type { EmailContentService } from './email-content.service.ts';
import {
  countUnsentEmailsAcrossProjects,
  insertEmailOutbox,
  listEmailOutbox,
  markEmailOutboxFailed,
  markEmailOutboxSent,
} from './email-outbox.repository.ts';
import { resolveSmtpSettings, type SmtpSettings } from './smtp-settings.ts';

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

// Short timeouts: sending happens inside a request, and a dead mail server must not hold it for minutes.
const timeouts = { connectionTimeout: 5_000, greetingTimeout: 5_000, socketTimeout: 10_000, dnsTimeout: 5_000 };
// Transports are cheap but keyed by credentials; bound the cache so rotating passwords cannot grow it.
const maxCachedTransports = 100;

/** A nodemailer transport for an SMTP server, with timeouts so a dead server cannot hang a request. */
function createSmtpTransport(settings: SmtpSettings): Transporter {
  return nodemailer.createTransport({
    host: settings.host,
    port: settings.port,
    secure: settings.secure ?? settings.port === 465,
    auth: settings.username ? { user: settings.username, pass: settings.password ?? '' } : undefined,
    ...timeouts,
  });
}

/**
 * Renders an email, records it in the outbox, logs it, then delivers it when a mail server is
 * configured. The outbox row comes first so that without a mail server the email can still be read.
 */
export class EmailService {
  private readonly transports = new Map<string, Transporter>();

  constructor(
    private readonly db: DbHandle,
    private readonly content: EmailContentService,
    private readonly options: { sharedSmtp?: SmtpSettings; log: EmailLog },
  ) {}

  /** Emails recorded but neither sent nor failed yet, in every project (metrics). */
  unsentCount(): Promise<number> {
    return countUnsentEmailsAcrossProjects(this.db);
  }

  /**
   * Renders one of the platform's own emails with the project's template of its kind inside the
   * selected theme (see EmailContentService.renderSystemEmail). Throws only when the outbox row
   * cannot be written; a delivery failure is recorded on the row.
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
   * Records an already rendered email in the outbox, logs it, and delivers it when a mail server is
   * configured (send-email's emails come this way).
   */
  async deliver(
    project: Pick<Project, 'id' | 'display_name' | 'config'>,
    email: { to: string; kind: string; subject: string; html: string; text: string },
  ): Promise<{ outboxId: string; delivered: boolean }> {
    const { html, text } = email;
    const subject = headerText(email.subject);
    const row = await insertEmailOutbox(this.db, {
      id: randomUUID(),
      project_id: project.id,
      to_address: email.to,
      kind: email.kind,
      subject,
      html,
      text,
      sent_at: null,
      error: null,
    });
    const fields = { projectId: project.id, outboxId: row.id, kind: email.kind, to: email.to, subject };
    this.options.log(`email to ${email.to}: ${subject}`, { ...fields, text });

    const settings = resolveSmtpSettings(project, this.options.sharedSmtp);
    if (!settings) return { outboxId: row.id, delivered: false };

    try {
      await this.transport(settings).sendMail({
        from: { name: settings.senderName, address: settings.senderEmail },
        to: email.to,
        subject,
        html,
        text,
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.options.log('email delivery failed', { ...fields, host: settings.host, port: settings.port, error: message });
      await this.record(() => markEmailOutboxFailed(this.db, project.id, row.id, message), fields);
      return { outboxId: row.id, delivered: false };
    }
    await this.record(() => markEmailOutboxSent(this.db, project.id, row.id, new Date()), fields);
    return { outboxId: row.id, delivered: true };
  }

  /** An email not sent on purpose, kept in the outbox with the reason. */
  async recordSkipped(projectId: ProjectId, email: { to: string; kind: string; subject: string; reason: string }): Promise<string> {
    const row = await insertEmailOutbox(this.db, {
      id: randomUUID(),
      project_id: projectId,
      to_address: email.to,
      kind: email.kind,
      subject: headerText(email.subject),
      html: '',
      text: '',
      sent_at: null,
      error: null,
      skipped_reason: email.reason,
    });
    return row.id;
  }

  /** The project's outbox, newest first. */
  async listOutbox(projectId: ProjectId, limit = 50): Promise<EmailOutboxRow[]> {
    return listEmailOutbox(this.db, projectId, limit);
  }

  /** Closes the cached transports (they hold no pooled connections, so this only releases them). */
  close(): void {
    for (const transport of this.transports.values()) transport.close();
    this.transports.clear();
  }

  /** Sends one test email through the given server (not cached); the server's error text, if any. */
  async sendTest(settings: SmtpSettings, to: string): Promise<{ success: boolean; error_message?: string }> {
    const transport = createSmtpTransport(settings);
    try {
      await transport.sendMail({
        from: { name: settings.senderName, address: settings.senderEmail },
        to,
        subject: 'Test email',
        text: 'This test email shows that your email server settings work.',
      });
      return { success: true };
    } catch (error) {
      const message = error instanceof Error ? error.message : '';
      return { success: false, error_message: message || 'Email test error not specified' };
    } finally {
      transport.close();
    }
  }

  private transport(settings: SmtpSettings): Transporter {
    const key = JSON.stringify([settings.host, settings.port, settings.secure ?? false, settings.username ?? '', settings.password ?? '']);
    let transport = this.transports.get(key);
    if (!transport) {
      transport = createSmtpTransport(settings);
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
