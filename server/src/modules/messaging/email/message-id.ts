/**
 * The `Message-ID` of an outbox row: `<row id@sender's domain>`, the same on every attempt. Delivery
 * is at least once (a worker that dies after the mail server took a message but before the row was
 * settled sends it again), so a copy sent twice carries one id and a recipient's mail system can
 * recognise it (RFC 5322 §3.6.4: the id is unique to one message, made from a unique value and a
 * domain the sender speaks for).
 */
export function outboxMessageId(outboxId: string, senderEmail: string): string {
  const at = senderEmail.lastIndexOf('@');
  const domain = at < 0 ? '' : senderEmail.slice(at + 1).toLowerCase();
  // A sender address is the project's input: only a plain host name goes into a header.
  const safeDomain = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/.test(domain) ? domain : 'gatehouse.invalid';
  return `<${outboxId}@${safeDomain}>`;
}
