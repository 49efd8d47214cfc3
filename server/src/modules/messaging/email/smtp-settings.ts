import { readIntegerSetting, settingNumber } from '../../../config/settings.ts';
import type { OutboundPolicy } from '../../../lib/outbound/address-policy.ts';
import type { Project } from '../../../tenancy/project.ts';

/** Where and as whom an email is sent. */
export type SmtpSettings = {
  host: string;
  port: number;
  username?: string;
  password?: string;
  /** Implicit TLS from the first byte (usually port 465); otherwise STARTTLS is used when offered. */
  secure?: boolean;
  senderName: string;
  senderEmail: string;
  /** Set on a project's own server (not the operator's shared one): what its address may be (smtp-guard.ts). */
  policy?: OutboundPolicy;
  /** The name TLS verifies when `host` is the address the name was pinned to. */
  servername?: string;
};

/**
 * The project's own mail server when it has opted out of the shared one and configured enough to
 * send; otherwise the server's shared settings. `undefined`: no mail server, outbox and log only.
 */
export function resolveSmtpSettings(
  project: Pick<Project, 'display_name' | 'config'>,
  shared: SmtpSettings | undefined,
): SmtpSettings | undefined {
  const own = project.config.emails.server;
  if (own.isShared === false && own.host && own.port && own.senderEmail) {
    return {
      host: own.host,
      port: own.port,
      username: own.username || undefined,
      password: own.password || undefined,
      // The config has no TLS switch; 465 is the port that speaks TLS from the start.
      secure: own.port === 465,
      senderName: own.senderName || project.display_name,
      senderEmail: own.senderEmail,
      policy: { allowLoopback: project.config.domains.allowLocalhost },
    };
  }
  return shared;
}

/** The shared mail server (SMTP_*), used by projects on the shared server; none without SMTP_HOST. */
export function readSmtpSettings(env: NodeJS.ProcessEnv): SmtpSettings | undefined {
  if (!env.SMTP_HOST) return undefined;
  const port = readIntegerSetting(env, 'SMTP_PORT', { min: 1, max: 65535, expected: 'a port number' }) ?? settingNumber('SMTP_PORT');
  return {
    host: env.SMTP_HOST,
    port,
    username: env.SMTP_USERNAME || undefined,
    password: env.SMTP_PASSWORD || undefined,
    secure: env.SMTP_SECURE === 'true',
    senderName: env.SMTP_SENDER_NAME || 'Gatehouse',
    senderEmail: env.SMTP_SENDER_EMAIL || 'noreply@localhost',
  };
}
