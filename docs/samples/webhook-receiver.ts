// #region receiver
import { createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';

// The endpoint's signing secret (`whsec_…`), shown once when you add the endpoint in the dashboard.
const webhook = new Webhook(process.env.GATEHOUSE_WEBHOOK_SECRET!);

type GatehouseEvent = { type: string; data: Record<string, unknown> };

createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    let event: GatehouseEvent;
    try {
      // Checks the signature and the timestamp (5 minutes' tolerance) over the raw body.
      event = webhook.verify(body, {
        'webhook-id': String(request.headers['webhook-id']),
        'webhook-timestamp': String(request.headers['webhook-timestamp']),
        'webhook-signature': String(request.headers['webhook-signature']),
      }) as GatehouseEvent;
    } catch {
      response.writeHead(400).end();
      return;
    }
    // A message may arrive more than once: `webhook-id` is the same each time.
    if (event.type === 'user.created') console.log('new user', event.data.id);
    response.writeHead(204).end();
  });
}).listen(4000);
// #endregion receiver
