import type { CelInput } from '@bufbuild/cel';
import type { JsonSchemaProps, ValidationRule } from '../../schema/json-schema-props.js';
import { duplicate, forbidden, invalid, required, type FieldError } from '../errors.js';
import { hasSchemaType } from '../json-type.js';
import { child, index, isObject } from '../path.js';
import { toCel } from './convert.js';
import { evaluate, isTransitionRule } from './evaluate.js';

/** A value and, on update, the value at the same place in the old object (when it correlates). */
interface Node {
  value: unknown;
  old: unknown;
  hasOld: boolean;
  schema: JsonSchemaProps;
  path: string;
}

/**
 * Evaluates every `x-kubernetes-validations` rule of the schema against the value, top-down, appending errors
 * as kube-apiserver reports them. Transition rules (with `oldSelf`) run only where an old value correlates.
 */
export function validateRules(node: Node, errs: FieldError[]): void {
  const { value, schema } = node;
  // Rules never run on absent values or on values of the wrong type (already reported by the schema check).
  if (value === null || value === undefined || !hasSchemaType(value, schema)) return;
  const rules = schema['x-kubernetes-validations'];
  if (rules && rules.length > 0) {
    const self = toCel(value, schema);
    const oldSelf = node.hasOld ? toCel(node.old, schema) : null;
    for (const r of rules) checkRule({ node, rule: r, self, oldSelf }, errs);
  }
  descend(node, errs);
}

function descend(node: Node, errs: FieldError[]): void {
  const { value, schema, path } = node;
  if (Array.isArray(value)) {
    const items = schema.items;
    if (!items) return;
    value.forEach((item, i) => {
      const old = correlateItem(node, item);
      validateRules({ value: item, schema: items, path: index(path, i), ...old }, errs);
    });
    return;
  }
  if (!isObject(value)) return;
  const additional = schema.additionalProperties;
  const oldObj = node.hasOld && isObject(node.old) ? node.old : undefined;
  for (const [key, v] of Object.entries(value)) {
    const sub = schema.properties?.[key] ?? (typeof additional === 'object' ? additional : undefined);
    if (!sub) continue;
    const hasOld = oldObj !== undefined && oldObj[key] !== undefined;
    validateRules({ value: v, schema: sub, path: child(path, key), old: oldObj?.[key], hasOld }, errs);
  }
}

// Only items of `x-kubernetes-list-type: map` lists correlate with old items (by their keys), as in Kubernetes.
function correlateItem(node: Node, item: unknown): { old: unknown; hasOld: boolean } {
  const keys = node.schema['x-kubernetes-list-map-keys'];
  if (
    !node.hasOld ||
    node.schema['x-kubernetes-list-type'] !== 'map' ||
    !keys ||
    !Array.isArray(node.old) ||
    !isObject(item)
  ) {
    return { old: undefined, hasOld: false };
  }
  const match = node.old.find((o) => isObject(o) && keys.every((k) => o[k] === item[k]));
  return { old: match, hasOld: match !== undefined };
}

interface RuleCheck {
  node: Node;
  rule: ValidationRule;
  self: CelInput;
  oldSelf: CelInput;
}

function checkRule(check: RuleCheck, errs: FieldError[]): void {
  const { node, rule } = check;
  if (typeof rule.rule !== 'string') return;
  const transition = isTransitionRule(rule.rule);
  if (transition && !node.hasOld && rule.optionalOldSelf !== true) return;
  const bindings: Record<string, CelInput> = { self: check.self };
  if (transition) bindings.oldSelf = check.oldSelf;
  const typeName =
    node.schema.type ?? (node.schema['x-kubernetes-int-or-string'] === true ? 'integer-or-string' : 'object');
  const outcome = evaluate(rule.rule, bindings);
  if (!outcome.ok) {
    const detail = outcome.compile
      ? `compilation failed: ${outcome.error}`
      : `${outcome.error} evaluating rule: ${rule.rule}`;
    errs.push(invalid(node.path, typeName, detail));
    return;
  }
  if (outcome.value === true) return;
  const path = withFieldPath(node.path, rule.fieldPath);
  errs.push(ruleError({ path, typeName, reason: rule.reason, message: ruleMessage(rule, bindings) }));
}

function ruleMessage(rule: ValidationRule, bindings: Record<string, CelInput>): string {
  if (rule.messageExpression) {
    const out = evaluate(rule.messageExpression, bindings);
    if (out.ok && typeof out.value === 'string' && out.value.trim() !== '' && !out.value.includes('\n'))
      return out.value;
  }
  if (rule.message) return rule.message;
  return `failed rule: ${rule.rule.trim()}`;
}

function ruleError(e: {
  path: string;
  typeName: string;
  reason?: ValidationRule['reason'];
  message: string;
}): FieldError {
  switch (e.reason) {
    case 'FieldValueForbidden':
      return forbidden(e.path, e.message);
    case 'FieldValueRequired':
      return required(e.path, e.message);
    case 'FieldValueDuplicate':
      return duplicate(e.path, e.typeName, e.message);
    default:
      return invalid(e.path, e.typeName, e.message);
  }
}

// fieldPath is a relative JSON path such as `.spec.replicas` or `.labels['a/b']`.
function withFieldPath(path: string, fieldPath: string | undefined): string {
  if (!fieldPath) return path;
  const rel = fieldPath.replace(/\['([^']*)'\]/g, '[$1]');
  if (rel.startsWith('[')) return `${path}${rel}`;
  const trimmed = rel.replace(/^\./, '');
  return path === '' ? trimmed : `${path}.${trimmed}`;
}
