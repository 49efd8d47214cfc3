import { defineModule } from '../../kernel/module.ts';
import { cacheInvalidationModule } from '../cache-invalidation/index.ts';
import { ApiKeyService } from './api-key.service.ts';

/** The projects' key sets (pck_/ssk_/sak_), verified by digest; the admin API serves them (modules/internal). */
export const apiKeysModule = defineModule({
  name: 'api-keys',
  requires: [cacheInvalidationModule],
  services: ({ cacheInvalidation }, { db }) => ({ apiKeys: new ApiKeyService(db, cacheInvalidation) }),
});
