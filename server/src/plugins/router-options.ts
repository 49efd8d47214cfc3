/**
 * How the platform's router reads paths: `/users/` as `/users`, `//users` as `/users`, parameters up to
 * 500 characters (longer ones are SCHEMA_ERROR). Shared by the platform's app and the API reference's
 * own app (plugins/api-reference.ts), so both see the same paths.
 */
export const platformRouterOptions = { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 500 } as const;
