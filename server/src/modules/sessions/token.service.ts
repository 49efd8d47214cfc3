import { RefreshTokenNotFoundOrExpiredError } from '@gatehouse/client/errors';
import type { AccessTokenService } from '../auth/access-token.service.ts';
import type { Project } from '../projects/project.service.ts';
import { accessTokenSubject } from '../sign-in/sign-in.service.ts';
import type { UserService } from '../users/user.service.ts';
import type { SessionService } from './session.service.ts';

/** Refresh: a live session yields a fresh access token with the user's current claims. */
export class TokenService {
  constructor(
    private readonly sessions: SessionService,
    private readonly users: UserService,
    private readonly accessTokens: AccessTokenService,
  ) {}

  async refresh(project: Project, refreshToken: string, ip: string | null): Promise<{ accessToken: string; refreshToken: string }> {
    const outcome = await this.sessions.refresh(project, refreshToken, ip);
    const user = await this.users.find(project.id, outcome.session.user_id);
    if (!user) throw new RefreshTokenNotFoundOrExpiredError();
    const accessToken = await this.accessTokens.sign(accessTokenSubject(project, user, outcome.session.id));
    return { accessToken, refreshToken: outcome.refreshToken };
  }
}
