import type { AddressInfo } from 'node:net';
import dns2 from 'dns2';

const { Packet } = dns2;

/**
 * A local DNS server (dns2, UDP on a free loopback port) answering TXT queries from a table the
 * test changes: publish a record, remove it, and point the server's domain verification here.
 */
export async function startTxtDnsServer() {
  const records = new Map<string, string[]>();
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const values = question && question.type === Packet.TYPE.TXT ? records.get(question.name.toLowerCase()) : undefined;
      for (const value of values ?? []) {
        response.answers.push({ name: question?.name ?? '', type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 1, data: value } as never);
      }
      send(response);
    },
  });
  await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const port = (server.addresses().udp as AddressInfo).port;
  return {
    /** `127.0.0.1:<port>`, as DOMAIN_VERIFICATION_DNS_SERVERS takes it. */
    address: `127.0.0.1:${port}`,
    publish: (name: string, value: string) => records.set(name.toLowerCase(), [...(records.get(name.toLowerCase()) ?? []), value]),
    remove: (name: string) => records.delete(name.toLowerCase()),
    close: () => server.close(),
  };
}
