import { defineModule } from '../../kernel/module.ts';
import { signingKeysModule } from '../signing-keys/index.ts';
import { AccessTokenService } from './access-token.service.ts';

/** ES256 access tokens: signed with the project's derived keys, verified (and cached) per request. */
export const accessTokensModule = defineModule({
  name: 'access-tokens',
  requires: [signingKeysModule],
  services: ({ signingKeys }, { publicUrl }) => ({ accessTokens: new AccessTokenService(signingKeys, publicUrl) }),
});
