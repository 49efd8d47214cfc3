import { defineModule } from '../../../kernel/module.ts';
import { cacheInvalidationModule } from '../../platform/cache-invalidation/index.ts';
import { verifiedTokensTopic } from '../../platform/cache-invalidation/index.ts';
import { signingKeysModule } from '../signing-keys/index.ts';
import { AccessTokenService } from './access-token.service.ts';

/** ES256 access tokens: signed with the project's derived keys, verified (and cached) per request. */
export const accessTokensModule = defineModule({
  name: 'access-tokens',
  requires: [signingKeysModule, cacheInvalidationModule],
  services: ({ signingKeys, cacheInvalidation }, { publicUrl }) => {
    const accessTokens = new AccessTokenService(signingKeys, publicUrl);
    cacheInvalidation.on(verifiedTokensTopic, (projectId) => accessTokens.forgetVerified(projectId));
    return { accessTokens };
  },
});

// The module's public surface: what other modules may import (through this file only).
export { accessTokenLifetimeSeconds } from './access-token.service.ts';
export type { AccessTokenService, CustomClaimsSource } from './access-token.service.ts';
