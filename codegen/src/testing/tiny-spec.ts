import type { OpenApiDocument } from '../openapi-document.ts';

/**
 * A small spec for the emitters' unit tests: two operations (one reading a user by id with a
 * query, one signing in with a JSON body), a shared `User` schema, and an error catalogue of one
 * abstract family with one member plus a plain error, each declared on the operations that send it.
 * A fresh copy each call, since emitters may annotate the document.
 */
export function tinySpec(): OpenApiDocument {
  return structuredClone({
    openapi: '3.1.0',
    // Not read by the emitters (so not in OpenApiDocument), but orval's validation requires it.
    info: { title: 'Tiny', version: '1.0.0' },
    servers: [{ url: '{origin}/api/v1', variables: { origin: { default: 'https://auth.example' } } }],
    paths: {
      '/users/{user_id}': {
        parameters: [{ name: 'user_id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
        get: {
          operationId: 'getUser',
          'x-access-types': ['server', 'admin'],
          parameters: [{ $ref: '#/components/parameters/Expand' }],
          responses: {
            '200': { description: 'The user', content: { 'application/json': { schema: { $ref: '#/components/schemas/User' } } } },
            '404': {
              description: 'No such user',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/UserNotFoundError' } } },
            },
          },
        },
      },
      '/auth/password/sign-in': {
        post: {
          operationId: 'signInWithPassword',
          'x-auth': 'optional',
          'x-rate-limit': 'sign-in',
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['email', 'password'],
                  properties: { email: { type: 'string', description: 'documentation only' }, password: { type: 'string' } },
                },
              },
            },
          },
          responses: {
            '200': { description: 'Signed in', content: { 'text/plain': { schema: { type: 'string' } } } },
            '400': {
              description: 'Refused',
              content: {
                'application/json': {
                  schema: {
                    oneOf: [{ $ref: '#/components/schemas/EmailPasswordMismatchError' }, { $ref: '#/components/schemas/SchemaError' }],
                  },
                },
              },
            },
          },
        },
      },
    },
    components: {
      schemas: {
        User: {
          type: 'object',
          required: ['id'],
          properties: { id: { type: 'string' }, display_name: { type: ['string', 'null'] } },
        },
        CredentialsError: {
          type: 'object',
          description: 'The credentials were refused.',
          'x-error-code': 'CREDENTIALS_ERROR',
          'x-error-abstract': true,
        },
        EmailPasswordMismatchError: {
          type: 'object',
          description: 'Wrong email or password.',
          'x-error-code': 'EMAIL_PASSWORD_MISMATCH',
          'x-error-parent': 'CREDENTIALS_ERROR',
          'x-error-status': 400,
          'x-error-message': 'Wrong e-mail or password.',
          properties: { code: { const: 'EMAIL_PASSWORD_MISMATCH' } },
        },
        SchemaError: {
          type: 'object',
          description: 'The request does not match the schema.',
          'x-error-code': 'SCHEMA_ERROR',
          'x-error-status': 400,
          properties: { code: { const: 'SCHEMA_ERROR' }, details: { type: 'object', properties: { message: { type: 'string' } } } },
        },
        UserNotFoundError: {
          type: 'object',
          description: 'No user has this id.',
          'x-error-code': 'USER_NOT_FOUND',
          'x-error-status': 404,
          properties: { code: { const: 'USER_NOT_FOUND' } },
        },
      },
      responses: {},
      parameters: {
        Expand: { name: 'expand', in: 'query', required: false, schema: { type: 'string', enum: ['teams'] } },
      },
    },
  } satisfies OpenApiDocument & { info: { title: string; version: string } });
}
