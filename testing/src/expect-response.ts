import { expect } from 'vitest';
import type { ContractResponse } from './contract.ts';

type Answer = Pick<ContractResponse, 'status' | 'headers' | 'text' | 'body'>;

/** A catalogued error: its status, its code, and (when given) exactly these details. */
export function expectError(response: Answer, status: number, code: string, details?: object): void {
  expect(response.status, response.text).toBe(status);
  expect(response.body.code).toBe(code);
  if (details) expect(response.body.details).toEqual(details);
}

/** A plain-text answer (the protocol's non-catalogued errors): no known-error header. */
export function expectPlain(response: Answer, status: number): void {
  expect(response.status, response.text).toBe(status);
  expect(String(response.headers['content-type'])).toMatch(/^text\/plain/);
  expect(response.headers['x-stack-known-error']).toBeUndefined();
}
