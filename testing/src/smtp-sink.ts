import type { AddressInfo } from 'node:net';
import { type AddressObject, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { SmtpSettings } from '@gatehouse/server/src/modules/messaging/email/smtp-settings.ts';

export type CapturedEmail = { to: string[]; from: string; subject: string; text: string; html: string; messageId: string };

export type SmtpSink = {
  port: number;
  /** Settings that deliver to this sink, as the given sender. */
  settings(senderEmail?: string): SmtpSettings;
  messages: CapturedEmail[];
  /** The first message (already received or still to come) that matches. */
  waitFor(predicate: (message: CapturedEmail) => boolean, timeoutMs?: number): Promise<CapturedEmail>;
  close(): Promise<void>;
};

/** A real SMTP server on a free local port that accepts any message (and any login) and keeps it parsed. */
export async function startSmtpSink(): Promise<SmtpSink> {
  const messages: CapturedEmail[] = [];
  const waiters = new Set<(message: CapturedEmail) => void>();

  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    // Plain-text AUTH is fine on a loopback test server; accept whatever credentials a test sets.
    allowInsecureAuth: true,
    logger: false,
    closeTimeout: 1_000,
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username ?? 'anonymous' });
    },
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (parsed) => {
          const message: CapturedEmail = {
            to: addresses(parsed.to),
            from: parsed.from?.text ?? '',
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: parsed.html || '',
            messageId: parsed.messageId ?? '',
          };
          messages.push(message);
          for (const waiter of waiters) waiter(message);
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.server.address() as AddressInfo;
  // A client that vanishes mid-message (a sender killed with -9) resets its connection: not the sink's failure.
  server.on('error', () => {});

  return {
    port,
    messages,
    settings: (senderEmail = 'sender@gatehouse.test') => ({
      host: '127.0.0.1',
      port,
      secure: false,
      senderName: 'Gatehouse Test',
      senderEmail,
    }),
    waitFor(predicate, timeoutMs = 10_000) {
      const received = messages.find(predicate);
      if (received) return Promise.resolve(received);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`no matching email within ${timeoutMs} ms (${messages.length} received)`));
        }, timeoutMs);
        const waiter = (message: CapturedEmail) => {
          if (!predicate(message)) return;
          clearTimeout(timer);
          waiters.delete(waiter);
          resolve(message);
        };
        waiters.add(waiter);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A real SMTP server on a free local port that takes every message and only counts it, with its
 * recipients (no parsing): for measuring a sender, not the sink (the benchmark).
 */
export async function startCountingSmtpSink(): Promise<{
  port: number;
  received: () => number;
  /** How many messages each recipient got. */
  recipients: Map<string, number>;
  close: () => Promise<void>;
}> {
  let received = 0;
  const recipients = new Map<string, number>();
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    allowInsecureAuth: true,
    logger: false,
    closeTimeout: 1_000,
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username ?? 'anonymous' });
    },
    onData(stream, session, callback) {
      stream.on('end', () => {
        received++;
        for (const { address } of session.envelope.rcptTo) recipients.set(address, (recipients.get(address) ?? 0) + 1);
        callback();
      });
      stream.resume();
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.on('error', () => {});
  return {
    port: (server.server.address() as AddressInfo).port,
    received: () => received,
    recipients,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function addresses(field: AddressObject | AddressObject[] | undefined): string[] {
  const objects = field === undefined ? [] : Array.isArray(field) ? field : [field];
  return objects.flatMap((object) => object.value.map((entry) => entry.address ?? '')).filter((address) => address !== '');
}
