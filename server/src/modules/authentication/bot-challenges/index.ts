import { defineModule } from '../../../kernel/module.ts';
import { readBotChallengeSettings } from './bot-challenge-settings.ts';
import { BotChallengeService } from './bot-challenge.service.ts';

export type { BotChallengeSettings } from './bot-challenge-settings.ts';
export { botChallengeProviders } from './bot-challenge-settings.ts';
export type { BotChallengeCheck, BotChallengeFields, BotChallengeResult } from './bot-challenge.service.ts';
export { BotChallengeService } from './bot-challenge.service.ts';
export { assertValidBotChallenge } from './bot-challenge-validation.ts';

/**
 * Bot challenges at sign-up (`auth.botChallenge`): Turnstile, hCaptcha or reCAPTCHA tokens verified
 * through the provider's siteverify API, with the project's mode and outage policy.
 */
export const botChallengesModule = defineModule({
  name: 'bot-challenges',
  settings: readBotChallengeSettings,
  services: (_needs, { settings }) => ({ botChallenges: new BotChallengeService(settings) }),
});
