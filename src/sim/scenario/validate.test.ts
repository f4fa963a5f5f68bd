import { describe, expect, it } from 'vitest';
import { formatScenarioError, parseScenario } from './validate.js';

const valid = `name: scale-up
description: a Deployment scales up
seed: 7
world:
  zones: 3
steps:
  - apply: |
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: web}
  - wait:
      for: {allPodsRunning: true}
      timeout: 10m
  - advance: 5m
  - fault: {kubeletStop: {count: 1}}
  - scale: {kind: Deployment, name: web, replicas: 0}
  - expect: {count: {kind: NodeClaim, max: 3}}
  - expect: {nodeClaimNeverDeleted: {reason: RegistrationTimeout}}
`;

describe('scenario files', () => {
  it('a valid file parses into its steps', () => {
    const r = parseScenario(valid);
    expect(r.errors).toEqual([]);
    expect(r.scenario?.steps).toHaveLength(7);
    expect(r.scenario?.steps[2]).toEqual({ advance: '5m' });
  });

  it('a wait may name an expectation that must hold throughout, checked like any other', () => {
    const withWhile = valid.replace('timeout: 10m', 'timeout: 10m\n      while: {count: {kind: Node, min: 2}}');
    expect(parseScenario(withWhile).errors).toEqual([]);
    const bad = parseScenario(withWhile.replace('kind: Node, min: 2', 'kind: Node, min: two'));
    expect(bad.errors.map((e) => e.path)).toEqual(['steps[1].wait.while.count.min']);
  });

  it('a bad duration is reported on its line with the field path and the rule', () => {
    const r = parseScenario(valid.replace('timeout: 10m', 'timeout: ten minutes'));
    expect(r.errors).toEqual([
      {
        line: 13,
        path: 'steps[1].wait.timeout',
        message: 'must be a duration like 30s, 5m or 1h30m, got "ten minutes"',
      },
    ]);
    const [first] = r.errors;
    expect(first && formatScenarioError('s.yaml', first)).toBe(
      's.yaml:13: steps[1].wait.timeout: must be a duration like 30s, 5m or 1h30m, got "ten minutes"',
    );
  });

  it('an unknown step names the steps that exist', () => {
    const r = parseScenario(valid.replace('  - advance: 5m', '  - sleep: 5m'));
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatchObject({ line: 14, path: 'steps[2].sleep' });
    expect(r.errors[0]?.message).toContain('unknown step; known: apply, delete, scale, wait, advance, fault, expect');
  });

  it('a missing required field is reported on the mapping that lacks it', () => {
    const r = parseScenario(
      valid.replace('{kind: Deployment, name: web, replicas: 0}', '{kind: Deployment, name: web}'),
    );
    expect(r.errors).toEqual([{ line: 16, path: 'steps[4].scale.replicas', message: 'is required' }]);
  });

  it('reports every error at once, not just the first', () => {
    const r = parseScenario(
      valid.replace('zones: 3', 'zones: 9').replace('kind: NodeClaim, max: 3', 'kind: Machine, max: -1'),
    );
    expect(r.errors.map((e) => e.path)).toEqual([
      'world.zones',
      'steps[5].expect.count.kind',
      'steps[5].expect.count.max',
    ]);
  });

  it('checks the world capacity reservations field by field', () => {
    const ok = parseScenario(
      valid.replace(
        'zones: 3',
        'zones: 3\n  capacityReservations: [{instanceType: m5.large, zone: us-east-1a, count: 2, tags: {team: ml}}]',
      ),
    );
    expect(ok.errors).toEqual([]);
    expect(ok.scenario?.world?.capacityReservations?.[0]).toEqual({
      instanceType: 'm5.large',
      zone: 'us-east-1a',
      count: 2,
      tags: { team: 'ml' },
    });
    const bad = parseScenario(
      valid.replace('zones: 3', 'zones: 3\n  capacityReservations: [{zone: us-east-1a, count: 0, endsAfter: soon}]'),
    );
    expect(bad.errors.map((e) => `${e.path}: ${e.message}`)).toEqual([
      'world.capacityReservations[0].instanceType: is required',
      'world.capacityReservations[0].count: must be at least 1',
      'world.capacityReservations[0].endsAfter: must be a duration like 30s, 5m or 1h30m, got "soon"',
    ]);
  });

  it('YAML syntax errors carry their line', () => {
    const r = parseScenario('name: x\nsteps:\n  - advance: [1m\n');
    expect(r.errors[0]?.message).toMatch(/^not valid YAML/);
    expect(r.errors[0]?.line).toBeGreaterThanOrEqual(3);
  });

  it('a step with two actions is rejected', () => {
    const r = parseScenario('name: x\nsteps:\n  - {advance: 1m, expect: {allPodsRunning: true}}\n');
    expect(r.errors[0]).toMatchObject({ line: 3, path: 'steps[0]' });
    expect(r.errors[0]?.message).toContain('exactly one of');
  });
});
