import type { FastifyReply } from 'fastify';
import type { AuditLogEntry } from '../audit-log/index.ts';

const columns = [
  'id',
  'occurred_at_millis',
  'action',
  'team_id',
  'actor_type',
  'actor_id',
  'target_type',
  'target_id',
  'ip_address',
  'user_agent',
  'details',
] as const satisfies readonly (keyof AuditLogEntry)[];

export const csvHeader = columns.join(',');

/** RFC 4180 quoting; a cell starting with =, +, - or @ gets a leading ' so a spreadsheet does not run it as a formula. */
function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const toCsvRow = (entry: AuditLogEntry): string => columns.map((column) => cell(entry[column])).join(',');

/** An export's entries as an NDJSON (default) or CSV attachment named `<name>.ndjson` / `<name>.csv`. */
export async function sendExport(
  reply: FastifyReply,
  entries: AsyncIterable<AuditLogEntry>,
  format: 'ndjson' | 'csv' | undefined,
  name: string,
) {
  const csv = format === 'csv';
  const lines: string[] = csv ? [csvHeader] : [];
  for await (const entry of entries) lines.push(csv ? toCsvRow(entry) : JSON.stringify(entry));
  const body = lines.length > 0 ? `${lines.join('\n')}\n` : '';
  return reply
    .status(200)
    .type(csv ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8')
    .header('content-disposition', `attachment; filename="${name}.${csv ? 'csv' : 'ndjson'}"`)
    .send(body);
}
