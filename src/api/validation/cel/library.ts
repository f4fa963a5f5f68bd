import { CelScalar, celMethod, isCelList, listType, type CelFunc, type CelValue } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';
import { compilePattern } from '../keywords.js';

// The Kubernetes CEL libraries the CRD rules rely on, written against their documented behaviour
// (https://kubernetes.io/docs/reference/using-api/cel/): regex `find`/`findAll` and the list helpers,
// on top of cel-go's strings extension (split, lowerAscii, replace, ...) that Kubernetes also enables.

function regex(pattern: string, flags = ''): RegExp {
  const re = compilePattern(pattern);
  if (!re) throw new Error(`invalid regex: ${pattern}`);
  return new RegExp(re.source, re.flags + flags);
}

const find = celMethod('find', CelScalar.STRING, [CelScalar.STRING], CelScalar.STRING, function (pattern) {
  const m = regex(pattern).exec(this);
  return m ? m[0] : '';
});

const findAll = celMethod(
  'findAll',
  CelScalar.STRING,
  [CelScalar.STRING],
  listType(CelScalar.STRING),
  function (pattern) {
    return [...this.matchAll(regex(pattern, 'g'))].map((m) => m[0]);
  },
);

const findAllLimit = celMethod(
  'findAll',
  CelScalar.STRING,
  [CelScalar.STRING, CelScalar.INT],
  listType(CelScalar.STRING),
  function (pattern, limit) {
    const all = [...this.matchAll(regex(pattern, 'g'))].map((m) => m[0]);
    return limit < 0n ? all : all.slice(0, Number(limit));
  },
);

type Comparable = bigint | number | string | boolean;

function comparable(list: CelValue): Comparable[] {
  if (!isCelList(list)) throw new Error('expected a list');
  const out: Comparable[] = [];
  for (const v of list) {
    if (typeof v === 'bigint' || typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') out.push(v);
    else throw new Error('list elements must be comparable');
  }
  return out;
}

const dynList = listType(CelScalar.DYN);

const isSorted = celMethod('isSorted', dynList, [], CelScalar.BOOL, function () {
  const xs = comparable(this);
  return xs.every((x, i) => i === 0 || (xs[i - 1] as Comparable) <= x);
});

function extreme(pick: (a: Comparable, b: Comparable) => boolean): (this: CelValue) => CelValue {
  return function (this: CelValue): CelValue {
    const xs = comparable(this);
    if (xs.length === 0) throw new Error('min/max of an empty list');
    return xs.reduce((a, b) => (pick(b, a) ? b : a));
  };
}

const minFn = celMethod(
  'min',
  dynList,
  [],
  CelScalar.DYN,
  extreme((a, b) => a < b),
);
const maxFn = celMethod(
  'max',
  dynList,
  [],
  CelScalar.DYN,
  extreme((a, b) => a > b),
);

const sum = celMethod('sum', dynList, [], CelScalar.DYN, function () {
  const xs = comparable(this);
  if (xs.every((x) => typeof x === 'bigint')) return xs.reduce((a, b) => (a as bigint) + (b as bigint), 0n);
  if (xs.every((x) => typeof x === 'number')) return xs.reduce((a, b) => (a as number) + (b as number), 0);
  throw new Error('sum needs a list of ints or doubles');
});

const indexOfList = celMethod('indexOf', dynList, [CelScalar.DYN], CelScalar.INT, function (x) {
  return BigInt(comparable(this).findIndex((v) => v === x));
});

const lastIndexOfList = celMethod('lastIndexOf', dynList, [CelScalar.DYN], CelScalar.INT, function (x) {
  return BigInt(comparable(this).lastIndexOf(x as Comparable));
});

/** The functions added to the standard CEL environment for CRD validation rules. */
export function kubernetesCelFunctions(): CelFunc[] {
  return [...strings, find, findAll, findAllLimit, isSorted, minFn, maxFn, sum, indexOfList, lastIndexOfList];
}
