import type { ServerEnv } from './config/env.ts';
import type { RateLimit, RateLimits } from './config/rate-limits.ts';
import type { DatabaseHandle } from './db/create-database.ts';
import type { SeededProject } from './bootstrap/seed-projects.ts';
import { keyForLog } from './config/secrets-in-logs.ts';

/** The per-IP limits in force, and the switches (a developer running an SDK's test suite looks here first). */
function rateLimitsLine(limits: RateLimits | null): string {
  if (!limits) return '  Rate limits    off (RATE_LIMITS=off)';
  const perMinute = (limit: RateLimit) => Math.round((limit.perIp * 60) / limit.windowSeconds);
  return `  Rate limits    per IP a minute: ${perMinute(limits['sign-up'])} sign-ups, ${perMinute(limits['sign-in'])} sign-ins, ${perMinute(limits['send-code'])} code emails (RATE_LIMITS=strict|relaxed|off, RATE_LIMIT_*)`;
}

/** What a newcomer needs after `pnpm start`: where the API is, and the keys to call it with. */
export function printStartBanner(env: ServerEnv, database: DatabaseHandle, seeded: { internal: SeededProject; demo: SeededProject }): void {
  const api = `${env.publicUrl}/api/v1`;
  // Outside development mode the log shows keys by their ends only; the full values are in the file.
  const key = env.developmentMode ? (value: string) => value : keyForLog;
  const project = (label: string, seededProject: SeededProject) => [
    `  ${label}: ${seededProject.id}   (saved in ${seededProject.file})`,
    `    publishable client key  ${key(seededProject.keys.publishable_client_key)}`,
    `    secret server key       ${key(seededProject.keys.secret_server_key)}`,
    `    super secret admin key  ${key(seededProject.keys.super_secret_admin_key)}`,
    `    anonymous sign-up       ${seededProject.anonymousSignUp ? 'on (new projects start with it off)' : 'off'}`,
  ];
  const { demo } = seeded;
  console.log(
    [
      '',
      'Gatehouse is running.',
      ...(env.exampleAppDir ? [`  Example app    ${env.publicUrl}/   (sign up at ${env.publicUrl}/handler/sign-up)`] : []),
      ...(env.dashboardDir
        ? [
            `  Dashboard      ${env.publicUrl}/dashboard   (owners sign up at ${env.publicUrl}/dashboard/handler/sign-up)`,
            ...demoOwnerLine(env, demo),
          ]
        : []),
      ...(env.docsDir ? [`  Documentation  ${env.publicUrl}/docs/`] : []),
      `  API            ${api}`,
      `  API reference  ${api}/docs`,
      `  OpenAPI        ${api}/openapi.json`,
      `  Database       ${database.kind === 'pglite' ? `PGlite in ${database.location}` : `Postgres at ${database.location}`}`,
      rateLimitsLine(env.rateLimits),
      env.developmentMode
        ? '  Development mode: keys, sign-in codes and email links are logged in clear (DEVELOPMENT_MODE=false, or NODE_ENV=production with pnpm start, to stop).'
        : '  Production mode: no keys, codes or email links in the log (DEVELOPMENT_MODE=true to log them while developing).',
      '',
      ...project('Demo project', demo),
      ...project('Internal project', seeded.internal),
      '',
      'Try it:',
      `  curl -H 'x-stack-access-type: client' -H 'x-stack-project-id: ${demo.id}' \\`,
      `       -H 'x-stack-publishable-client-key: ${key(demo.keys.publishable_client_key)}' ${api}/projects/current`,
      '',
    ].join('\n'),
  );
}

/** Who gets the demo project on the dashboard (bootstrap/demo-project-owner.ts). */
function demoOwnerLine(env: ServerEnv, demo: SeededProject): string[] {
  if (demo.owned) return [];
  return env.developmentMode
    ? ['                 the first owner to sign up there also becomes an owner of the demo project (development mode)']
    : ['                 the demo project has no owner on the dashboard (production mode hands out nothing; use its admin key)'];
}
