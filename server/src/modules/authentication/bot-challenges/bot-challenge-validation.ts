import { rejectConfig } from '../../../tenancy/config-input.ts';
import type { ProjectConfig } from '../../../tenancy/project-config.ts';
import { botChallengeProviders } from './bot-challenge-settings.ts';

/** `auth.botChallenge` about to be saved (the messages are listed in the spec, updateProjectConfigOverride). */
export function assertValidBotChallenge(config: ProjectConfig): void {
  const challenge = config.auth.botChallenge as unknown as Record<string, unknown>;
  const path = 'auth.botChallenge';
  if (!['off', 'invisible', 'required'].includes(challenge.mode as string))
    rejectConfig(`${path}.mode must be one of off, invisible, required.`);
  if (!botChallengeProviders.includes(challenge.provider as never))
    rejectConfig(`${path}.provider must be one of ${botChallengeProviders.join(', ')}.`);
  if (!['allow', 'reject'].includes(challenge.onProviderOutage as string))
    rejectConfig(`${path}.onProviderOutage must be one of allow, reject.`);
  const score = challenge.minScore;
  if (typeof score !== 'number' || !Number.isFinite(score) || score < 0 || score > 1)
    rejectConfig(`${path}.minScore must be a number from 0 to 1.`);
  for (const key of ['siteKey', 'secretKey'] as const) {
    const value = challenge[key];
    if (typeof value !== 'string' || value.length > 200) rejectConfig(`${path}.${key} must be a string of at most 200 characters.`);
    if (challenge.mode !== 'off' && value.trim() === '') rejectConfig(`${path}.${key} is needed when ${path}.mode is not off.`);
  }
}
