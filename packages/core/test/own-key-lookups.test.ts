import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * User text is data (SPEC M2): a word, name, category, key or id is never looked up in a plain
 * object, where "constructor" or "__proto__" finds what `Object.prototype` holds. This reads every
 * source file of the monorepo with the type checker and fails on each place that indexes an object
 * with a string-keyed index signature (`Record<string, T>`, `{ [key: string]: T }`) by a key typed
 * `string` rather than a literal, reading or writing, and on each `key in object` with such a key.
 * Use a `Map`, `lookupTable`/`ownValue`/`setOwn` of `@reverie/core`, `Object.fromEntries`, or
 * `Object.hasOwn`-guarded code that does not index (see `core/src/lookup/lookup-table.ts`).
 */

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** Where indexing is the point: the helpers themselves, after their own `Object.hasOwn` check. */
const ALLOWED_FILES = new Set(['packages/core/src/lookup/lookup-table.ts']);

function sourceProgram(): ts.Program {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    `${root}tsconfig.json`,
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  );
  if (!parsed) throw new Error('could not read tsconfig.json');
  const sources = parsed.fileNames.filter(
    (file) => /\/(packages|examples)\/[^/]+\/src\//.test(file) && !/\.test\.ts$|\/__fixtures__\//.test(file),
  );
  return ts.createProgram(sources, parsed.options);
}

function findLookups(program: ts.Program): string[] {
  const checker = program.getTypeChecker();
  const isTextKey = (type: ts.Type): boolean =>
    (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.String | ts.TypeFlags.TemplateLiteral | ts.TypeFlags.StringMapping)) !== 0 ||
    (type.isUnion() && type.types.some(isTextKey));
  const hasStringIndex = (type: ts.Type): boolean => {
    const apparent = checker.getApparentType(type);
    if (checker.isArrayType(apparent) || checker.isTupleType(apparent)) return false;
    if (apparent.isUnion()) return apparent.types.some(hasStringIndex);
    // The environment's variables are named by the code, never by user text.
    if (checker.typeToString(apparent) === 'ProcessEnv') return false;
    return checker
      .getIndexInfosOfType(apparent)
      .some((info) => (info.keyType.flags & (ts.TypeFlags.String | ts.TypeFlags.TemplateLiteral)) !== 0);
  };
  const found: string[] = [];
  for (const file of program.getSourceFiles()) {
    if (file.isDeclarationFile || file.fileName.includes('/node_modules/')) continue;
    const name = file.fileName.slice(root.length);
    if (ALLOWED_FILES.has(name)) continue;
    const report = (node: ts.Node) =>
      found.push(`${name}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${node.getText().slice(0, 100)}`);
    const visit = (node: ts.Node): void => {
      // `delete object[key]` removes an own property only; nothing inherited is read or written.
      if (ts.isDeleteExpression(node)) return;
      if (
        ts.isElementAccessExpression(node) &&
        isTextKey(checker.getTypeAtLocation(node.argumentExpression)) &&
        hasStringIndex(checker.getTypeAtLocation(node.expression))
      ) {
        report(node);
      } else if (
        ts.isBinaryExpression(node) &&
        node.operatorToken.kind === ts.SyntaxKind.InKeyword &&
        isTextKey(checker.getTypeAtLocation(node.left))
      ) {
        report(node);
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return found;
}

describe('user text never indexes a plain object', () => {
  it('no source file looks a string key up in a Record or index signature', () => {
    const program = sourceProgram();
    expect(program.getRootFileNames().length).toBeGreaterThan(300);
    expect(findLookups(program)).toEqual([]);
  }, 180_000);

  it('the check finds such a lookup, read or written, and a key tested with `in`', () => {
    const source = [
      'const table: Record<string, string> = { went: "go" };',
      'export function stem(word: string) { const x = table[word]; table[word] = "y"; return word in table ? x : undefined; }',
      'export function literal() { return table["went"]; }',
      'export function removed(word: string) { delete table[word]; }',
    ].join('\n');
    const fileName = `${root}packages/core/src/__probe__.ts`;
    const host = ts.createCompilerHost({ strict: true, noEmit: true });
    const readFile = host.getSourceFile.bind(host);
    host.getSourceFile = (name, version) => (name === fileName ? ts.createSourceFile(name, source, version) : readFile(name, version));
    const program = ts.createProgram([fileName], { strict: true, noEmit: true, lib: ['lib.es2022.d.ts'] }, host);
    expect(findLookups(program).map((line) => line.split(': ')[1])).toEqual(['table[word]', 'table[word]', 'word in table']);
  });
});
