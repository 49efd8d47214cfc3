import { defineModule } from '../../../kernel/module.ts';
import { cacheInvalidationModule } from '../cache-invalidation/index.ts';
import { ApiKeyService } from './api-key.service.ts';

/** The projects' key sets (pck_/ssk_/sak_), verified by digest; the admin API serves them (modules/administration/admin-api). */
export const apiKeysModule = defineModule({
  name: 'api-keys',
  requires: [cacheInvalidationModule],
  services: ({ cacheInvalidation }, { db }) => ({ apiKeys: new ApiKeyService(db, cacheInvalidation) }),
});

// The module's public surface: what other modules may import (through this file only).
export type { ApiKeyService } from './api-key.service.ts';
export { toInternalApiKey } from './key-set-view.ts';
