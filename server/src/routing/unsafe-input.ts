/**
 * Input that no field of the API accepts, whatever its schema: text Postgres cannot store (the NUL
 * character U+0000, refused in `text` and `jsonb`), text that is not Unicode (an unpaired UTF-16
 * surrogate, which would be stored as U+FFFD, silently changing the data), and JSON nested deeper
 * than any legitimate value (recursion over it would exhaust the stack). Each is answered as
 * SCHEMA_ERROR, before the schema and long before the database (see the spec's description).
 */
export const maxJsonDepth = 64;

export type UnsafeInput = { instancePath: string; message: string };

// A NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the NUL character is what it looks for
const unsafeText = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const escapePointer = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1');

/** The first unsafe place in a parsed request part (walked without recursion), or undefined. */
export function findUnsafeInput(value: unknown): UnsafeInput | undefined {
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value, path: '', depth: 0 }];
  while (stack.length > 0) {
    const { value: current, path, depth } = stack.pop() as { value: unknown; path: string; depth: number };
    if (typeof current === 'string') {
      if (unsafeText.test(current)) return { instancePath: path, message: describeText(current) };
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (depth >= maxJsonDepth)
      return { instancePath: path, message: `must not nest arrays and objects more than ${maxJsonDepth} levels deep` };
    if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index--)
        stack.push({ value: current[index], path: `${path}/${index}`, depth: depth + 1 });
      continue;
    }
    // Buffers (octet-stream bodies) are bytes, not text.
    if (ArrayBuffer.isView(current)) continue;
    const entries = Object.entries(current);
    for (let index = entries.length - 1; index >= 0; index--) {
      const [key, item] = entries[index] as [string, unknown];
      if (unsafeText.test(key))
        return {
          instancePath: `${path}/${escapePointer(key)}`,
          message: `has a field name that ${describeText(key).replace(/^must not contain/, 'contains')}`,
        };
      stack.push({ value: item, path: `${path}/${escapePointer(key)}`, depth: depth + 1 });
    }
  }
  return undefined;
}

function describeText(text: string): string {
  return text.includes('\u0000')
    ? 'must not contain the NUL character (U+0000)'
    : 'must not contain an unpaired UTF-16 surrogate (text must be valid Unicode)';
}
