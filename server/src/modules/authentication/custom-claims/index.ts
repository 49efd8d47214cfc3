import { defineModule } from '../../../kernel/module.ts';
import { permissionsModule } from '../../organisations/permissions/index.ts';
import { usersModule } from '../../identity/users/index.ts';
import { accessTokensModule } from '../access-tokens/index.ts';
import { CustomClaimsService } from './custom-claims.service.ts';

/**
 * Custom claims (Gatehouse's own): templates of CEL expressions over the user, the selected team and the user's project
 * permissions, evaluated into the project's access tokens (`auth.customClaims`) and an OAuth application's tokens.
 */
export const customClaimsModule = defineModule({
  name: 'custom-claims',
  requires: [usersModule, permissionsModule, accessTokensModule],
  services: ({ users, permissions, accessTokens }) => {
    const customClaims = new CustomClaimsService(users, permissions);
    accessTokens.customClaims.provide((project, userId) =>
      customClaims.claimsFor(project, project.config.auth.customClaims, userId, 'auth.customClaims'),
    );
    return { customClaims };
  },
});

// The module's public surface: what other modules may import (through this file only).
export { assertValidClaimsTemplate } from './custom-claims.service.ts';
export type { CustomClaimsService } from './custom-claims.service.ts';
export { maxClaimsBytes, maxTemplateBytes, reservedClaimNames } from './claims-template.ts';
