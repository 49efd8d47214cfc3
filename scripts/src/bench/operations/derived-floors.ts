import type { CapturedStatement } from './statement-capture.ts';

/** A floor derived from what our handler sent: its reads folded into one statement, replayed with the same values. */
export type DerivedFloor = {
  /** undefined: the handler read nothing (the floor is the authentication alone). */
  statement?: string;
  values: unknown[];
  /** What our handler sent for one warm request: reads (folded into the floor), writes and locks, transaction control. */
  counts: { reads: number; writes: number; control: number };
};

const control = /^\s*(begin|commit|rollback|savepoint|release|set|reset|listen|unlisten|notify)\b/i;
const read = /^\s*(select|with)\b/i;
/** A select that locks or writes (`with … insert`, `for update`, advisory locks) is not a read the floor may replay. */
const writesOrLocks =
  /\b(insert\s+into|update\s+\S+\s+set|delete\s+from|for\s+(no\s+key\s+)?update|for\s+(key\s+)?share|pg_advisory\w*|nextval|pg_notify)\b/i;

/**
 * Folds the reads of one request into one statement, so the floor pays one round trip where ours may
 * pay several: one read is replayed as it is; several become
 * `select (select json_agg(r) from (<read 1>) r) as r1, …`, their placeholders renumbered and their
 * values concatenated. Writes, locks and transaction control are counted, not replayed (the floor
 * answers a read; what ours writes on a read is reported beside the ratio as part of its cost).
 */
export function deriveFloor(statements: CapturedStatement[]): DerivedFloor {
  const counts = { reads: 0, writes: 0, control: 0 };
  const reads: CapturedStatement[] = [];
  for (const statement of statements) {
    if (control.test(statement.text)) counts.control++;
    else if (read.test(statement.text) && !writesOrLocks.test(statement.text)) {
      counts.reads++;
      reads.push(statement);
    } else counts.writes++;
  }
  if (reads.length === 0) return { values: [], counts };
  if (reads.length === 1) {
    const [only] = reads as [CapturedStatement];
    return { statement: stripTerminator(only.text), values: only.values, counts };
  }
  const values: unknown[] = [];
  const columns = reads.map((statement, index) => {
    const offset = values.length;
    values.push(...statement.values);
    const text = stripTerminator(statement.text).replace(/\$(\d+)\b/g, (_, number: string) => `$${Number(number) + offset}`);
    return `(select coalesce(json_agg(r), '[]'::json) from (${text}) as r) as r${index + 1}`;
  });
  return { statement: `select ${columns.join(', ')}`, values, counts };
}

const stripTerminator = (text: string) => text.trim().replace(/;$/, '');
