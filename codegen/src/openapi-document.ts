/** The parts of an OpenAPI 3.1 document the emitters read. Loose on purpose: the spec test validates the whole. */
export type JsonSchema = { [keyword: string]: unknown };

export type ParameterObject = {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
};

export type MediaTypeObject = { schema?: JsonSchema };

export type ResponseObject = {
  description?: string;
  content?: Record<string, MediaTypeObject>;
  headers?: Record<string, unknown>;
  [extension: `x-${string}`]: unknown;
};

export type OperationObject = {
  operationId: string;
  summary?: string;
  description?: string;
  parameters?: Array<ParameterObject | { $ref: string }>;
  requestBody?: { required?: boolean; content: Record<string, MediaTypeObject> };
  responses: Record<string, ResponseObject>;
  'x-auth'?: 'none' | 'optional';
  'x-access-types'?: Array<'client' | 'server' | 'admin'>;
  /** `required`: no user token is USER_AUTHENTICATION_REQUIRED; `me`: it is CANNOT_GET_OWN_USER_WITHOUT_USER. */
  'x-user'?: 'required' | 'me';
  /** The rate-limit bucket the operation counts against. */
  'x-rate-limit'?: string;
  /** `ignore`: unknown query parameters are accepted and ignored (browser navigations such as OAuth authorize). */
  'x-unknown-query'?: 'ignore';
  /** `refresh-token`: the operation works on the session of the refresh token header (its security names it). */
  'x-session'?: 'refresh-token';
  /** Written by codegen from the access extensions (security.ts) unless the spec gives it. */
  security?: Array<Record<string, string[]>>;
  [extension: `x-${string}`]: unknown;
};

export const httpMethods = ['get', 'post', 'put', 'patch', 'delete'] as const;
export type HttpMethod = (typeof httpMethods)[number];

export type OpenApiDocument = {
  openapi: string;
  servers?: Array<{ url: string; variables?: Record<string, { default: string }> }>;
  paths: Record<string, Partial<Record<HttpMethod, OperationObject>> & { parameters?: Array<ParameterObject | { $ref: string }> }>;
  webhooks?: Record<string, Record<string, { security?: Array<Record<string, string[]>> }>>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, ResponseObject>;
    parameters: Record<string, ParameterObject>;
    securitySchemes?: Record<string, { type: string; in?: string; name?: string }>;
  };
};
