import type { AccessType } from '../request-context/access-type.ts';

/** The shape of one generated route-table entry (see codegen/src/emit-route-table.ts). */
export type RouteDefinition = {
  operationId: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  specPath: string;
  /** `required`: the operation needs project authentication; `optional`: headers are read when sent; `none`: never read. */
  auth: 'required' | 'optional' | 'none';
  accessTypes: readonly AccessType[];
  user: 'required' | 'me' | 'optional';
  rateLimit: string | null;
  successStatus: number;
  successContentType: string | null;
  bodyRequired: boolean;
  /** Request schemas are whole; response schemas may refer to the `sharedSchemas` of the table. */
  schema: {
    params?: unknown;
    querystring?: unknown;
    body?: unknown;
    response?: Record<string, unknown>;
  };
  errorCodes: Record<string, readonly string[]>;
};

/** A schema the response schemas share, given once to the serializer factory (routing/lazy-serializer.ts). */
export type SharedSchema = { $id: string; [keyword: string]: unknown };
