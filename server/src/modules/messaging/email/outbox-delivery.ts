import type { Transporter } from 'nodemailer';
import type { DbHandle } from '../../../db/handle.ts';
import type { JobLog } from '../../../kernel/background-job.ts';
import { DeliveryRounds } from '../../../kernel/delivery-rounds.ts';
import type { HostResolver } from '../../../lib/outbound/outbound-target.ts';
import type { BatchRendering, ProjectForEmail } from './batch-rendering.ts';
import { type EmailDeliverySettings, readEmailDeliverySettings } from './email-delivery-settings.ts';
import type { ClaimedEmail, OutboxOutcome } from './email-outbox.repository.ts';
import type { EmailOutboxRow } from './email-outbox.table.ts';
import type { OutboxStore } from './email-outbox-sealing.ts';
import { outboxMessageId } from './message-id.ts';
import { OutboxSettler } from './outbox-settler.ts';
import type { RenderedEmail } from './recipient-holes.ts';
import { smtpFailureText } from './smtp-guard.ts';
import { resolveSmtpSettings, type SmtpSettings } from './smtp-settings.ts';
import { SmtpTransports } from './smtp-transports.ts';

export type EmailLog = (message: string, fields: Record<string, unknown>) => void;

export const noServerReason = 'No email server is configured: the email is kept in the outbox and the server log only.';

type Attempted = Pick<EmailOutboxRow, 'id' | 'attempts' | 'to_address' | 'kind'>;

/**
 * The outbox's delivery: claims due rows (`FOR UPDATE SKIP LOCKED`, leased), renders send-email
 * rows, sends over pooled SMTP connections and settles the outcomes in groups (OutboxSettler).
 * Up to `claimsInFlight` claimed batches are on the wire at once; several instances never take the
 * same row while its lease holds, and a row whose worker died is taken over once the lease ran out.
 */
export class OutboxDelivery {
  readonly settings: Required<EmailDeliverySettings>;
  private readonly transports: SmtpTransports;
  private readonly settler: OutboxSettler;
  private readonly rounds: DeliveryRounds;

  constructor(
    private readonly db: DbHandle,
    private readonly store: OutboxStore,
    private readonly rendering: BatchRendering,
    private readonly options: {
      sharedSmtp?: SmtpSettings;
      log: EmailLog;
      delivery?: EmailDeliverySettings;
      findProject?: (id: string) => Promise<ProjectForEmail | undefined>;
      resolve?: HostResolver;
    },
  ) {
    this.settings = { ...readEmailDeliverySettings({}), ...options.delivery };
    this.transports = new SmtpTransports(this.settings.smtpConnections, options.resolve);
    this.settler = new OutboxSettler(db, store);
    this.rounds = new DeliveryRounds(
      (log) => this.deliverDue(log),
      () => this.settings.claimsInFlight,
    );
  }

  /** One round: claims a batch of due rows, delivers them and settles them; the number claimed. */
  async deliverDue(log?: JobLog): Promise<number> {
    const { batchSize, leaseMillis } = this.settings;
    const claimed = await this.store.claimDueEmailsAcrossProjects(this.db, batchSize, leaseMillis);
    const projects = new Map<string, Promise<ProjectForEmail | undefined>>();
    const transports = new Map<string, Promise<Transporter>>();
    await Promise.all(
      claimed.map((row) => {
        let project = projects.get(row.project_id);
        if (!project) {
          project = this.options.findProject?.(row.project_id) ?? Promise.resolve(undefined);
          projects.set(row.project_id, project);
        }
        return this.deliverClaimed(row, project, transports).catch((error: unknown) =>
          log?.error({ err: error, outboxId: row.id }, 'email delivery failed'),
        );
      }),
    );
    return claimed.length;
  }

  /**
   * Rounds until nothing is due (or `budgetMillis` is spent), `claimsInFlight` of them side by side.
   * A call while a run is going joins it (and makes it look once more), so the job and `kick` never
   * run two runs in one instance.
   */
  deliverUntilIdle(log?: JobLog, budgetMillis = 10_000): Promise<void> {
    return this.rounds.run(log, budgetMillis);
  }

  /** Starts delivering now (rows were just queued); errors are logged, never thrown. */
  kick(): void {
    if (this.rounds.isStopped || this.settings.pollIntervalMillis === 0) return;
    this.deliverUntilIdle().catch((error: unknown) =>
      this.options.log('email delivery failed', { error: error instanceof Error ? error.message : String(error) }),
    );
  }

  /** Stops the worker (waits for the round in progress) and closes the pooled SMTP connections. */
  async close(): Promise<void> {
    await this.rounds.stop();
    this.transports.close();
  }

  /** One SMTP attempt of a claimed row, then its settlement: sent, queued again after the backoff, or failed. */
  async attempt(
    project: ProjectForEmail,
    settings: SmtpSettings,
    row: Attempted,
    content: RenderedEmail,
    options: { storeRendered?: boolean; transport?: Promise<Transporter> } = {},
  ): Promise<boolean> {
    const fields = { projectId: project.id, outboxId: row.id, kind: row.kind, to: row.to_address, subject: content.subject };
    try {
      const transport = await (options.transport ?? this.transports.get(settings));
      await transport.sendMail({
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
      const { maxAttempts, retryBaseMillis, retryMaxMillis } = this.settings;
      const wait = Math.min(retryMaxMillis, retryBaseMillis * 2 ** (row.attempts - 1));
      await this.settle(
        project,
        row,
        row.attempts >= maxAttempts ? { status: 'failed', error: message } : { status: 'queued', error: message, waitMillis: wait },
        fields,
      );
      return false;
    }
    await this.settle(project, row, { status: 'sent', at: new Date(), ...(options.storeRendered ? { rendered: content } : {}) }, fields);
    return true;
  }

  private async deliverClaimed(
    row: ClaimedEmail,
    projectLookup: Promise<ProjectForEmail | undefined>,
    transports: Map<string, Promise<Transporter>>,
  ): Promise<void> {
    const project = await projectLookup;
    if (!project) return; // deleted meanwhile: its rows go with it
    let content: RenderedEmail = { subject: row.subject, html: row.html, text: row.text };
    if (row.batch_id) {
      const batch = await this.rendering.batch(project.id, row.batch_id);
      if (!batch) return;
      try {
        content = await this.rendering.render(project, batch, row);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        await this.settler.settle({
          projectId: project.id,
          id: row.id,
          attempt: row.attempts,
          outcome: { status: 'failed', error: message },
        });
        return;
      }
    }
    const settings = resolveSmtpSettings(project, this.options.sharedSmtp);
    if (!settings) {
      await this.settler.settle({
        projectId: project.id,
        id: row.id,
        attempt: row.attempts,
        outcome: { status: 'skipped', reason: noServerReason },
      });
      return;
    }
    // One transport lookup (and one judgement of the project's host) per project and claim.
    let transport = transports.get(project.id);
    if (!transport) {
      transport = this.transports.get(settings);
      transport.catch(() => undefined); // each row's attempt reports it
      transports.set(project.id, transport);
    }
    await this.attempt(project, settings, row, content, { storeRendered: row.batch_id !== null, transport });
  }

  // The email's fate is already decided; a failure to note it is logged rather than failing the caller.
  private async settle(project: ProjectForEmail, row: Attempted, outcome: OutboxOutcome, fields: Record<string, unknown>): Promise<void> {
    try {
      await this.settler.settle({ projectId: project.id, id: row.id, attempt: row.attempts, outcome });
    } catch (error) {
      this.options.log('email outbox update failed', { ...fields, error: error instanceof Error ? error.message : String(error) });
    }
  }
}
