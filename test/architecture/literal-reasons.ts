/**
 * Finds condition and Event reasons written as string literals: a `reason` property (of an EventSpec, a condition
 * update, a condition object, a typed result) whose value spells a CamelCase reason in place instead of naming a
 * constant from ConditionReasons, EventReasons or a controller's own reasons module.
 */
import ts from 'typescript';

/** One literal reason. */
export interface LiteralReason {
  line: number;
  text: string;
}

// Condition and Event reasons are CamelCase words; lower-case `reason` values are metric labels or sentences.
const reasonWord = /^[A-Z][A-Za-z0-9]*$/;

function literalsIn(node: ts.Node): ts.StringLiteralLike[] {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node];
  const out: ts.StringLiteralLike[] = [];
  node.forEachChild((child) => {
    out.push(...literalsIn(child));
  });
  return out;
}

function reasonValue(node: ts.Node): ts.Node | undefined {
  const named = (n: ts.PropertyName): boolean => n.getText() === 'reason';
  if (ts.isPropertyAssignment(node) && named(node.name)) return node.initializer;
  if (ts.isPropertyDeclaration(node) && named(node.name)) return node.initializer ?? node.type;
  if (ts.isPropertySignature(node) && named(node.name)) return node.type;
  return undefined;
}

/** The literal reasons in one source file. */
export function literalReasonsOf(fileName: string, text: string): LiteralReason[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.ES2022, true);
  const found: LiteralReason[] = [];
  const visit = (node: ts.Node): void => {
    const value = reasonValue(node);
    for (const lit of value ? literalsIn(value) : [])
      if (reasonWord.test(lit.text))
        found.push({ line: source.getLineAndCharacterOfPosition(lit.getStart()).line + 1, text: lit.text });
    node.forEachChild(visit);
  };
  visit(source);
  return found;
}
