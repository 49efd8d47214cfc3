import { describe, expect, it } from 'vitest';
import { compactJson } from './compact-json.ts';

describe('compactJson', () => {
  it('keeps what fits on its line on one line and breaks the rest as JSON.stringify would', () => {
    const value = { short: [1, 2], nested: { long: 'x'.repeat(30), more: 'y'.repeat(30) }, gone: undefined };
    expect(compactJson(value, 60)).toBe(
      `{\n  "short": [1, 2],\n  "nested": {\n    "long": "${'x'.repeat(30)}",\n    "more": "${'y'.repeat(30)}"\n  }\n}`,
    );
    expect(JSON.parse(compactJson(value, 60))).toEqual(JSON.parse(JSON.stringify(value)));
    expect(compactJson({ a: [], b: {} })).toBe('{ "a": [], "b": {} }');
  });
});
