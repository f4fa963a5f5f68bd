import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkFile, checkTree, sourceFiles } from './import-graph.js';

const srcRoot = resolve(import.meta.dirname, '../../src');

describe('layer rules of DESIGN.md', () => {
  it('hold for every source file', () => {
    expect(checkTree(srcRoot)).toEqual([]);
  });

  it('catch a controller importing the simulation', () => {
    const file = join(srcRoot, 'controllers/provisioning/x.ts');
    const v = checkFile(srcRoot, file, "import { SimEc2 } from '../../sim/ec2/index.js';\n");
    expect(v.map((x) => x.specifier)).toEqual(['../../sim/ec2/index.js']);
  });

  it('catch scheduling doing I/O or reaching the cluster', () => {
    const file = join(srcRoot, 'scheduling/solver.ts');
    const text =
      "import { readFileSync } from 'node:fs';\nimport type { Informer } from '../kube/informer.js';\nimport { Labels } from '../api/index.js';\n";
    expect(checkFile(srcRoot, file, text).map((x) => x.specifier)).toEqual(['node:fs', '../kube/informer.js']);
  });

  it('catch api importing another layer, and the apiserver importing anything but api', () => {
    expect(checkFile(srcRoot, join(srcRoot, 'api/a.ts'), "export * from '../scheduling/x.js';").length).toBe(1);
    expect(checkFile(srcRoot, join(srcRoot, 'apiserver/a.ts'), "import '../kube/x.js';").length).toBe(1);
    expect(checkFile(srcRoot, join(srcRoot, 'apiserver/a.ts'), "import { x } from '../api/x.js';").length).toBe(0);
  });

  it('keep scheduling free of clocks and random sources', () => {
    const impure = sourceFiles(join(srcRoot, 'scheduling')).filter((f) =>
      /\bDate\.now\(|\bnew Date\(|\bMath\.random\(|\bperformance\.now\(/.test(readFileSync(f, 'utf8')),
    );
    expect(impure).toEqual([]);
  });
});
