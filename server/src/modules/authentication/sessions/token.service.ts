import type { AccessTokenService } from '../access-tokens/index.ts';
import type { Project } from '../../../tenancy/project.ts';
import type { SessionService } from './session.service.ts';

/** Refresh: a live session yields a fresh access token with the user's current claims. */
export class TokenService {
  constructor(
    private readonly sessions: SessionService,
    private readonly accessTokens: AccessTokenService,
  ) {}

  async refresh(project: Project, refreshToken: string, ip: string | null): Promise<{ accessToken: string; refreshToken: string }> {
    const outcome = await this.sessions.refresh(project, refreshToken, ip);
    const accessToken = await this.accessTokens.mint(project, outcome.user, outcome.session.id);
    return { accessToken, refreshToken: outcome.refreshToken };
  }
}
