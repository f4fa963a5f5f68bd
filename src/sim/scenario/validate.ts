/**
 * Parses and validates a scenario file. Every error names the line, the field (as a path such as
 * `steps[2].wait.timeout`) and the rule, so a user can fix the file without reading the runner.
 */
import { isNode, LineCounter, parseDocument, type Document } from 'yaml';
import { apiErrorCodes, countableKinds, type Scenario } from './format.js';

/** One problem in a scenario file. */
export interface ScenarioError {
  line: number;
  path: string;
  message: string;
}

type Path = ReadonlyArray<string | number>;
type Check = (value: unknown, path: Path, errors: Issue[]) => void;
interface Issue {
  path: Path;
  message: string;
}

const durationPattern = /^(\d+(\.\d+)?(ms|s|m|h))+$/;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(rule?: (s: string) => string | undefined): Check {
  return (v, path, errors) => {
    if (typeof v !== 'string') return void errors.push({ path, message: 'must be a string' });
    const problem = rule?.(v);
    if (problem) errors.push({ path, message: problem });
  };
}

const duration = str((s) =>
  durationPattern.test(s) ? undefined : `must be a duration like 30s, 5m or 1h30m, got "${s}"`,
);

function num(opts: { integer?: boolean; min?: number; max?: number } = {}): Check {
  return (v, path, errors) => {
    if (typeof v !== 'number' || Number.isNaN(v)) return void errors.push({ path, message: 'must be a number' });
    if (opts.integer && !Number.isInteger(v)) errors.push({ path, message: 'must be an integer' });
    if (opts.min !== undefined && v < opts.min) errors.push({ path, message: `must be at least ${opts.min}` });
    if (opts.max !== undefined && v > opts.max) errors.push({ path, message: `must be at most ${opts.max}` });
  };
}

function oneOf(values: readonly (string | boolean | number)[]): Check {
  return (v, path, errors) => {
    if (!values.includes(v as string | number))
      errors.push({ path, message: `must be one of ${values.map((x) => JSON.stringify(x)).join(', ')}` });
  };
}

/** An object with known fields; `required` lists the ones that must be present. */
function obj(fields: Record<string, Check>, required: readonly string[] = []): Check {
  return (v, path, errors) => {
    if (!isRecord(v)) return void errors.push({ path, message: 'must be a mapping' });
    for (const r of required) if (!(r in v)) errors.push({ path: [...path, r], message: 'is required' });
    for (const [k, x] of Object.entries(v)) {
      const check = fields[k];
      if (!check)
        errors.push({ path: [...path, k], message: `unknown field; known fields: ${Object.keys(fields).join(', ')}` });
      else check(x, [...path, k], errors);
    }
  };
}

/** A mapping with exactly one of the given keys (a tagged union). */
function union(what: string, variants: Record<string, Check>): Check {
  return (v, path, errors) => {
    if (!isRecord(v))
      return void errors.push({ path, message: `must be a mapping with one of: ${Object.keys(variants).join(', ')}` });
    const keys = Object.keys(v);
    if (keys.length !== 1)
      return void errors.push({
        path,
        message: `a ${what} has exactly one of: ${Object.keys(variants).join(', ')} (found ${keys.join(', ') || 'none'})`,
      });
    const key = keys[0] ?? '';
    const check = variants[key];
    if (!check)
      return void errors.push({
        path: [...path, key],
        message: `unknown ${what}; known: ${Object.keys(variants).join(', ')}`,
      });
    check(v[key], [...path, key], errors);
  };
}

function list(item: Check, opts: { nonEmpty?: boolean } = {}): Check {
  return (v, path, errors) => {
    if (!Array.isArray(v)) return void errors.push({ path, message: 'must be a list' });
    if (opts.nonEmpty && v.length === 0) errors.push({ path, message: 'must not be empty' });
    v.forEach((x, i) => item(x, [...path, i], errors));
  };
}

const kindName = str((s) =>
  /^[A-Z][A-Za-z0-9]*$/.test(s) ? undefined : `must be a Kubernetes kind such as Deployment, got "${s}"`,
);
const objectRef = { kind: kindName, name: str(), namespace: str() };
const bound = num({ integer: true, min: 0 });

const expectation = union('expectation', {
  allPodsRunning: oneOf([true]),
  count: obj({ kind: oneOf(countableKinds), labelSelector: str(), equals: bound, min: bound, max: bound }, ['kind']),
  noNodeTaint: str(),
  event: obj({ reason: str(), type: oneOf(['Normal', 'Warning']), kind: kindName }, ['reason']),
  noEvent: obj({ reason: str(), kind: kindName }, ['reason']),
  condition: obj(
    {
      kind: oneOf(['NodeClaim', 'NodePool', 'EC2NodeClass', 'Node', 'NodeOverlay']),
      name: str(),
      type: str(),
      status: oneOf(['True', 'False', 'Unknown']),
    },
    ['kind', 'type', 'status'],
  ),
  costPerHour: obj({ max: num({ min: 0 }) }, ['max']),
  nodeClaimNeverDeleted: obj({ reason: str() }, ['reason']),
  fewestPerZone: oneOf([true]),
});

const verbs = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'];
const watchDropOptions = obj({ lifetime: duration, for: duration });
const fault = union('fault', {
  ccmDelay: obj({ min: duration, max: duration, for: duration }, ['min', 'max']),
  kubeletStop: obj({ labelSelector: str(), count: num({ integer: true, min: 1 }), for: duration }),
  insufficientCapacity: obj({
    instanceType: str(),
    zone: str(),
    capacityType: oneOf(['on-demand', 'spot', 'reserved']),
    for: duration,
  }),
  apiErrors: obj(
    {
      rate: num({ min: 0, max: 1 }),
      verb: oneOf(verbs),
      resource: str(),
      code: oneOf([...apiErrorCodes]),
      for: duration,
    },
    ['rate'],
  ),
  watchDrop: (v, path, errors) => (v === true ? undefined : watchDropOptions(v, path, errors)),
  ec2Throttling: obj({ action: str(), calls: num({ integer: true, min: 1 }) }, ['calls']),
  instanceLoss: obj({ count: num({ integer: true, min: 1 }), capacityType: oneOf(['on-demand', 'spot', 'reserved']) }, [
    'count',
  ]),
  spotInterruption: obj({ count: num({ integer: true, min: 1 }), warning: duration }, ['count']),
  rebalanceRecommendation: obj({ count: num({ integer: true, min: 1 }) }, ['count']),
});

const applyBody: Check = (v, path, errors) =>
  typeof v === 'string' ? undefined : obj({ file: str() }, ['file'])(v, path, errors);

const step = union('step', {
  apply: applyBody,
  delete: obj(objectRef, ['kind', 'name']),
  scale: obj({ ...objectRef, replicas: num({ integer: true, min: 0 }) }, ['kind', 'name', 'replicas']),
  wait: obj({ for: expectation, timeout: duration, while: expectation }, ['for', 'timeout']),
  advance: duration,
  fault,
  expect: expectation,
});

const stringMap: Check = (v, path, errors) => {
  if (!isRecord(v)) return void errors.push({ path, message: 'must be a mapping of strings' });
  for (const [k, x] of Object.entries(v))
    if (typeof x !== 'string') errors.push({ path: [...path, k], message: 'must be a string' });
};

const capacityReservation = obj(
  {
    instanceType: str(),
    zone: str(),
    count: num({ integer: true, min: 1 }),
    instanceMatchCriteria: oneOf(['open', 'targeted']),
    reservationType: oneOf(['default', 'capacity-block']),
    tags: stringMap,
    interruptible: oneOf([true, false]),
    endsAfter: duration,
  },
  ['instanceType', 'zone', 'count'],
);

const scenarioCheck = obj(
  {
    name: str((s) =>
      /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(s)
        ? undefined
        : `must be lowercase letters, digits and dashes, got "${s}"`,
    ),
    description: str(),
    seed: num({ integer: true, min: 0 }),
    world: obj({
      zones: num({ integer: true, min: 3, max: 6 }),
      defaults: oneOf([true, false]),
      capacityReservations: list(capacityReservation),
    }),
    steps: list(step, { nonEmpty: true }),
  },
  ['name', 'steps'],
);

function formatPath(path: Path): string {
  return (
    path.reduce<string>((acc, p) => (typeof p === 'number' ? `${acc}[${p}]` : acc ? `${acc}.${p}` : p), '') || '(file)'
  );
}

function lineOf(doc: Document, lines: LineCounter, path: Path): number {
  // Walk up to the nearest path that exists in the document (a missing field is reported on its parent).
  for (let n = path.length; n >= 0; n--) {
    const node = n === 0 ? doc.contents : doc.getIn(path.slice(0, n), true);
    if (isNode(node) && node.range) return lines.linePos(node.range[0]).line;
  }
  return 1;
}

/** Parses a scenario's YAML text; returns the scenario or every error found, each with its line. */
export function parseScenario(
  text: string,
): { scenario: Scenario; errors: [] } | { scenario?: undefined; errors: ScenarioError[] } {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  if (doc.errors.length > 0) {
    return {
      errors: doc.errors.map((e) => ({
        line: lines.linePos(e.pos[0]).line,
        path: '(file)',
        message: `not valid YAML: ${e.message.split('\n')[0] ?? ''}`,
      })),
    };
  }
  const value: unknown = doc.toJS();
  const issues: Issue[] = [];
  scenarioCheck(value, [], issues);
  if (issues.length > 0)
    return {
      errors: issues.map((i) => ({ line: lineOf(doc, lines, i.path), path: formatPath(i.path), message: i.message })),
    };
  return { scenario: value as Scenario, errors: [] };
}

/** `file:line: path: message`, the form editors and CI logs link. */
export function formatScenarioError(file: string, e: ScenarioError): string {
  return `${file}:${e.line}: ${e.path}: ${e.message}`;
}
