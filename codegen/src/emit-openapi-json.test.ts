import { describe, expect, it } from 'vitest';
import { emitApiTypes } from './emit-api-types.ts';
import { emitOpenApiJson } from './emit-openapi-json.ts';
import { tinySpec } from './testing/tiny-spec.ts';

describe('emitOpenApiJson', () => {
  it('writes the bundled document as indented JSON the server serves', () => {
    const [file] = emitOpenApiJson(tinySpec());
    expect(file?.path).toBe('server/src/generated/openapi.json');
    expect(JSON.parse(file?.content ?? '')).toEqual(tinySpec());
    expect(file?.content.endsWith('}\n')).toBe(true);
    expect(file?.content).toContain('\n  "openapi": "3.1.0",\n');
  });
});

describe('emitApiTypes', () => {
  it('writes openapi-typescript types of every operation and schema under the generated header', async () => {
    const [file] = await emitApiTypes(tinySpec());
    expect(file?.path).toBe('protocol/src/generated/api-types.ts');
    const content = file?.content ?? '';
    expect(content).toMatch(/^\/\* eslint-disable \*\/\n\/\/ biome-ignore-all lint: generated code\n/);
    expect(content).toMatch(/export interface operations \{[\s\S]*getUser: \{/);
    expect(content).toMatch(/signInWithPassword: \{[\s\S]*email: string;[\s\S]*password: string;/);
    expect(content).toMatch(/User: \{\s*id: string;\s*display_name\?: string \| null;/);
    expect(content).toMatch(/expand\?: components\["parameters"\]\["Expand"\];/);
    expect(content).toMatch(/Expand: "teams";/);
  });
});
