import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { bundleSpec, loadSpec } from './load-spec.ts';
import { isAuthHeader } from './security.ts';
import { listOperations, operationParameters } from './spec-walk.ts';

// The split spec: openapi/v1.yaml indexes every path and component written in openapi/paths/ and openapi/components/.
const openapiDir = fileURLToPath(new URL('../../openapi/', import.meta.url));
const readYaml = (path: string) => parse(readFileSync(join(openapiDir, path), 'utf8')) as Record<string, unknown>;
const entry = readYaml('v1.yaml') as {
  paths: Record<string, { $ref: string }>;
  components: Record<string, Record<string, { $ref: string }>>;
};
// The split as written (every header parameter), and the document served (security.ts applied).
const doc = await bundleSpec(join(openapiDir, 'v1.yaml'));
const served = await loadSpec(join(openapiDir, 'v1.yaml'));

function yamlFiles(dir: string): string[] {
  return readdirSync(join(openapiDir, dir), { withFileTypes: true }).flatMap((item) =>
    item.isDirectory() ? yamlFiles(`${dir}/${item.name}`) : item.name.endsWith('.yaml') ? [`${dir}/${item.name}`] : [],
  );
}

/** `./file#/pointer` for every component a components file defines, keyed by `kind/name`. */
function writtenComponents(): Map<string, string> {
  const written = new Map<string, string>();
  for (const file of yamlFiles('components')) {
    const content = readYaml(file);
    const [, folder] = relative('components', file).match(/^([^/]+)\//) ?? [];
    if (folder === 'errors') {
      for (const kind of ['schemas', 'responses'])
        for (const name of Object.keys((content[kind] ?? {}) as object)) written.set(`${kind}/${name}`, `./${file}#/${kind}/${name}`);
    } else {
      const kind = folder ?? camelCase(file.replace(/^components\/|\.yaml$/g, ''));
      for (const name of Object.keys(content)) written.set(`${kind}/${name}`, `./${file}#/${name}`);
    }
  }
  return written;
}

const camelCase = (name: string) => name.replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase());

describe('the split spec (openapi/paths, openapi/components)', () => {
  it('indexes in openapi/v1.yaml every component written in a components file, under its own name, and nothing else', () => {
    const indexed = new Map(
      Object.entries(entry.components).flatMap(([kind, items]) =>
        Object.entries(items).map(([name, ref]) => [`${kind}/${name}`, ref.$ref]),
      ),
    );
    expect(Object.fromEntries(indexed)).toEqual(Object.fromEntries(writtenComponents()));
    for (const key of indexed.keys()) {
      const [kind, name] = key.split('/') as [keyof typeof doc.components, string];
      expect(doc.components[kind]?.[name], `${key} in the bundle`).toBeDefined();
    }
  });

  it('indexes every path of every paths file, each in the file named after the tag of its operations', () => {
    const written: Record<string, string> = {};
    for (const file of yamlFiles('paths')) {
      for (const [path, item] of Object.entries(readYaml(file))) {
        if (path.startsWith('x-')) continue;
        written[path] = `./${file}#/${path.replaceAll('~', '~0').replaceAll('/', '~1')}`;
        const tags = new Set(Object.values(item as Record<string, { tags?: string[] }>).flatMap((operation) => operation.tags ?? []));
        expect([...tags], path).toEqual([file.replace(/^paths\/|\.yaml$/g, '')]);
      }
    }
    expect(Object.fromEntries(Object.entries(entry.paths).map(([path, ref]) => [path, ref.$ref]))).toEqual(written);
    expect(Object.keys(doc.paths)).toEqual(Object.keys(entry.paths));
  });

  it('gives every operation that reads project authentication the whole header set, in order, and the others none', () => {
    const headerSet = Object.values(readYaml('components/parameters/headers.yaml')).map(
      (parameter) => (parameter as { name: string }).name,
    );
    for (const operationEntry of listOperations(doc)) {
      const headers = operationParameters(doc, operationEntry)
        .filter((parameter) => parameter.in === 'header')
        .map((parameter) => parameter.name);
      const { operation } = operationEntry;
      // An operation outside project authentication reads none of the set (it may read its own, such as the
      // metrics' Authorization bearer).
      if (operation['x-auth'] === 'none')
        expect(
          headers.filter((name) => headerSet.includes(name)),
          operation.operationId,
        ).toEqual([]);
      else expect(headers, operation.operationId).toEqual(headerSet);
    }
  });

  it('still serves every operation and component of the document served before the split (the spec only grows)', () => {
    const before = JSON.parse(readFileSync(fileURLToPath(new URL('./fixtures/openapi-before-split.json', import.meta.url)), 'utf8'));
    const operationsOf = (document: typeof doc) =>
      Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item as object).map((method) => `${method} ${path}`));
    expect(operationsOf(served)).toEqual(expect.arrayContaining(operationsOf(before)));
    for (const [kind, components] of Object.entries(before.components as Record<string, object>)) {
      // The authentication headers the served document says as security schemes instead (security.ts).
      const kept = Object.keys(components).filter((name) => kind !== 'parameters' || !isAuthHeader(name));
      expect(Object.keys((served.components as Record<string, object>)[kind] ?? {}), kind).toEqual(expect.arrayContaining(kept));
    }
  });
});
