import { BotChallengeFailedError, BotChallengeRequiredError } from '@gatehouse/protocol/errors';
import type { Project } from '../../../tenancy/project.ts';
import type { BotChallengeSettings } from './bot-challenge-settings.ts';
import { siteverify } from './siteverify.ts';

/** The bot-challenge fields Stack's SDKs send with a sign-up (`BotChallengeFields`). */
export type BotChallengeFields = {
  bot_challenge_token?: string;
  bot_challenge_phase?: 'invisible' | 'visible';
  bot_challenge_unavailable?: 'true';
};

/**
 * What the challenge said about a sign-up, kept for its bot risk score: `off` (the project has none),
 * `passed`, `failed` (the provider rejected the token), `missing` (no token), `unavailable` (the
 * provider could not be asked, or the client could not load the widget, and the project fails open).
 */
export type BotChallengeResult = 'off' | 'passed' | 'failed' | 'missing' | 'unavailable';

/** A verified but not yet enforced challenge (plain JSON: the OAuth flow stores it with its state). */
export type BotChallengeCheck = {
  result: BotChallengeResult;
  /** For a failed token: the phase it was sent in, and what the provider said. */
  phase?: 'invisible' | 'visible';
  errorCodes?: string[];
};

/**
 * Verifies a sign-up's bot challenge with the project's provider (`auth.botChallenge`, described in
 * the spec's `ConfigBotChallenge`). `invisible`: every outcome is recorded, none refuses. `required`:
 * no token, or an invisible-phase token the provider rejects, asks for a visible challenge
 * (BOT_CHALLENGE_REQUIRED, on which Stack's SDKs show the widget and retry); a visible token it
 * rejects is BOT_CHALLENGE_FAILED; a provider that cannot be asked follows `onProviderOutage`.
 */
export class BotChallengeService {
  constructor(
    private readonly settings: BotChallengeSettings,
    private readonly log: (message: string) => void = (message) => console.warn(message),
  ) {}

  /** The widget a sign-up page renders, or undefined when the project has no challenge. */
  widget(project: Project) {
    const challenge = project.config.auth.botChallenge;
    if (challenge.mode === 'off') return undefined;
    return {
      provider: challenge.provider,
      mode: challenge.mode,
      site_key: challenge.siteKey,
      script_url: this.settings.scriptUrls[challenge.provider],
    };
  }

  /** Verifies and enforces at once: the result, or the refusal a `required` challenge calls for. */
  async judge(project: Project, fields: BotChallengeFields, remoteIp: string): Promise<BotChallengeResult> {
    return this.enforce(project, await this.check(project, fields, remoteIp));
  }

  /**
   * Verifies without refusing, for a sign-up decided later (the OAuth flow keeps the check from
   * authorize to its callback, where `enforce` runs once it knows a user would be created).
   */
  async check(project: Project, fields: BotChallengeFields, remoteIp: string): Promise<BotChallengeCheck> {
    const challenge = project.config.auth.botChallenge;
    if (challenge.mode === 'off') return { result: 'off' };
    const outage = (why: string): BotChallengeCheck => {
      this.log(
        `Bot challenge of project ${project.id} not verified (${challenge.onProviderOutage === 'allow' ? 'let through' : 'refused'}): ${why}`,
      );
      return { result: 'unavailable' };
    };
    const token = fields.bot_challenge_token;
    if (!token) {
      if (fields.bot_challenge_unavailable === 'true') return outage('the client could not load the widget');
      return { result: 'missing' };
    }
    const verdict = await siteverify({
      provider: challenge.provider,
      verifyUrl: this.settings.verifyUrls[challenge.provider],
      secretKey: challenge.secretKey,
      siteKey: challenge.siteKey,
      token,
      remoteIp,
      minScore: challenge.minScore,
      timeoutMillis: this.settings.timeoutMillis,
    });
    if (verdict.outcome === 'passed') return { result: 'passed' };
    if (verdict.outcome === 'unavailable') return outage(`the provider did not answer: ${verdict.reason}`);
    return { result: 'failed', phase: fields.bot_challenge_phase ?? 'visible', errorCodes: verdict.errorCodes };
  }

  /**
   * What the project's mode (now) makes of a check: its result for the risk scores, or the refusal
   * (`BOT_CHALLENGE_REQUIRED` / `BOT_CHALLENGE_FAILED`, and `onProviderOutage` for an unverified one).
   * A check made while the project had no challenge counts as missing once it has one.
   */
  enforce(project: Project, check: BotChallengeCheck): BotChallengeResult {
    const challenge = project.config.auth.botChallenge;
    if (challenge.mode === 'off') return 'off';
    const required = challenge.mode === 'required';
    switch (check.result) {
      case 'passed':
        return 'passed';
      case 'unavailable':
        if (required && challenge.onProviderOutage === 'reject')
          throw failed('The bot challenge could not be verified right now. Try again in a moment.');
        return 'unavailable';
      case 'failed':
        if (!required) return 'failed';
        if (check.phase === 'invisible') throw new BotChallengeRequiredError();
        throw failed(`The bot challenge was not passed (${check.errorCodes?.join(', ') || 'rejected'}). Try it again.`);
      default:
        if (required) throw new BotChallengeRequiredError();
        return 'missing';
    }
  }
}

const failed = (message: string) => new BotChallengeFailedError({ message }, message);
