import type { Kysely } from 'kysely';
import type { ServerEnv } from './config/env.ts';
import type { Database } from './db/schema.ts';
import { ApiKeyService } from './modules/api-keys/api-key.service.ts';
import { AccessTokenService } from './modules/auth/access-token.service.ts';
import { type ProjectOwnershipCheck, RequestAuthService } from './modules/auth/request-auth.service.ts';
import { ProjectService } from './modules/projects/project.service.ts';
import { SigningKeysService } from './modules/signing-keys/signing-keys.service.ts';

/**
 * Until teams exist (the project-administration issue adds owner-team membership), no user of the
 * `internal` project manages any project, so every admin access token is refused as not admin.
 */
const noOwnershipYet: ProjectOwnershipCheck = async () => false;

/** Every service, wired once per app; handlers and tests reach them through `app.services`. */
export function createServices(db: Kysely<Database>, env: Pick<ServerEnv, 'publicUrl'>, serverSecret: Buffer) {
  const projects = new ProjectService(db);
  const apiKeys = new ApiKeyService(db);
  const signingKeys = new SigningKeysService(serverSecret);
  const accessTokens = new AccessTokenService(signingKeys, env.publicUrl);
  const requestAuth = new RequestAuthService(projects, apiKeys, accessTokens, noOwnershipYet);
  return { db, projects, apiKeys, signingKeys, accessTokens, requestAuth };
}

export type Services = ReturnType<typeof createServices>;
