import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { crdFileName, crdYaml, tenonCrds, tenonCrdsYaml } from '../../api/index.js';

/** `tenon crds`: prints the NodePool, NodeClaim and EC2NodeClass CRDs, or writes one file per CRD. */
export function registerCrds(program: Command): void {
  program
    .command('crds')
    .description('print the CRDs Tenon serves (NodePool, NodeClaim, EC2NodeClass) as multi-document YAML')
    .option('-o, --out-dir <dir>', 'write one file per CRD (upstream file names) into this directory instead')
    .action((opts: { outDir?: string }) => {
      if (!opts.outDir) {
        process.stdout.write(tenonCrdsYaml());
        return;
      }
      mkdirSync(opts.outDir, { recursive: true });
      for (const crd of tenonCrds()) {
        const path = join(opts.outDir, crdFileName(crd));
        writeFileSync(path, crdYaml(crd));
        process.stdout.write(`wrote ${path}\n`);
      }
    });
}
