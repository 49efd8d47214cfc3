import type { components } from '@gatehouse/protocol/api-types';
import type { ContactChannelRow } from '../users/index.ts';

export const toContactChannel = (row: ContactChannelRow): components['schemas']['ContactChannel'] => ({
  id: row.id,
  user_id: row.user_id,
  type: 'email',
  value: row.value,
  used_for_auth: row.used_for_auth,
  is_verified: row.is_verified,
  is_primary: row.is_primary,
});
