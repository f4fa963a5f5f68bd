import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { staticClosure } from './import-graph.js';

const srcRoot = resolve(import.meta.dirname, '../../src');
const loaded = (entry: string): string[] => [...staticClosure(join(srcRoot, entry))].map((f) => relative(srcRoot, f));

describe('CLI entry points', () => {
  it('load no command before one is chosen (`tenon --version` loads the CLI shell only)', () => {
    expect(loaded('cli/main.ts').filter((f) => f.startsWith('cli/commands/') && f !== 'cli/commands/index.ts')).toEqual(
      [],
    );
    const heavy = ['sim/', 'scheduling/', 'apiserver/', 'controllers/', 'providers/', 'kube/', 'operator/', 'api/'];
    expect(loaded('cli/main.ts').filter((f) => heavy.some((h) => f.startsWith(h)))).toEqual([]);
  });

  it('keep the production commands off the playground (its allocator and heap settings included)', () => {
    for (const command of ['controller', 'crds', 'validate', 'lint', 'apiserver']) {
      expect(loaded(`cli/commands/${command}.ts`).filter((f) => f.startsWith('sim/playground/'))).toEqual([]);
    }
  });
});
