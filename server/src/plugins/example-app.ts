import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** What the example app needs to talk to the platform; all of it is public (a publishable key). */
export type ExampleAppConfig = { projectId: string; publishableClientKey: string };

export type ExampleAppOptions = {
  /** The built app (`examples/demo/dist`). */
  distDir: string;
  /** Read at every request, so a test can point the app at a project created after start. */
  config: () => ExampleAppConfig;
};

/**
 * Serves the built example app from the platform's own port: its files, `/gatehouse-config.js`
 * (project id and publishable key as a global), and `index.html` for every other GET outside
 * `/api/`, so client-side routes such as `/handler/sign-up` load on a refresh. API paths keep
 * their own 404/405 answers.
 */
export const exampleAppPlugin = fp(async (app: FastifyInstance, options: ExampleAppOptions) => {
  if (!existsSync(join(options.distDir, 'index.html')))
    throw new Error(`The example app is not built: ${options.distDir}/index.html is missing`);
  await app.register(fastifyStatic, { root: options.distDir, wildcard: false, index: false });

  app.get('/gatehouse-config.js', async (_request, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(`window.GATEHOUSE_CONFIG = ${JSON.stringify(options.config())};\n`),
  );

  app.get('/*', async (request, reply) => {
    if (request.url === '/api' || request.url.startsWith('/api/')) return reply.callNotFound();
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
});
