import { CliAuthError, CliAuthExpiredError, CliAuthUsedError, createSessionClient } from '@gatehouse/client';

export type CliLoginOptions = {
  /** Where the platform's API is. */
  baseUrl: string;
  /** Where the app with the handler pages is (often the same origin). */
  appUrl: string;
  projectId: string;
  publishableClientKey: string;
  /** Shows the confirmation URL to the person (opens a browser, prints it). */
  showUrl: (url: string) => void;
  pollIntervalMs?: number;
  /** How long to wait for the person before giving up (`CliAuthError` 'Timed out waiting for CLI authentication.'); default 10 minutes. */
  timeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
};

export type CliLoginResult = { refreshToken: string; email: string | null; userId: string };

/**
 * The CLI side of the CLI login (docs/protocol/endpoints.md §9): ask for a login, send the person to
 * `/handler/cli-auth-confirm?login_code=…`, poll every 2 s until they confirm, then use the
 * refresh token like any session. Expired or already used logins end with the protocol's errors
 * (`CliAuthExpiredError`, `CliAuthUsedError`), waiting too long with `CliAuthError`, in its words.
 */
export async function cliLogin(options: CliLoginOptions): Promise<CliLoginResult> {
  const client = createSessionClient({
    baseUrl: options.baseUrl,
    projectId: options.projectId,
    accessType: 'client',
    publishableClientKey: options.publishableClientKey,
  });
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((done) => setTimeout(done, ms)));
  const login = await client.call('createCliLogin', { body: {} });
  const confirmUrl = new URL('/handler/cli-auth-confirm', options.appUrl);
  confirmUrl.searchParams.set('login_code', login.login_code);
  options.showUrl(confirmUrl.href);
  const now = options.now ?? Date.now;
  const deadline = now() + (options.timeoutMs ?? 10 * 60_000);

  for (;;) {
    if (now() >= deadline) throw new CliAuthError('Timed out waiting for CLI authentication.');
    await sleep(options.pollIntervalMs ?? 2_000);
    const answer = await client.call('pollCliLogin', { body: { polling_code: login.polling_code } });
    if ('refresh_token' in answer) {
      client.session.setTokens({ refreshToken: answer.refresh_token });
      const user = await client.call('getCurrentUser');
      return { refreshToken: answer.refresh_token, email: user.primary_email ?? null, userId: user.id };
    }
    if (answer.status === 'expired') throw new CliAuthExpiredError();
    if (answer.status === 'used') throw new CliAuthUsedError();
  }
}
