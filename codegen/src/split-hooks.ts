import ts from 'typescript';

/** `SignInWithPassword` -> `sign-in-with-password`. */
const kebab = (pascal: string): string => pascal.replace(/[A-Z]/g, (letter, at: number) => `${at ? '-' : ''}${letter.toLowerCase()}`);

/** One relative specifier of orval's file, as seen from one folder deeper. */
const deeper = (specifier: string): string =>
  specifier.startsWith('./') ? `.${specifier}` : specifier.startsWith('../') ? `../${specifier}` : specifier;

type Import = { specifier: string; typeOnly: boolean; names: Array<{ name: string; typeOnly: boolean }> };

/**
 * Splits orval's one-file output (`hooks.ts`, every operation's URL, fetcher, query options and
 * hooks, in the spec's order) into one module per operation (`hooks/<operation>.ts`) and a
 * `hooks.ts` that re-exports them all. A bundler puts a whole module into one chunk: with one
 * module, every hook the app uses anywhere came with the first page that used any.
 * An operation's statements start at orval's `get<Operation>Url`; each module imports only the
 * names its statements use, and carries orval's few type helpers it needs.
 */
export function splitHooks(source: string, folder = 'hooks'): { index: string; modules: Array<{ name: string; content: string }> } {
  const file = ts.createSourceFile('hooks.ts', source, ts.ScriptTarget.Latest, true);
  const statements = file.statements;
  if (statements.length === 0) throw new Error('orval produced no statements');
  const header = source.slice(0, statements[0]!.getStart()).trim();

  const imports: Import[] = [];
  const helpers: Array<{ name: string; text: string; uses: Set<string> }> = [];
  const groups: Array<{ name: string; statements: ts.Statement[] }> = [];
  for (const statement of statements) {
    if (ts.isImportDeclaration(statement)) {
      const bindings = statement.importClause?.namedBindings;
      if (!bindings || !ts.isNamedImports(bindings) || statement.importClause?.name) {
        throw new Error(`unexpected import in orval's output: ${statement.getText()}`);
      }
      imports.push({
        specifier: (statement.moduleSpecifier as ts.StringLiteral).text,
        typeOnly: statement.importClause?.isTypeOnly ?? false,
        names: bindings.elements.map((element) => ({ name: element.name.text, typeOnly: element.isTypeOnly })),
      });
      continue;
    }
    const urlGetter = ts.isVariableStatement(statement)
      ? /^get(\w+)Url$/.exec(statement.declarationList.declarations[0]?.name.getText() ?? '')
      : null;
    if (urlGetter) groups.push({ name: urlGetter[1]!, statements: [] });
    const group = groups.at(-1);
    if (group) group.statements.push(statement);
    else if (ts.isTypeAliasDeclaration(statement))
      helpers.push({ name: statement.name.text, text: statement.getText().trim(), uses: identifiersOf([statement]) });
    else throw new Error(`unexpected statement before the first operation in orval's output: ${statement.getText()}`);
  }

  const modules = groups.map(({ name, statements: own }) => {
    const body = own.map((statement) => source.slice(statement.getFullStart(), statement.getEnd())).join('');
    const used = identifiersOf(own);
    // orval's type helpers the module uses, and the helpers they use, in orval's order.
    const needed = new Set<string>();
    for (let grew = true; grew; ) {
      grew = false;
      for (const helper of helpers) {
        if (needed.has(helper.name)) continue;
        if (used.has(helper.name) || helpers.some((other) => needed.has(other.name) && other.uses.has(helper.name))) {
          needed.add(helper.name);
          grew = true;
        }
      }
    }
    const helperUse = helpers.filter((helper) => needed.has(helper.name)).flatMap((helper) => [...helper.uses]);
    const usedAnywhere = new Set([...used, ...helperUse]);
    const importLines = imports.flatMap(({ specifier, typeOnly, names }) => {
      const kept = names.filter(({ name }) => usedAnywhere.has(name));
      if (kept.length === 0) return [];
      const list = kept.map(({ name, typeOnly: onlyType }) => (onlyType ? `type ${name}` : name)).join(', ');
      return [`import ${typeOnly ? 'type ' : ''}{ ${list} } from '${deeper(specifier)}';`];
    });
    const helperLines = helpers.filter((helper) => needed.has(helper.name)).map((helper) => helper.text);
    const content = `${header}\n${importLines.join('\n')}\n\n${helperLines.join('\n')}\n${body}\n`;
    return { name: kebab(name), content, exported: exportedNames(own) };
  });

  const index = `${header}
// One module per operation (see codegen/src/split-hooks.ts): a page's bundle holds the hooks it uses.
${modules
  .flatMap(({ name, exported }) => [
    exported.values.length ? `export { ${exported.values.join(', ')} } from './${folder}/${name}';` : '',
    exported.types.length ? `export type { ${exported.types.join(', ')} } from './${folder}/${name}';` : '',
  ])
  .filter(Boolean)
  .join('\n')}
`;
  return { index, modules: modules.map(({ name, content }) => ({ name, content })) };
}

/** Every identifier in the statements' code (not in their comments). */
function identifiersOf(statements: readonly ts.Node[]): Set<string> {
  const names = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node)) names.add(node.text);
    ts.forEachChild(node, visit);
  };
  statements.forEach(visit);
  return names;
}

/** The names a group of statements exports, values and types apart (a function's overloads once). */
function exportedNames(statements: ts.Statement[]): { values: string[]; types: string[] } {
  const values = new Set<string>();
  const types = new Set<string>();
  for (const statement of statements) {
    const exported =
      ts.canHaveModifiers(statement) && ts.getModifiers(statement)?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
    if (!exported) continue;
    if (ts.isVariableStatement(statement))
      for (const declaration of statement.declarationList.declarations) values.add(declaration.name.getText());
    else if (ts.isFunctionDeclaration(statement) && statement.name) values.add(statement.name.text);
    else if ((ts.isTypeAliasDeclaration(statement) || ts.isInterfaceDeclaration(statement)) && statement.name)
      types.add(statement.name.text);
    else throw new Error(`unexpected export in orval's output: ${statement.getText().slice(0, 80)}`);
  }
  return { values: [...values], types: [...types] };
}
