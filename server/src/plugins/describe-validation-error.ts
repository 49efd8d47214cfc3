import type { FastifyError } from 'fastify';

/** One line per failing field, e.g. `body/display_name must be string`, as SCHEMA_ERROR's message. */
export function describeValidationError(error: FastifyError): string {
  const context = error.validationContext ?? 'request';
  const lines = (error.validation ?? []).map((issue) => {
    const field = `${context}${issue.instancePath}`;
    const params = issue.params as Record<string, unknown>;
    if (issue.keyword === 'additionalProperties') return `${field} contains unknown field ${JSON.stringify(params.additionalProperty)}`;
    if (issue.keyword === 'required') return `${field}/${String(params.missingProperty)} is required`;
    if (issue.keyword === 'enum') return `${field} must be one of ${JSON.stringify(params.allowedValues)}`;
    return `${field} ${issue.message ?? 'is invalid'}`;
  });
  return [...new Set(lines)].join('\n') || error.message;
}
