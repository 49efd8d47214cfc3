import { defineModule } from '../../../kernel/module.ts';
import { SigningKeysService } from './signing-keys.service.ts';

/** ES256 key pairs per project and audience, derived from the server secret (never stored). */
export const signingKeysModule = defineModule({
  name: 'signing-keys',
  services: (_needs, { serverSecret }) => ({ signingKeys: new SigningKeysService(serverSecret) }),
});

// The module's public surface: what other modules may import (through this file only).
export { compactSigningInput, signCompactJws } from './sign-compact-jws.ts';
export type { SigningKeysService } from './signing-keys.service.ts';
