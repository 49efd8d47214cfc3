import { type SettingName, readIntegerSetting } from '../../../config/settings.ts';
import { defineModule } from '../../../kernel/module.ts';
import { projectsModule } from '../../platform/projects/index.ts';
import { EmailContentService } from './email-content.service.ts';
import { emailContentHandlers } from './email-content.routes.ts';
import { type EmailLog, EmailService } from './email.service.ts';
import { type EmailDeliverySettings, readEmailDeliverySettings } from './email-delivery-settings.ts';
import * as migration0020 from './migrations/0020-email-drafts.ts';
import * as migration0021 from './migrations/0021-email-outbox-skipped.ts';
import * as migration0022 from './migrations/0022-email-delivery.ts';
import * as migration0023 from './migrations/0023-email-outbox-lean-insert.ts';
import { defaultRenderLimits, EmailRenderer, type RenderLimits } from './rendering/email-renderer.ts';
import { readSmtpSettings, type SmtpSettings } from './smtp-settings.ts';
import { readDevelopmentMode } from '../../../config/secrets-in-logs.ts';
import type { HostResolver } from '../../../lib/outbound/outbound-target.ts';
import { resealOutboxContent } from './email-outbox-sealing.ts';

export type EmailSettings = {
  /** The shared mail server (SMTP_*); without one, emails reach only the outbox and the log. */
  sharedSmtp: SmtpSettings | undefined;
  /**
   * Where every email is also written (the server log; a test collects them). The subject and text
   * (with its links and codes) are logged only in development mode; the message names only the
   * recipient, the kind and the outbox row.
   */
  log: EmailLog;
  /** The sandbox's limits per render (EMAIL_RENDER_TIMEOUT_MS, EMAIL_RENDER_MEMORY_MB, EMAIL_RENDER_THREADS). */
  renderLimits: RenderLimits;
  /** The outbox worker (EMAIL_POLL_INTERVAL_MS, EMAIL_LEASE_MS, EMAIL_MAX_ATTEMPTS, EMAIL_RETRY_*_MS, EMAIL_BATCH_SIZE, EMAIL_SMTP_CONNECTIONS). */
  delivery: EmailDeliverySettings;
  /** How a project's own SMTP host is resolved (the system resolver; a test points names where it wants). */
  resolve?: HostResolver;
};

/** How often rows written before sealing existed (or under a rotated key) are looked for. */
const outboxSealingIntervalMillis = 60_000;

/** Development mode: the email as a person would read it, subject and text with its links and codes. */
const developmentEmailLog: EmailLog = (message, fields) =>
  console.log(fields.subject === undefined ? message : `${message}: ${String(fields.subject)}`, fields.text ?? '');

function readRenderLimits(env: NodeJS.ProcessEnv): RenderLimits {
  const read = (name: SettingName, fallback: number, max: number): number =>
    readIntegerSetting(env, name, { min: 1, max, expected: `an integer from 1 to ${max}` }) ?? fallback;
  return {
    timeoutMs: read('EMAIL_RENDER_TIMEOUT_MS', defaultRenderLimits.timeoutMs, 60_000),
    memoryBytes: read('EMAIL_RENDER_MEMORY_MB', defaultRenderLimits.memoryBytes / 1024 / 1024, 1024) * 1024 * 1024,
    size: read('EMAIL_RENDER_THREADS', defaultRenderLimits.size, 64),
    maxOutputLength: defaultRenderLimits.maxOutputLength,
  };
}

/**
 * Emails: themes, templates and drafts (TSX rendered in a sandbox), the platform's own emails
 * rendered through them, kept in the outbox, logged, and delivered by the project's or the shared
 * SMTP server.
 */
export const emailModule = defineModule({
  name: 'email',
  requires: [projectsModule],
  migrations: {
    '0020-email-drafts': migration0020,
    '0021-email-outbox-skipped': migration0021,
    '0022-email-delivery': migration0022,
    '0023-email-outbox-lean-insert': migration0023,
  },
  settings: (env): EmailSettings => ({
    sharedSmtp: readSmtpSettings(env),
    log: readDevelopmentMode(env) ? developmentEmailLog : (message) => console.log(message),
    renderLimits: readRenderLimits(env),
    delivery: readEmailDeliverySettings(env),
  }),
  services: ({ projects }, { db, settings, publicUrl, serverSecret, cipher }) => {
    const emailContent = new EmailContentService(db, projects, new EmailRenderer(settings.renderLimits));
    const email = new EmailService(db, emailContent, {
      sharedSmtp: settings.sharedSmtp,
      log: settings.log,
      delivery: settings.delivery,
      findProject: (id) => projects.find(id),
      unsubscribe: { publicUrl, serverSecret },
      cipher,
      resolve: settings.resolve,
    });
    return { email, emailContent };
  },
  handlers: emailContentHandlers,
  jobs: ({ email }, { db, cipher }) => [
    {
      name: 'email delivery',
      intervalMillis: email.delivery.pollIntervalMillis,
      run: (log) => email.deliverUntilIdle(log),
      stop: () => email.close(),
    },
    {
      // Seals the content of rows written before sealing existed, or under a key since rotated (the upgrade's migration).
      name: 'email outbox sealing',
      intervalMillis: outboxSealingIntervalMillis,
      run: async (log) => {
        const { sealed, unopenable } = await resealOutboxContent(db, cipher);
        if (sealed > 0) log.info({ sealed }, 'email outbox rows sealed');
        if (unopenable > 0)
          log.error({ unopenable }, 'email outbox rows sealed under a key no longer configured (ENCRYPTION_KEYS_PREVIOUS?)');
      },
    },
  ],
});

// The module's public surface: what other modules may import (through this file only).
export { builtInThemes } from './built-in-emails.ts';
export type { EmailContentService, ThemeChoice } from './email-content.service.ts';
export { simpleStatusOf } from './email-outbox.table.ts';
export type { EmailOutboxRow } from './email-outbox.table.ts';
export type { EmailService } from './email.service.ts';
export { readUnsubscribeCode } from './unsubscribe-code.ts';
