/**
 * Finds module-level mutable state in a TypeScript source: state that every user of the module in a process
 * shares, which production layers may not hold (a cache is an object its owner creates and passes in).
 */
import ts from 'typescript';

/** One piece of module-level mutable state. */
export interface ModuleState {
  name: string;
  line: number;
  why: string;
}

/** Constructors whose instances hold no state that changes. */
const statelessConstructors: ReadonlySet<string> = new Set(['TextEncoder', 'TextDecoder', 'RegExp', 'Error', 'URL']);
const mutatingMethods: ReadonlySet<string> = new Set([
  'push',
  'pop',
  'shift',
  'unshift',
  'splice',
  'sort',
  'reverse',
  'fill',
  'copyWithin',
  'set',
  'add',
  'delete',
  'clear',
]);

function constructedMutable(init: ts.Expression): string | undefined {
  let e = init;
  while (ts.isAsExpression(e) || ts.isParenthesizedExpression(e) || ts.isSatisfiesExpression(e)) e = e.expression;
  if (ts.isNewExpression(e)) {
    const ctor = e.expression.getText();
    return statelessConstructors.has(ctor) || ctor.startsWith('Intl.') ? undefined : `new ${ctor}`;
  }
  if (ts.isArrayLiteralExpression(e)) return 'array';
  if (ts.isObjectLiteralExpression(e)) return 'object';
  return undefined;
}

/** Whether a declared type forbids changes through the binding (ReadonlySet, ReadonlyMap, readonly T[]). */
function declaredReadonly(type: ts.TypeNode | undefined): boolean {
  if (!type) return false;
  if (ts.isTypeOperatorNode(type) && type.operator === ts.SyntaxKind.ReadonlyKeyword) return true;
  if (ts.isTypeReferenceNode(type))
    return /^(ReadonlySet|ReadonlyMap|ReadonlyArray|Readonly)$/.test(type.typeName.getText());
  return false;
}

/** The root identifier of `a.b[c].d`, if the expression is such a chain. */
function rootName(e: ts.Expression): string | undefined {
  let x = e;
  while (ts.isPropertyAccessExpression(x) || ts.isElementAccessExpression(x) || ts.isNonNullExpression(x))
    x = x.expression;
  return ts.isIdentifier(x) ? x.text : undefined;
}

/** Names whose contents some code in the file changes (assignment into them, mutating calls, delete). */
function mutatedNames(source: ts.SourceFile): Set<string> {
  const out = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind >= ts.SyntaxKind.FirstAssignment &&
      node.operatorToken.kind <= ts.SyntaxKind.LastAssignment
    ) {
      const l = node.left;
      if (ts.isPropertyAccessExpression(l) || ts.isElementAccessExpression(l)) {
        const n = rootName(l);
        if (n) out.add(n);
      }
    } else if (ts.isDeleteExpression(node)) {
      const n = rootName(node.expression);
      if (n) out.add(n);
    } else if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      mutatingMethods.has(node.expression.name.text)
    ) {
      const n = rootName(node.expression.expression);
      if (n) out.add(n);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** Every piece of module-level mutable state in one source text. */
export function moduleStateOf(fileName: string, text: string): ModuleState[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.ES2022, true);
  const mutated = mutatedNames(source);
  const out: ModuleState[] = [];
  const lineOf = (n: ts.Node): number => source.getLineAndCharacterOfPosition(n.getStart(source)).line + 1;
  for (const stmt of source.statements) {
    if (ts.isVariableStatement(stmt)) {
      const isConst = (stmt.declarationList.flags & ts.NodeFlags.Const) !== 0;
      for (const d of stmt.declarationList.declarations) {
        const name = d.name.getText(source);
        if (!isConst) {
          out.push({ name, line: lineOf(d), why: 'module-level let/var' });
          continue;
        }
        if (!d.initializer || declaredReadonly(d.type)) continue;
        const kind = constructedMutable(d.initializer);
        if (kind?.startsWith('new ')) out.push({ name, line: lineOf(d), why: `module-level ${kind}` });
        else if (kind && ts.isIdentifier(d.name) && mutated.has(d.name.text)) {
          out.push({ name, line: lineOf(d), why: `module-level ${kind}, changed after load` });
        }
      }
    } else if (ts.isClassDeclaration(stmt)) {
      for (const m of stmt.members) {
        const isStatic =
          ts.canHaveModifiers(m) && ts.getModifiers(m)?.some((x) => x.kind === ts.SyntaxKind.StaticKeyword);
        if (!isStatic || !ts.isPropertyDeclaration(m)) continue;
        const readonly = ts.getModifiers(m)?.some((x) => x.kind === ts.SyntaxKind.ReadonlyKeyword);
        const kind = m.initializer ? constructedMutable(m.initializer) : undefined;
        if (!readonly || kind?.startsWith('new ')) {
          out.push({
            name: `${stmt.name?.text ?? 'class'}.${m.name.getText(source)}`,
            line: lineOf(m),
            why: 'static mutable field',
          });
        }
      }
    }
  }
  return out;
}
