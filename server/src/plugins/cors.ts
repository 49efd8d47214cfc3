import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

const headerNames = [
  'project-id',
  'branch-id',
  'access-type',
  'publishable-client-key',
  'secret-server-key',
  'super-secret-admin-key',
  'admin-access-token',
  'access-token',
  'refresh-token',
  'allow-anonymous-user',
  'allow-restricted-user',
  'override-error-status',
  'client-version',
  'random-nonce',
  'disable-artificial-development-delay',
  'development-override-key',
  'requester',
];

/** CORS for browsers calling the API from any origin (docs/protocol/overview.md §1); preflight is an empty 200. */
export const corsPlugin = fp(async (app: FastifyInstance) => {
  await app.register(cors, {
    origin: '*',
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    allowedHeaders: [
      ...headerNames.flatMap((name) => [`x-stack-${name}`, `x-hexclave-${name}`]),
      'content-type',
      'authorization',
      'baggage',
      'sentry-trace',
      'x-vercel-protection-bypass',
      'ngrok-skip-browser-warning',
    ],
    exposedHeaders: [
      'content-type',
      'x-stack-actual-status',
      'x-stack-known-error',
      'x-hexclave-actual-status',
      'x-hexclave-known-error',
      'x-stack-request-id',
    ],
    optionsSuccessStatus: 200,
    strictPreflight: false,
  });
});
