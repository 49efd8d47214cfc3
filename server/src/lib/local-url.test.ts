import { describe, expect, it } from 'vitest';
import { isLocalHost } from './local-url.ts';

describe('isLocalHost', () => {
  it.each(['localhost', 'LOCALHOST', 'app.localhost', 'a.b.localhost', '127.0.0.1', '127.1.2.3', '127.255.255.255', '[::1]'])(
    '%s is local',
    (host) => expect(isLocalHost(host)).toBe(true),
  );
  it.each(['localhost.example.com', 'mylocalhost', '128.0.0.1', '10.0.0.1', '127.0.0.1.example.com', 'example.com', '[::2]'])(
    '%s is not local',
    (host) => expect(isLocalHost(host)).toBe(false),
  );
  it('reads hosts as URL parses them (127.1 is 127.0.0.1)', () => {
    expect(isLocalHost(new URL('http://127.1:3000/').hostname)).toBe(true);
    expect(isLocalHost(new URL('http://sub.localhost:8080/').hostname)).toBe(true);
  });
});
