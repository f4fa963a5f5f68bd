import type { Command } from 'commander';
import { parseAllDocuments } from 'yaml';
import {
  effectiveKubeletConfig,
  familyOf,
  lint,
  tryGenerateUserData,
  type AmiFamily,
  type EC2NodeClassLike,
  type LintFinding,
  type NodePoolLike,
  type UserDataInput,
} from '../../providers/aws/bootstrap/index.js';
import { readInputFile } from '../input-file.js';

interface Manifest {
  kind?: string;
  metadata?: { name?: string };
  spec?: unknown;
}

/** The EC2NodeClasses and NodePools in the files (any other kinds are ignored). */
export function readNodeClasses(files: readonly string[]): {
  nodeClasses: EC2NodeClassLike[];
  nodePools: NodePoolLike[];
} {
  const nodeClasses: EC2NodeClassLike[] = [];
  const nodePools: NodePoolLike[] = [];
  for (const file of files) {
    for (const doc of parseAllDocuments(readInputFile(file, 'manifest'))) {
      if (doc.errors.length > 0) throw new Error(`${file}: not valid YAML: ${doc.errors[0]?.message ?? ''}`);
      const m = doc.toJS() as Manifest | null;
      if (m?.kind === 'EC2NodeClass' && m.spec) nodeClasses.push(m as EC2NodeClassLike);
      if (m?.kind === 'NodePool' && m.spec) nodePools.push(m as NodePoolLike);
    }
  }
  return { nodeClasses, nodePools };
}

function where(f: LintFinding): string {
  const l = f.location;
  const parts = [
    l.part !== undefined ? `part ${l.part}` : '',
    l.document !== undefined ? `document ${l.document}` : '',
    l.line !== undefined ? `line ${l.line}` : '',
  ].filter(Boolean);
  return parts.length ? ` (${parts.join(', ')})` : '';
}

/** Lint lines for every EC2NodeClass, and whether any finding is an error. */
export function lintLines(
  nodeClasses: readonly EC2NodeClassLike[],
  nodePools: readonly NodePoolLike[],
): { lines: string[]; failed: boolean } {
  const lines: string[] = [];
  let failed = false;
  for (const nodeClass of nodeClasses) {
    const name = `EC2NodeClass/${nodeClass.metadata?.name ?? '?'}`;
    const pools = nodePools.filter(
      (p) =>
        !p.spec.template.spec.nodeClassRef?.name || p.spec.template.spec.nodeClassRef.name === nodeClass.metadata?.name,
    );
    const findings = lint({ nodeClass, nodePools: pools });
    if (findings.length === 0) lines.push(`${name}: no findings`);
    for (const f of findings) {
      failed ||= f.severity === 'error';
      lines.push(`${name}: ${f.severity} ${f.code}${where(f)}: ${f.message}`, `  fix: ${f.fix}`);
    }
  }
  return { lines, failed };
}

function run(positional: string[], flags: { file?: string[]; effective?: boolean; userdata?: boolean }): void {
  const files = [...positional, ...(flags.file ?? [])];
  const usage = (message: string): void => {
    process.stderr.write(`tenon lint: ${message}\n`);
    process.exitCode = 2;
  };
  if (files.length === 0) return usage('name at least one manifest file (tenon lint FILE...)');
  let read: ReturnType<typeof readNodeClasses>;
  try {
    read = readNodeClasses(files);
  } catch (e: unknown) {
    return usage(e instanceof Error ? e.message : String(e));
  }
  const { nodeClasses, nodePools } = read;
  if (nodeClasses.length === 0) return usage(`no EC2NodeClass found in ${files.join(', ')}`);
  const { lines, failed } = lintLines(nodeClasses, nodePools);
  process.stdout.write(`${lines.join('\n')}\n`);
  if (flags.userdata || flags.effective) {
    for (const nc of nodeClasses) printUserData(nc, nodePools[0], flags.effective ?? false);
  }
  process.exitCode = failed ? 1 : 0;
}

function userDataInput(nodeClass: EC2NodeClassLike, pool: NodePoolLike | undefined, family: AmiFamily): UserDataInput {
  const t = pool?.spec.template;
  return {
    amiFamily: family,
    userData: nodeClass.spec.userData,
    cluster: {
      name: 'my-cluster',
      endpoint: 'https://my-cluster.example',
      caBundle: 'Q0E=',
      serviceCidr: '10.100.0.0/16',
    },
    labels: { ...t?.metadata?.labels, 'karpenter.sh/nodepool': pool?.metadata?.name ?? 'default' },
    taints: t?.spec.taints ?? [],
    startupTaints: t?.spec.startupTaints ?? [],
    kubelet: nodeClass.spec.kubelet,
  };
}

function printUserData(nodeClass: EC2NodeClassLike, pool: NodePoolLike | undefined, effective: boolean): void {
  const family = familyOf(nodeClass) ?? 'Custom';
  const generated = tryGenerateUserData(userDataInput(nodeClass, pool, family));
  const name = nodeClass.metadata?.name ?? '?';
  if (!generated.ok) {
    process.stdout.write(`\nEC2NodeClass/${name}: userData cannot be generated: ${generated.error}\n`);
    return;
  }
  process.stdout.write(
    `\n--- userData Tenon would launch EC2NodeClass/${name} with (${family}) ---\n${generated.userData}\n`,
  );
  if (effective)
    process.stdout.write(
      `--- what the kubelet will run with ---\n${JSON.stringify(effectiveKubeletConfig(generated.userData, family), null, 2)}\n`,
    );
}

/** `tenon lint FILE...` (or `-f FILE`): the userData lint of SCENARIOS.md S2/S3, and the userData Tenon would generate. */
export function registerLint(program: Command): void {
  program
    .command('lint')
    .description(
      'lint EC2NodeClass userData (bootstrap options, registration taints, settings Tenon manages); exits 1 on errors',
    )
    .argument('[files...]', 'manifests with EC2NodeClasses (and optionally their NodePools)')
    .option('-f, --file <files...>', 'the same, as a flag')
    .option('--userdata', 'also print the userData Tenon would generate')
    .option('--effective', 'also print what the kubelet will actually run with (implies --userdata)')
    .action(run);
}
