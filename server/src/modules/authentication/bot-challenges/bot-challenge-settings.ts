import { type SettingName, readIntegerSetting, settingNumber, settingText } from '../../../config/settings.ts';

/** The providers a project can choose (`auth.botChallenge.provider`). */
export const botChallengeProviders = ['turnstile', 'hcaptcha', 'recaptcha'] as const;
export type BotChallengeProvider = (typeof botChallengeProviders)[number];

/**
 * Where the verifier asks and what the widget loads, per provider (`TURNSTILE_VERIFY_URL`,
 * `TURNSTILE_SCRIPT_URL`, the same for `HCAPTCHA_` and `RECAPTCHA_`; defaults in config/settings.ts),
 * and how long a verification may take (`BOT_CHALLENGE_TIMEOUT_MS`). Operator settings, never a tenant's: a project chooses a
 * provider, not a URL, so the verifier only ever connects to these hosts.
 */
export type BotChallengeSettings = {
  verifyUrls: Record<BotChallengeProvider, string>;
  scriptUrls: Record<BotChallengeProvider, string>;
  timeoutMillis: number;
};

function httpUrl(name: SettingName, value: string | undefined): string {
  const url = value || settingText(name);
  if (!/^https?:\/\/[^/]/.test(url)) throw new Error(`${name} must be an http(s) URL, not ${JSON.stringify(url)}`);
  return url;
}

export function readBotChallengeSettings(env: NodeJS.ProcessEnv): BotChallengeSettings {
  const timeoutMillis =
    readIntegerSetting(env, 'BOT_CHALLENGE_TIMEOUT_MS', { min: 1, expected: 'a positive integer' }) ??
    settingNumber('BOT_CHALLENGE_TIMEOUT_MS');
  return {
    verifyUrls: {
      turnstile: httpUrl('TURNSTILE_VERIFY_URL', env.TURNSTILE_VERIFY_URL),
      hcaptcha: httpUrl('HCAPTCHA_VERIFY_URL', env.HCAPTCHA_VERIFY_URL),
      recaptcha: httpUrl('RECAPTCHA_VERIFY_URL', env.RECAPTCHA_VERIFY_URL),
    },
    scriptUrls: {
      turnstile: httpUrl('TURNSTILE_SCRIPT_URL', env.TURNSTILE_SCRIPT_URL),
      hcaptcha: httpUrl('HCAPTCHA_SCRIPT_URL', env.HCAPTCHA_SCRIPT_URL),
      recaptcha: httpUrl('RECAPTCHA_SCRIPT_URL', env.RECAPTCHA_SCRIPT_URL),
    },
    timeoutMillis,
  };
}
