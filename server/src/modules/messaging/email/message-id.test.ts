import { describe, expect, it } from 'vitest';
import { outboxMessageId } from './message-id.ts';

describe('outboxMessageId', () => {
  it("is the row id at the sender's domain, and never puts anything but a host name in the header", () => {
    const id = '6f1c2a7e-1d3b-4c55-9a0e-3b2f1e4d5c6a';
    expect(outboxMessageId(id, 'Auth@Mail.Acme.test')).toBe(`<${id}@mail.acme.test>`);
    expect(outboxMessageId(id, 'auth@acme.test\r\nBcc: victim')).toBe(`<${id}@gatehouse.invalid>`);
    expect(outboxMessageId(id, 'auth@[127.0.0.1]')).toBe(`<${id}@gatehouse.invalid>`);
    expect(outboxMessageId(id, 'no-at-sign')).toBe(`<${id}@gatehouse.invalid>`);
  });
});
