import type { Transporter } from 'nodemailer';
import type { HostResolver } from '../../../lib/outbound/outbound-target.ts';
import { connectableSmtp } from './smtp-guard.ts';
import type { SmtpSettings } from './smtp-settings.ts';

// Short timeouts: a dead mail server must not hold a request (or a worker's claim) for minutes.
const timeouts = { connectionTimeout: 5_000, greetingTimeout: 5_000, socketTimeout: 10_000, dnsTimeout: 5_000 };
// Transports are cheap but keyed by credentials; bound the cache so rotating passwords cannot grow it.
const maxCachedTransports = 100;

/** nodemailer, loaded at the first email sent (issue #20: a process that sends none never holds it). */
let nodemailerModule: Promise<typeof import('nodemailer')> | undefined;
const loadNodemailer = () => {
  nodemailerModule ??= import('nodemailer');
  return nodemailerModule;
};

/** A nodemailer transport for an SMTP server (pooled when asked), with timeouts so a dead server cannot hang a sender. */
export async function createSmtpTransport(settings: SmtpSettings, pool?: { maxConnections: number }): Promise<Transporter> {
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

/**
 * Pooled transports, one per mail server and credentials, kept between sends (each keeps up to
 * `maxConnections` SMTP connections open and queues messages over them).
 */
export class SmtpTransports {
  private readonly transports = new Map<string, Transporter>();

  constructor(
    private readonly maxConnections: number,
    private readonly resolve?: HostResolver,
  ) {}

  async get(given: SmtpSettings): Promise<Transporter> {
    await loadNodemailer();
    // A project's host is resolved and judged before every send; the pooled transport is keyed by the judged address.
    const settings = await connectableSmtp(given, this.resolve);
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
      transport = await createSmtpTransport(settings, { maxConnections: this.maxConnections });
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

  close(): void {
    for (const transport of this.transports.values()) transport.close();
    this.transports.clear();
  }
}
