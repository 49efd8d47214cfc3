import { defineModule } from '../../kernel/module.ts';
import { type EmailLog, EmailService } from './email.service.ts';
import { readSmtpSettings, type SmtpSettings } from './smtp-settings.ts';
import { readDevelopmentMode } from '../../config/secrets-in-logs.ts';

export type EmailSettings = {
  /** The shared mail server (SMTP_*); without one, emails reach only the outbox and the log. */
  sharedSmtp: SmtpSettings | undefined;
  /**
   * Where every email is also written (the server log; a test collects them). The text (with its
   * links and codes) is logged only in development mode.
   */
  log: EmailLog;
};

/** Emails: rendered, kept in the outbox, logged, and delivered by the project's or the shared SMTP server. */
export const emailModule = defineModule({
  name: 'email',
  settings: (env): EmailSettings => ({
    sharedSmtp: readSmtpSettings(env),
    log: readDevelopmentMode(env) ? (message, fields) => console.log(message, fields.text ?? '') : (message) => console.log(message),
  }),
  services: (_needs, { db, settings }) => ({ email: new EmailService(db, { sharedSmtp: settings.sharedSmtp, log: settings.log }) }),
});
