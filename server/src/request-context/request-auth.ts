import {
  AccessTypeWithoutProjectIdError,
  AdminAccessTokenExpiredError,
  AdminAccessTokenIsNotAdminError,
  AdminAuthenticationRequiredError,
  AccessTokenExpiredError,
  AnonymousAuthenticationNotAllowedError,
  BranchDoesNotExistError,
  CurrentProjectNotFoundError,
  InvalidAccessTypeError,
  InvalidProjectForAccessTokenError,
  InvalidPublishableClientKeyError,
  InvalidSecretServerKeyError,
  InvalidSuperSecretAdminKeyError,
  ProjectKeyWithoutAccessTypeError,
  PublishableClientKeyRequiredForProjectError,
  RestrictedUserNotAllowedError,
  ServerAuthenticationRequiredError,
  UnparsableAccessTokenError,
  UnparsableAdminAccessTokenError,
} from '@gatehouse/protocol/errors';
import { PlainHttpError } from '../lib/plain-http-error.ts';
import type { Project } from '../tenancy/project.ts';
import { internalProjectId, type ProjectId } from '../tenancy/project-id.ts';
import type { UserRecord } from '../tenancy/user-record.ts';
import type { AccessTokenClaims } from './access-token-claims.ts';
import { type AccessType, isAccessType } from './access-type.ts';
import type { AuthHeaders } from './read-headers.ts';

/** Stack's wording for an admin access token whose `internal` user has been deleted. */
export const deletedAdminUserMessage =
  'The user associated with the admin access token is no longer valid. Please refresh the admin access token and try again.';

/** The user of a verified access token, as stored now (a deleted user's token no longer authenticates). */
export type AuthenticatedUser = { claims: AccessTokenClaims; record: UserRecord };

export type RequestAuth = {
  project: Project;
  accessType: AccessType;
  user?: AuthenticatedUser;
  refreshToken?: string;
  /** The `internal` user behind an admin access token, when that is how the call authenticated. */
  adminUserId?: string;
  /** When the admin key given is a scoped token (the webhook portal's): the spec paths it may call. */
  scopedTo?: readonly string[];
  /** With a user access token: whether the session it was issued for still exists (read on demand, see `requireLiveSession`). */
  sessionAlive?: () => Promise<boolean>;
  /**
   * Instead of `user`, for an operation that reads the token's user itself (`readsTokenUser`): the
   * verified claims, the user not read yet. The operation confirms the user still exists in its own
   * statement and answers `tokenUserGoneError()` when not, as authentication would have.
   */
  unreadUser?: AccessTokenClaims;
};

/** What a verified access token of a user who no longer exists is answered. */
export const tokenUserGoneError = () => new UnparsableAccessTokenError('The user of this access token no longer exists.');

export type ProjectKeyKind = 'publishable_client_key' | 'secret_server_key' | 'super_secret_admin_key';

/**
 * What authenticating a request asks of the features, wired by the module that owns request
 * authentication: this folder sits below every feature and imports none.
 */
export interface RequestAuthPorts {
  findProject(projectId: string): Promise<Project | undefined>;
  isValidKey(projectId: ProjectId, kind: ProjectKeyKind, key: string): Promise<boolean>;
  /** Verifies an access token's signature, expiry and claims (throws the catalogued token errors). */
  verifyAccessToken(token: string): Promise<AccessTokenClaims>;
  /** Whether a user of the `internal` project manages a project (through its owner team). */
  managesProject(internalUserId: string, project: Project): Promise<boolean>;
  loadUser(projectId: ProjectId, userId: string): Promise<UserRecord | undefined>;
  /** A token a feature issued in place of the admin key (the webhook portal's): the spec path prefixes it may call. */
  scopedAdminKey?(projectId: string, key: string): readonly string[] | undefined;
  /** Whether the project's session (an access token's `refresh_token_id`) exists and has not expired. */
  isSessionAlive?(projectId: ProjectId, sessionId: string): Promise<boolean>;
}

/**
 * Turns the authentication headers into `{project, accessType, user?}` or the catalogued error,
 * checking in the order of docs/protocol/overview.md §2 so answers match Stack's for the same request.
 */
export class RequestAuthenticator {
  constructor(private readonly ports: RequestAuthPorts) {}

  /** `deferUserRead`: the operation reads the token's user itself (`unreadUser` instead of `user`). */
  async resolve(headers: AuthHeaders, options: { deferUserRead?: boolean } = {}): Promise<RequestAuth | null> {
    const hasCredentials = Boolean(
      headers.publishableClientKey || headers.secretServerKey || headers.superSecretAdminKey || headers.adminAccessToken,
    );
    if (headers.accessType === undefined) {
      if (hasCredentials) throw new ProjectKeyWithoutAccessTypeError();
      return null;
    }
    if (!isAccessType(headers.accessType)) throw new InvalidAccessTypeError();
    const accessType = headers.accessType;
    if (headers.projectId === undefined) throw new AccessTypeWithoutProjectIdError({ request_type: accessType });
    const projectId = headers.projectId.toLowerCase();

    const claims = headers.accessToken ? await this.verifyUserToken(headers, projectId) : undefined;

    const project = await this.ports.findProject(projectId);
    if (!project) throw new CurrentProjectNotFoundError({ project_id: headers.projectId });
    const user = claims && !options.deferUserRead ? await this.currentUser(project, claims) : undefined;

    let adminUserId: string | undefined;
    let scopedTo: readonly string[] | undefined;
    if (headers.adminAccessToken) adminUserId = await this.verifyAdminToken(headers.adminAccessToken, project);
    else scopedTo = await this.checkKeys(headers, accessType, project);

    if (headers.branchId !== undefined && headers.branchId !== 'main') throw new BranchDoesNotExistError({ branch_id: headers.branchId });
    const isSessionAlive = this.ports.isSessionAlive;
    const sessionId = user?.claims.refresh_token_id;
    const sessionAlive = isSessionAlive && sessionId ? () => isSessionAlive(project.id, sessionId) : undefined;
    return {
      project,
      accessType,
      user,
      refreshToken: headers.refreshToken,
      adminUserId,
      ...(scopedTo ? { scopedTo } : {}),
      ...(sessionAlive ? { sessionAlive } : {}),
      ...(claims && !user ? { unreadUser: claims } : {}),
    };
  }

  private async verifyUserToken(headers: AuthHeaders, projectId: string): Promise<AccessTokenClaims> {
    const claims = await this.ports.verifyAccessToken(headers.accessToken as string);
    if (claims.project_id !== projectId) {
      throw new InvalidProjectForAccessTokenError({ expected_project_id: projectId, actual_project_id: claims.project_id });
    }
    // Allowing anonymous users implies allowing restricted ones.
    if (claims.is_anonymous && !headers.allowAnonymousUser) throw new AnonymousAuthenticationNotAllowedError();
    if (claims.is_restricted && !claims.is_anonymous && !headers.allowRestrictedUser && !headers.allowAnonymousUser) {
      throw new RestrictedUserNotAllowedError({ restricted_reason: claims.restricted_reason ?? { type: 'restricted_by_administrator' } });
    }
    return claims;
  }

  /**
   * For an operation that left the token's user to itself (`unreadUser`) and fails for another reason:
   * throws what authentication would have answered first when that user no longer exists.
   */
  async confirmUnreadUser(auth: RequestAuth | null | undefined): Promise<void> {
    if (auth?.unreadUser && !(await this.ports.loadUser(auth.project.id, auth.unreadUser.sub))) throw tokenUserGoneError();
  }

  private async currentUser(project: Project, claims: AccessTokenClaims): Promise<AuthenticatedUser> {
    const record = await this.ports.loadUser(project.id, claims.sub);
    if (!record) throw tokenUserGoneError();
    return { claims, record };
  }

  private async checkKeys(headers: AuthHeaders, accessType: AccessType, project: Project): Promise<readonly string[] | undefined> {
    const projectId = project.id;
    if (accessType === 'client') {
      if (headers.publishableClientKey !== undefined) {
        if (!(await this.ports.isValidKey(projectId, 'publishable_client_key', headers.publishableClientKey))) {
          throw new InvalidPublishableClientKeyError({ project_id: projectId });
        }
      } else if (project.config.project.requirePublishableClientKey) {
        throw new PublishableClientKeyRequiredForProjectError({ project_id: projectId });
      }
    } else if (accessType === 'server') {
      if (headers.secretServerKey === undefined) throw new ServerAuthenticationRequiredError();
      if (!(await this.ports.isValidKey(projectId, 'secret_server_key', headers.secretServerKey))) {
        throw new InvalidSecretServerKeyError({ project_id: projectId });
      }
    } else {
      if (headers.superSecretAdminKey === undefined) throw new AdminAuthenticationRequiredError();
      if (!(await this.ports.isValidKey(projectId, 'super_secret_admin_key', headers.superSecretAdminKey))) {
        const scope = this.ports.scopedAdminKey?.(projectId, headers.superSecretAdminKey);
        if (!scope) throw new InvalidSuperSecretAdminKeyError({ project_id: projectId });
        return scope;
      }
    }
  }

  /** An admin access token is an `internal` user's access token; it replaces the keys. */
  private async verifyAdminToken(token: string, project: Project): Promise<string> {
    let claims: AccessTokenClaims;
    try {
      claims = await this.ports.verifyAccessToken(token);
    } catch (error) {
      if (error instanceof AccessTokenExpiredError) {
        throw new AdminAccessTokenExpiredError({ expired_at_millis: error.details.expired_at_millis });
      }
      throw new UnparsableAdminAccessTokenError();
    }
    if (claims.project_id !== 'internal' || claims.is_restricted) throw new AdminAccessTokenIsNotAdminError();
    if (!(await this.ports.managesProject(claims.sub, project))) {
      // A member of the owner team exists, so the user is looked up only when the check fails:
      // a deleted user's still-valid token gets the protocol's plain-text 401 (docs/protocol/overview.md §4).
      if (!(await this.ports.loadUser(internalProjectId, claims.sub))) throw new PlainHttpError(401, deletedAdminUserMessage);
      throw new AdminAccessTokenIsNotAdminError();
    }
    return claims.sub;
  }
}
