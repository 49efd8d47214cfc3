import { isIP } from 'node:net';
import { type HostResolver, isRefusal, resolveOutboundTarget } from '../../../lib/outbound/outbound-target.ts';
import type { SmtpSettings } from './smtp-settings.ts';

/**
 * What a project learns when its own SMTP server fails (the test email's `error_message`, an outbox
 * row's `error`): whether the address was refused before connecting, or that the email could not
 * be delivered. Never the peer's greeting or error text, and never whether a port was closed or
 * silent: with those, "send a test email to host:port" would be a port scanner of the server's
 * network. The operator finds the details in the server log.
 */
export const smtpFailures = {
  notAllowed:
    "The email server's address is not allowed: its host must resolve to public addresses only (loopback only when the project allows localhost).",
  notDelivered: 'The email could not be delivered through this email server: check its host, port, username and password.',
} as const;

export class SmtpAddressNotAllowedError extends Error {
  constructor() {
    super(smtpFailures.notAllowed);
  }
}

/**
 * Settings to connect with: the shared server's as they are (the operator's choice, a LAN relay
 * included), a project's own with the host resolved once, every address judged by the project's
 * policy and the connection pinned to the judged address (the name is kept for TLS).
 */
export async function connectableSmtp(settings: SmtpSettings, resolve?: HostResolver): Promise<SmtpSettings> {
  if (!settings.policy) return settings;
  const target = await resolveOutboundTarget(settings.host, settings.policy, resolve);
  if (isRefusal(target)) throw new SmtpAddressNotAllowedError();
  const [first] = target.addresses;
  if (!first) throw new SmtpAddressNotAllowedError();
  return { ...settings, host: first.address, servername: isIP(settings.host) ? undefined : settings.host };
}

/** The sentence a project sees for a failure of its own server; the shared server's error text as it is. */
export function smtpFailureText(settings: SmtpSettings, error: unknown): string {
  if (error instanceof SmtpAddressNotAllowedError) return smtpFailures.notAllowed;
  if (settings.policy) return smtpFailures.notDelivered;
  return error instanceof Error && error.message ? error.message : smtpFailures.notDelivered;
}
