import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import YAML from 'yaml';
import { describe, expect, test } from 'vitest';
import { fullEC2NodeClass, fullNodeClaim, fullNodePool } from '../../api/fixtures/index.js';
import { validateFiles } from './validate.js';

function workspace(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'tenon-validate-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

const stream = (...docs: unknown[]): string => docs.map((d) => YAML.stringify(d)).join('---\n');
const badPool = (): Record<string, unknown> => {
  const np = fullNodePool() as { spec: { weight: number } };
  np.spec.weight = 0;
  return np as unknown as Record<string, unknown>;
};

describe('tenon validate', () => {
  test('accepts valid manifests and notes kinds it does not serve', () => {
    const dir = workspace({
      'all.yaml': stream(
        fullNodePool(),
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' } },
        fullEC2NodeClass(),
        fullNodeClaim(),
      ),
    });
    const { lines, failed } = validateFiles([dir]);
    expect(failed).toBe(false);
    expect(lines).toContain(`${join(dir, 'all.yaml')}[1] ConfigMap/cm: note: kind not served by Tenon, skipped`);
    expect(lines[lines.length - 1]).toBe('3 object(s) checked: valid');
  });

  test('prints each error with file, document index, kind/name, field and rule', () => {
    const dir = workspace({ 'sub/pools.yml': stream(fullNodePool(), badPool()) });
    const { lines, failed } = validateFiles([dir]);
    expect(failed).toBe(true);
    expect(lines).toContain(
      `${join(dir, 'sub/pools.yml')}[1] NodePool/default: error: spec.weight: Invalid value: 0: spec.weight in body should be greater than or equal to 1`,
    );
  });

  test('a static NodePool (spec.replicas, limits.nodes) is valid; weight on it is not', () => {
    const pool = fullNodePool() as { spec: Record<string, unknown> };
    delete pool.spec.weight;
    pool.spec.replicas = 3;
    pool.spec.limits = { nodes: '5' };
    const weighted = structuredClone(pool);
    weighted.spec.weight = 10;
    const dir = workspace({ 'static.yaml': stream(pool), 'weighted.yaml': stream(weighted) });
    const { lines } = validateFiles([dir]);
    expect(lines).toEqual([
      `${join(dir, 'weighted.yaml')}[0] NodePool/default: error: spec: Invalid value: "object": 'weight' is not supported on static NodePools`,
      '2 object(s) checked: invalid',
    ]);
  });

  test('an unknown field is an error, as kubectl apply (strict field validation) reports it', () => {
    const pool = fullNodePool() as { spec: Record<string, unknown> };
    pool.spec.replica = 3;
    const dir = workspace({ 'typo.yaml': stream(pool) });
    const { lines, failed } = validateFiles([dir]);
    expect(failed).toBe(true);
    expect(lines).toContain(`${join(dir, 'typo.yaml')}[0] NodePool/default: error: unknown field "spec.replica"`);
  });

  test('reports YAML that does not parse', () => {
    const dir = workspace({ 'broken.yaml': 'kind: [unclosed\n' });
    const { lines, failed } = validateFiles([join(dir, 'broken.yaml')]);
    expect(failed).toBe(true);
    expect(lines[0]).toMatch(/broken\.yaml\[0\]: error: <document>: Invalid value/);
  });

  test('refuses a document past 3 MiB (no object can be larger) without parsing it, naming its line', () => {
    const huge = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'huge' },
      data: { x: 'y'.repeat(3_200_000) },
    };
    const dir = workspace({ 'huge.yaml': stream(fullNodePool(), huge) });
    const { lines, failed } = validateFiles([dir]);
    expect(failed).toBe(true);
    const at = stream(fullNodePool()).split('\n').length;
    expect(lines[0]).toMatch(
      new RegExp(`the document at line ${at} is 3\\.1 MiB, over the 3 MiB limit of a Kubernetes object`),
    );
  });

  test('the command exits non-zero on an invalid manifest', () => {
    const dir = workspace({ 'bad.yaml': stream(badPool()) });
    const run = (): string =>
      execFileSync('node', ['bin/tenon.js', 'validate', '-f', join(dir, 'bad.yaml')], {
        encoding: 'utf8',
        stdio: 'pipe',
      });
    expect(run).toThrow();
    const good = workspace({ 'good.yaml': stream(fullNodePool()) });
    expect(execFileSync('node', ['bin/tenon.js', 'validate', '-f', good], { encoding: 'utf8' })).toContain(
      '1 object(s) checked: valid',
    );
  });
});
