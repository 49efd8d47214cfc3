import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the stand-in answers the next requests. */
export type StandInMode =
  | { kind: 'answer'; text: string }
  | { kind: 'error'; status: number }
  | { kind: 'hang' }
  | { kind: 'stall-body' }
  | { kind: 'not-a-completion' };
export type ProviderRequest = { method: string; path: string; headers: IncomingHttpHeaders; body: Record<string, unknown> };

/**
 * A local HTTP server standing in for an OpenAI-compatible provider (`POST /v1/chat/completions`), so tests drive
 * the real `openai` SDK with no network: it answers a chat completion in OpenAI's shape, an error status with
 * OpenAI's error envelope, never (a hang), headers without the rest of the body, or a 200 that is no completion,
 * and records every request.
 */
export class AiProviderStandIn {
  readonly requests: ProviderRequest[] = [];
  mode: StandInMode = { kind: 'answer', text: 'Hello from the stand-in.' };
  private server: Server | undefined;
  private readonly held = new Set<ServerResponse>();
  url = '';

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        this.requests.push({
          method: request.method ?? '',
          path: (request.url ?? '').split('?')[0] as string,
          headers: request.headers,
          body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
        });
        this.answer(response);
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  private answer(response: ServerResponse): void {
    const mode = this.mode;
    if (mode.kind === 'hang') {
      this.held.add(response);
      return;
    }
    if (mode.kind === 'stall-body') {
      this.held.add(response);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"id":"chatcmpl-stalled","object":"chat.completion",');
      return;
    }
    if (mode.kind === 'error') {
      response.writeHead(mode.status, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: 'Stand-in failure', type: 'server_error', code: null } }));
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    if (mode.kind === 'not-a-completion') {
      response.end(JSON.stringify({ hello: 'world' }));
      return;
    }
    response.end(
      JSON.stringify({
        id: 'chatcmpl-standin',
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: 'stand-in',
        choices: [{ index: 0, message: { role: 'assistant', content: mode.text, refusal: null }, finish_reason: 'stop', logprobs: null }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      }),
    );
  }

  async close(): Promise<void> {
    for (const response of this.held) response.destroy();
    this.held.clear();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
