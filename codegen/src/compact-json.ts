/**
 * JSON as `JSON.stringify(value, null, 2)` writes it, except that an object or array that fits on
 * its line (within `width` characters) stays on one line: generated tables stay readable and short.
 */
export function compactJson(value: unknown, width = 140, indent = '', prefix = 0): string {
  const flat = oneLine(value);
  if (value === null || typeof value !== 'object' || indent.length + prefix + flat.length <= width) return flat;
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => inner + compactJson(item, width, inner)).join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(value).filter(([, item]) => item !== undefined);
  if (entries.length === 0) return '{}';
  const lines = entries.map(([key, item]) => {
    const name = `${JSON.stringify(key)}: `;
    return `${inner}${name}${compactJson(item, width, inner, name.length)}`;
  });
  return `{\n${lines.join(',\n')}\n${indent}}`;
}

function oneLine(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(oneLine).join(', ')}]`;
  const entries = Object.entries(value).filter(([, item]) => item !== undefined);
  return entries.length === 0 ? '{}' : `{ ${entries.map(([key, item]) => `${JSON.stringify(key)}: ${oneLine(item)}`).join(', ')} }`;
}
