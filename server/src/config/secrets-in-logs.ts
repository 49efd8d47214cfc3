/**
 * Secrets in the log (issue #12): keys, sign-in codes and the links of emails (reset, verification,
 * magic link, invitation) are written to the log only in development mode, `DEVELOPMENT_MODE=true`,
 * which `pnpm start` turns on unless NODE_ENV=production; the start banner says which mode runs.
 * Otherwise emails are logged without their text, the banner shows keys by their last four
 * characters, and request logs carry URLs without query values (callbacks carry codes there).
 */
export function readDevelopmentMode(env: NodeJS.ProcessEnv): boolean {
  const value = env.DEVELOPMENT_MODE;
  if (value === undefined || value === '' || value === 'false') return false;
  if (value === 'true') return true;
  throw new Error(`DEVELOPMENT_MODE must be true or false, got ${value}`);
}

/** A URL for the log: each query value replaced, so a code in a callback's query stays out. */
export function urlForLog(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart < 0) return url;
  const query = url
    .slice(queryStart + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      return equals < 0 ? pair : `${pair.slice(0, equals)}=[redacted]`;
    })
    .join('&');
  return `${url.slice(0, queryStart)}?${query}`;
}

/** A key as the log shows it outside development mode. */
export const keyForLog = (key: string) => `${key.slice(0, 4)}…${key.slice(-4)}`;

/** Fastify's request serializer, with the query values redacted unless in development mode. */
export function requestSerializer(developmentMode: boolean) {
  return (request: { method: string; url: string; hostname?: string; ip?: string }) => ({
    method: request.method,
    url: developmentMode ? request.url : urlForLog(request.url),
    hostname: request.hostname,
    remoteAddress: request.ip,
  });
}
