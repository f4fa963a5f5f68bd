/** The chart under test: helm (built by helm.sh from the Go module proxy), rendering, and applying with kubectl. */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parseAllDocuments } from 'yaml';
import { clusterKubeconfig } from './cluster.js';

const run = promisify(execFile);

/** The chart's folder. */
export const chartDir = join(process.cwd(), 'charts/tenon');

/** Runs helm with `args` (helm.sh builds it first when it is not cached); resolves with its stdout. */
export async function helm(args: string[]): Promise<string> {
  const { stdout } = await run(join(process.cwd(), 'test/cluster/helm.sh'), args, {
    maxBuffer: 64 << 20,
    timeout: 1_800_000,
  });
  return stdout;
}

/** A rendered Kubernetes object, as far as the tests read it. */
export interface Rendered {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string };
  [k: string]: unknown;
}

/** `helm template` of the chart in `namespace` with `--set` values; the CRDs are left out (crds/ is applied apart). */
export async function renderChart(
  namespace: string,
  set: Record<string, string> = {},
): Promise<{ yaml: string; objects: Rendered[] }> {
  const sets = Object.entries(set).flatMap(([k, v]) => ['--set', `${k}=${v}`]);
  // helm built from source reports Kubernetes v1.20 unless told; render for the control plane's version.
  const yaml = await helm([
    'template',
    'tenon',
    chartDir,
    '--namespace',
    namespace,
    '--kube-version',
    'v1.33.13',
    ...sets,
  ]);
  const objects = parseAllDocuments(yaml)
    .map((d) => d.toJS() as Rendered | null)
    .filter((o): o is Rendered => o !== null);
  return { yaml, objects };
}

/** `kubectl ARGS` against the control plane, with `input` on stdin. */
export async function kubectl(args: string[], input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'kubectl',
      ['--kubeconfig', clusterKubeconfig(), ...args],
      { maxBuffer: 64 << 20 },
      (err, stdout, stderr) =>
        err ? reject(new Error(`kubectl ${args.join(' ')}: ${stderr || err.message}`)) : resolve(stdout),
    );
    child.stdin?.end(input ?? '');
  });
}
