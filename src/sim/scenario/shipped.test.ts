import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseManifests } from './apply.js';
import { parseScenario } from './validate.js';

const dir = join(import.meta.dirname, '../../../scenarios');
const files = readdirSync(dir).filter((f) => f.endsWith('.yaml'));

describe('shipped scenario files', () => {
  it('include the ones SCENARIOS.md and the playground issue name', () => {
    for (const name of [
      'tour',
      'scale-up',
      'scale-down',
      's1-ccm-taint-race',
      's2-user-register-taints',
      's3-custom-ami-bootstrap',
      's4-immediate-pvc',
      's5-unknown-node-repair',
      's5-repair-blocked',
    ]) {
      expect(files).toContain(`${name}.yaml`);
    }
  });

  it.each(files)('%s is valid, named after its file, and its inline manifests parse', (file) => {
    const r = parseScenario(readFileSync(join(dir, file), 'utf8'));
    expect(r.errors).toEqual([]);
    expect(`${r.scenario?.name}.yaml`).toBe(file);
    for (const step of r.scenario?.steps ?? []) {
      if ('apply' in step && typeof step.apply === 'string')
        expect(parseManifests(step.apply).length).toBeGreaterThan(0);
    }
  });
});
