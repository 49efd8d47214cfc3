import type { EmailFigures } from './email-delivery.ts';
import type { WebhookDeliveryFigures } from './webhook-delivery.ts';

/** Issue #38's delivery targets, judged in the bench's output: one PASS/FAIL line each. */
export const deliveryTargets = {
  identicalBodyEmailsPerSecond: 1_000,
  perRecipientOfPool: 0.8,
  webhookDeliveriesPerSecond: 1_500,
  webhookIdleP50Millis: 50,
} as const;

type Verdict = { line: string; passed: boolean };
const verdict = (passed: boolean, text: string): Verdict => ({ passed, line: `${passed ? 'PASS' : 'FAIL'} ${text}` });

export function emailVerdicts(emails: EmailFigures): Verdict[] {
  const verdicts = [
    verdict(
      emails.perSecond >= deliveryTargets.identicalBodyEmailsPerSecond && emails.delivered === emails.users,
      `email drain, identical body (html send, rendered once per batch): ${emails.perSecond} emails/s to the local SMTP sink (${emails.delivered} of ${emails.users} in ${emails.deliverySeconds} s); target >= ${deliveryTargets.identicalBodyEmailsPerSecond}/s`,
    ),
    verdict(emails.duplicates === 0, `email duplicates at the sink over the drains: ${emails.duplicates}; target 0`),
  ];
  const perRecipient = emails.perRecipient;
  if (perRecipient) {
    const ratio = perRecipient.poolRendersPerSecond > 0 ? perRecipient.drainPerSecond / perRecipient.poolRendersPerSecond : 0;
    verdicts.push(
      verdict(
        ratio >= deliveryTargets.perRecipientOfPool && perRecipient.delivered === perRecipient.users,
        `email drain, per-recipient template (every row rendered in the sandbox): ${perRecipient.drainPerSecond} emails/s (${perRecipient.delivered} of ${perRecipient.users} in ${perRecipient.drainSeconds} s) against the render pool alone ${perRecipient.poolRendersPerSecond} renders/s (${perRecipient.poolRenders} renders) = ${ratio.toFixed(2)}x; target >= ${deliveryTargets.perRecipientOfPool}x`,
      ),
    );
  }
  return verdicts;
}

export function webhookVerdicts(webhooks: WebhookDeliveryFigures): Verdict[] {
  return [
    verdict(
      webhooks.perSecond >= deliveryTargets.webhookDeliveriesPerSecond,
      `webhook drain of a ${webhooks.backlog} backlog by two instances: ${webhooks.perSecond} deliveries/s to the local receiver; target >= ${deliveryTargets.webhookDeliveriesPerSecond}/s`,
    ),
    verdict(
      webhooks.latencyP50 <= deliveryTargets.webhookIdleP50Millis,
      `webhook event-to-delivery at idle (one instance, events 50 ms apart): p50 ${webhooks.latencyP50} ms (p99 ${webhooks.latencyP99} ms); target p50 <= ${deliveryTargets.webhookIdleP50Millis} ms`,
    ),
    verdict(
      webhooks.duplicates === 0,
      `webhooks received twice (same webhook-id) across the two instances: ${webhooks.duplicates}; target 0`,
    ),
  ];
}
