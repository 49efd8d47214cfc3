import { type GeneratorVerbOptions, pascal } from 'orval';
import type { GeneratedFile } from './generated-file.ts';
import { generatedHeader } from './generated-header.ts';
import type { OpenApiDocument } from './openapi-document.ts';

/**
 * One type family: the hooks orval writes are typed by the openapi-typescript types of
 * @gatehouse/protocol, not by orval's own models. `transform` (orval's verb transformer) notes what
 * every type name a hook imports stands for, and types each hook's error as what the client throws;
 * `typesFile` then writes the module the hooks import those names from, each an alias of a protocol
 * type, in place of the models orval generated.
 */
export function orvalTypes(doc: OpenApiDocument, outputPath: string) {
  const schemaNames = new Set(Object.keys(doc.components.schemas));
  // orval names a response component `<Name>Response`; operations that share it share the name.
  const responseNames = new Map(Object.keys(doc.components.responses).map((key) => [`${pascal(key)}Response`, key]));
  const aliases = new Map<string, string>();
  const note = (name: string, type: string) => {
    const known = aliases.get(name);
    if (known !== undefined && known !== type) throw new Error(`orval type ${name} stands for both ${known} and ${type}`);
    aliases.set(name, type);
  };

  const transform = (verb: GeneratorVerbOptions): GeneratorVerbOptions => {
    const id = `'${verb.operationId}'`;
    const successNames = new Set<string>();
    for (const success of verb.response.types.success) {
      for (const { name } of success.imports ?? []) {
        successNames.add(name);
        const response = responseNames.get(name);
        if (response) note(name, `ResponseContent<components['responses']['${response}']>`);
        else if (!schemaNames.has(name)) note(name, `OperationResponse<${id}, ${Number(success.key)}>`);
      }
    }
    // The mutator throws the declared known-error classes (or ApiHttpError, ConnectionError), never the bodies.
    verb.response.definition.errors = `OperationError<${id}>`;
    verb.response.imports = [...verb.response.imports.filter(({ name }) => successNames.has(name)), { name: 'OperationError' }];
    if (verb.queryParams) note(verb.queryParams.schema.name, `OperationQuery<${id}>`);
    for (const { name } of verb.body.imports) if (!schemaNames.has(name)) note(name, `OperationBody<${id}>`);
    for (const { name } of verb.params.flatMap((param) => param.imports)) {
      if (!schemaNames.has(name)) throw new Error(`${verb.operationId}: path parameter type ${name} is not a schema of the spec`);
    }
    return verb;
  };

  const typesFile = (): GeneratedFile => {
    const schemas = [...schemaNames]
      .filter((name) => typeof doc.components.schemas[name]?.['x-error-code'] !== 'string')
      .map((name) => `export type ${name} = components['schemas']['${name}'];`);
    const operationTypes = [...aliases].sort(([a], [b]) => a.localeCompare(b)).map(([name, type]) => `export type ${name} = ${type};`);
    const content = `${generatedHeader()}
import type { ApiHttpError, ConnectionError } from '@gatehouse/client';
import type {
  components,
  OperationBody,
  OperationErrors,
  OperationName,
  OperationQuery,
  OperationResponse,
  ResponseContent,
} from '@gatehouse/protocol';

/** What a hook of the operation fails with: a catalogued error it declares, another HTTP answer, or no answer. */
export type OperationError<Id extends OperationName> = OperationErrors[Id] | ApiHttpError | ConnectionError;

// The spec's schemas (the catalogued errors are classes of @gatehouse/protocol).
${schemas.join('\n')}

// Request bodies, query parameters and inline answers of the operations, under the names the hooks use.
${operationTypes.join('\n')}
`;
    return { path: outputPath, content };
  };

  return { transform, typesFile };
}
