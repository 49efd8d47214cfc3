import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/** One `new PlainHttpError(status, message)` in the server's sources: the status and the message as written. */
export type PlainTextThrow = { file: string; line: number; status: number; message: string };

/** The `new PlainHttpError(…)` expressions of one source text (message = the argument's source, whitespace collapsed). */
export function plainTextThrowsIn(file: string, source: string): PlainTextThrow[] {
  const sourceFile = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const found: PlainTextThrow[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'PlainHttpError') {
      const [status, message] = node.arguments ?? [];
      const line = sourceFile.getLineAndCharacterOfPosition(node.getStart()).line + 1;
      found.push({
        file,
        line,
        status: status && ts.isNumericLiteral(status) ? Number(status.text) : Number.NaN,
        message: message ? message.getText(sourceFile).replace(/\s+/g, ' ') : '',
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

/** Every plain-text throw under `root` (test files left out: they do not answer clients). */
export function findPlainTextThrows(root: string, base = root): PlainTextThrow[] {
  const found: PlainTextThrow[] = [];
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    const path = join(root, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'generated' && entry.name !== 'testing' && entry.name !== 'node_modules')
        found.push(...findPlainTextThrows(path, base));
    } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
      const source = readFileSync(path, 'utf8');
      if (source.includes('PlainHttpError')) found.push(...plainTextThrowsIn(relative(base, path), source));
    }
  }
  return found;
}
