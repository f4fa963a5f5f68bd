import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { productionSources } from './import-graph.js';
import { literalReasonsOf } from './literal-reasons.js';

const srcRoot = resolve(import.meta.dirname, '../../src');

/** The layers that set status conditions and record Events against the cluster's objects. */
const writingLayers = ['controllers', 'providers', 'operator', 'state', 'kube', 'cloudprovider'];

describe('condition and Event reasons', () => {
  it('are named constants wherever conditions are set and Events recorded', () => {
    const found = productionSources(srcRoot, writingLayers).flatMap((f) =>
      literalReasonsOf(f, readFileSync(f, 'utf8')).map((r) => `${relative(srcRoot, f)}:${r.line} '${r.text}'`),
    );
    expect(found).toEqual([]);
  });

  it('are found as literals in an Event, a condition, a fallback, a class field and a type', () => {
    const text = [
      "recorder.publish(nc, { type: 'Warning', reason: 'LaunchTimeout', message });",
      "setCondition(cs, { type: ConditionTypes.ready, status: 'True', reason: 'Ready' }, opts);",
      "const c = { reason: ready.reason ?? 'NotReady', message: '' };",
      "const d = { reason: failed ? 'LaunchFailed' : ConditionReasons.launched };",
      "class Drift { readonly reason = 'Drifted' as const; }",
      "interface Blocked { reason: 'DisruptionBlocked' | 'Unconsolidatable' }",
    ].join('\n');
    expect(literalReasonsOf('x.ts', text).map((r) => `${r.line} ${r.text}`)).toEqual([
      '1 LaunchTimeout',
      '2 Ready',
      '3 NotReady',
      '4 LaunchFailed',
      '5 Drifted',
      '6 DisruptionBlocked',
      '6 Unconsolidatable',
    ]);
  });

  it('leave constants, metric labels and sentences alone', () => {
    const text = [
      'recorder.publish(nc, { type: \'Warning\', reason: EventReasons.launchTimeout, message: "Oops" });',
      "metrics.inc({ reason: 'liveness', nodepool });",
      "return { ok: false, reason: 'the body is not JSON' };",
      "const e = { reason: `${kind}`, type: 'Normal' };",
    ].join('\n');
    expect(literalReasonsOf('x.ts', text)).toEqual([]);
  });
});
