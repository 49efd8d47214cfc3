import { defineModule } from '../../../kernel/module.ts';
import { auditLogModule } from '../audit-log/index.ts';
import { scimModule } from '../scim/index.ts';
import { ssoModule } from '../../authentication/sso/index.ts';
import { projectsModule } from '../../platform/projects/index.ts';
import { teamsModule } from '../../organisations/teams/index.ts';
import * as migration0341 from './migrations/0341-sso-setup-links.ts';
import { SsoSetupLinkService } from './sso-setup-links.service.ts';
import { SsoSetupSessionService } from './sso-setup-session.service.ts';
import { ssoSetupHandlers } from './sso-setup.routes.ts';

/**
 * Self-serve SSO setup (as WorkOS's admin portal): one-time links the project owner hands a team's IT admin,
 * exchanged for a setup session that configures that team's SSO connection, domains and SCIM directory only.
 */
export const ssoSetupModule = defineModule({
  name: 'sso-setup',
  migrations: { '0341-sso-setup-links': migration0341 },
  requires: [projectsModule, teamsModule, ssoModule, scimModule, auditLogModule],
  services: ({ projects, teams, ssoConnections, teamDomains, scimDirectories, auditLog }, { db, publicUrl }) => ({
    ssoSetupLinks: new SsoSetupLinkService(db, teams, auditLog, publicUrl),
    ssoSetupSessions: new SsoSetupSessionService(projects, teams, ssoConnections, teamDomains, scimDirectories),
  }),
  handlers: ssoSetupHandlers,
});
