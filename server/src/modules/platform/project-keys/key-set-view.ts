import type { components } from '@gatehouse/protocol/api-types';
import type { ApiKeySetRow } from './api-key-set.table.ts';
import { type ProjectKeyKind, projectKeyKinds } from './key-format.ts';

/** A key set as the dashboard sees it: each key only by its last four characters. */
export function toInternalApiKey(row: ApiKeySetRow): components['schemas']['InternalApiKey'] {
  const keys: Partial<Record<ProjectKeyKind, { last_four: string }>> = {};
  for (const kind of projectKeyKinds) {
    const lastFour = row[`${kind}_last_four`];
    if (lastFour) keys[kind] = { last_four: lastFour };
  }
  return {
    id: row.id,
    description: row.description,
    expires_at_millis: row.expires_at.getTime(),
    ...(row.manually_revoked_at ? { manually_revoked_at_millis: row.manually_revoked_at.getTime() } : {}),
    created_at_millis: row.created_at.getTime(),
    ...keys,
  };
}
