import { defineModule } from '../../../kernel/module.ts';
import { auditLogModule } from '../../administration/audit-log/index.ts';
import { oauthModule } from '../oauth/index.ts';
import { permissionsModule } from '../../organisations/permissions/index.ts';
import { projectsModule } from '../../platform/projects/index.ts';
import { teamsModule } from '../../organisations/teams/index.ts';
import { usersModule } from '../../identity/users/index.ts';
import * as migration0110 from './migrations/0110-sso.ts';
import { SsoAccounts } from './sso-accounts.ts';
import { SsoConnectionService } from './sso-connection.service.ts';
import { readSsoSettings, type SsoSettings } from './sso-settings.ts';
import { SsoSignInService } from './sso-sign-in.service.ts';
import { deleteExpiredSsoRowsAcrossProjects } from './sso.repository.ts';
import { ssoHandlers } from './sso.routes.ts';
import { TeamDomainService } from './team-domain.service.ts';

/**
 * Enterprise SSO: teams' SAML 2.0 and OpenID Connect connections (JIT sign-in ending in an OAuth
 * authorization code for the app), teams' verified email domains, home-realm discovery, and the
 * enrolment of new users on a verified domain.
 */
export const ssoModule = defineModule({
  name: 'sso',
  migrations: { '0110-sso': migration0110 },
  requires: [projectsModule, usersModule, teamsModule, permissionsModule, oauthModule, auditLogModule],
  settings: (env): SsoSettings => readSsoSettings(env),
  services: ({ projects, users, teams, permissions, oauthFlows, auditLog }, { db, settings, cipher, publicUrl }) => {
    const teamDomains = new TeamDomainService(db, teams, settings, auditLog);
    users.created.subscribe((trx, project, user) => teamDomains.enrol(trx, project, user));
    const accounts = new SsoAccounts(db, users, teams, permissions, auditLog);
    return {
      ssoConnections: new SsoConnectionService(db, teams, cipher, publicUrl, auditLog, permissions, settings),
      ssoSignIn: new SsoSignInService(db, projects, oauthFlows, accounts, cipher, settings, publicUrl, auditLog),
      teamDomains,
    };
  },
  handlers: (services) => ssoHandlers(services),
  jobs: (_services, { db }) => [
    {
      // Sign-ins the IdP never answered and remembered assertion ids past their validity.
      name: 'sso expired rows',
      intervalMillis: 10 * 60_000,
      run: async (log) => {
        const removed = await deleteExpiredSsoRowsAcrossProjects(db, new Date());
        if (removed.flows + removed.assertions > 0) log.info(removed, 'expired SSO sign-ins and assertion ids removed');
      },
    },
  ],
});

export type { SsoConnectionService } from './sso-connection.service.ts';
export { mappedPermissions } from './sso-accounts.ts';
export { type TeamDomainService, toTeamDomainView } from './team-domain.service.ts';
