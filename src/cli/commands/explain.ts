/**
 * `tenon explain KIND NAME`: why a pod is pending, why a NodeClaim waits, why a node stays, what a NodePool uses
 * and would launch. Read-only against any cluster (--kubeconfig, else $KUBECONFIG, else ~/.kube/config, else the
 * in-cluster config) and the playground (`tenon serve` prints its kubeconfig). Also `kubectl tenon explain …`.
 */
import { loadKubeConfig } from './kubeconfig-file.js';
import type { Command } from 'commander';
import { systemClock } from '../../clock/index.js';
import {
  explainContext,
  explainNode,
  explainNodeClaim,
  explainNodePool,
  explainPod,
  formatJson,
  formatText,
  readSnapshot,
  type ClusterSnapshot,
  type Explanation,
} from '../../explain/index.js';
import { SchedulingInputCache, toSchedulingInstanceType } from '../../controllers/provisioning/scheduling-input.js';
import { KubeClient, transportFromKubeConfig } from '../../kube/index.js';
import { awsRepairPolicies } from '../../providers/aws/index.js';
import { UsageError } from '../usage-error.js';
import { catalogInstanceTypes } from './explain-catalog.js';

const kinds = ['pod', 'nodeclaim', 'node', 'nodepool'] as const;
type Kind = (typeof kinds)[number];
const aliases: Record<string, Kind> = {
  pod: 'pod',
  pods: 'pod',
  po: 'pod',
  nodeclaim: 'nodeclaim',
  nodeclaims: 'nodeclaim',
  node: 'node',
  nodes: 'node',
  no: 'node',
  nodepool: 'nodepool',
  nodepools: 'nodepool',
};

/** What to explain and how to print it. */
export interface ExplainFlags {
  kubeconfig?: string;
  namespace?: string;
  output?: string;
  /** The provider the controller runs with: aws (default) or fake (`tenon controller --cloud-provider fake`). */
  cloudProvider?: string;
}

function parseKind(text: string): Kind {
  const kind = aliases[text.toLowerCase()];
  if (!kind) throw new UsageError(`KIND: "${text}" is not one of ${kinds.join(', ')}`);
  return kind;
}

function podKey(name: string, namespace: string | undefined): string {
  if (name.includes('/')) return name;
  return `${namespace ?? 'default'}/${name}`;
}

/**
 * The cluster's "now": the host's, unless the newest stamp in the cluster is more than a day away from it (a
 * playground on simulated time), then that stamp.
 */
function clusterNow(snapshot: ClusterSnapshot, host: number): number {
  let newest = 0;
  for (const e of snapshot.events)
    newest = Math.max(newest, Date.parse(e.lastTimestamp ?? e.eventTime ?? e.firstTimestamp ?? '') || 0);
  for (const list of [snapshot.pods, snapshot.nodeClaims, snapshot.nodes])
    for (const o of list) newest = Math.max(newest, Date.parse(o.metadata.creationTimestamp ?? '') || 0);
  return newest > 0 && Math.abs(host - newest) > 86_400_000 ? newest : host;
}

/** The instance types and NodePool judgement of the provider the controller runs with. */
async function providerView(
  snapshot: ClusterSnapshot,
  o: { provider: string; now: number },
): Promise<Pick<Parameters<typeof explainContext>[1], 'instanceTypes' | 'ignoreNodeClasses' | 'repair'>> {
  if (o.provider === 'aws')
    return {
      instanceTypes: await catalogInstanceTypes(snapshot, o.now),
      repair: { policies: awsRepairPolicies, threshold: 0.2 },
    };
  // Loaded on demand, as `tenon controller --cloud-provider fake` loads it: the fake cloud's catalog for every NodePool.
  const { catalogInstanceTypes: fakeTypes } = await import('../../sim/fakecloud/catalog-instance-types.js');
  const cache = new SchedulingInputCache();
  const types = fakeTypes().map((t) => toSchedulingInstanceType(t, cache));
  return {
    instanceTypes: new Map(snapshot.nodePools.map((np) => [np.metadata.name ?? '', types])),
    ignoreNodeClasses: true,
  };
}

/** Runs the command; resolves to the exit code (0 explained, 1 not found or not explained). */
export async function runExplain(
  kindText: string,
  name: string,
  flags: ExplainFlags,
  out: (text: string) => void,
): Promise<number> {
  const kind = parseKind(kindText);
  const output = flags.output ?? 'text';
  if (output !== 'text' && output !== 'json') throw new UsageError(`-o: "${output}" is not text or json`);
  const provider = flags.cloudProvider ?? 'aws';
  if (provider !== 'aws' && provider !== 'fake')
    throw new UsageError(`--cloud-provider: "${provider}" is not aws or fake`);
  const client = new KubeClient(await transportFromKubeConfig(loadKubeConfig(flags.kubeconfig)));
  const snapshot = await readSnapshot(client);
  const now = clusterNow(snapshot, systemClock.now());
  const ctx = explainContext(snapshot, { ...(await providerView(snapshot, { provider, now })), now });
  const explain: Record<Kind, () => Explanation | undefined> = {
    pod: () => explainPod(ctx, podKey(name, flags.namespace)),
    nodeclaim: () => explainNodeClaim(ctx, name),
    node: () => explainNode(ctx, name),
    nodepool: () => explainNodePool(ctx, name),
  };
  const e = explain[kind]();
  if (!e) {
    out(
      output === 'json'
        ? `${JSON.stringify({ kind, name, error: 'NotFound' })}\n`
        : `${kind} ${kind === 'pod' ? podKey(name, flags.namespace) : name} not found\n`,
    );
    return 1;
  }
  out(output === 'json' ? formatJson(e) : formatText(e));
  return e.explained ? 0 : 1;
}

/** Registers `tenon explain`. */
export function registerExplain(program: Command): void {
  program
    .command('explain')
    .description(
      'explain why a pod is pending, a NodeClaim waits, a node stays, or what a NodePool uses (read-only; also `kubectl tenon explain`)',
    )
    .argument('<kind>', `one of ${kinds.join(', ')}`)
    .argument('<name>', 'NAME, or NAMESPACE/NAME for a pod')
    .option('--kubeconfig <file>', 'kubeconfig to use (default: $KUBECONFIG, then ~/.kube/config, then in-cluster)')
    .option('-n, --namespace <namespace>', 'namespace of the pod when NAME has none', 'default')
    .option('-o, --output <format>', 'text or json', 'text')
    .option('--cloud-provider <name>', 'the provider the controller runs with: aws or fake', 'aws')
    .action(async (kind: string, name: string, flags: ExplainFlags) => {
      process.exitCode = await runExplain(kind, name, flags, (t) => process.stdout.write(t));
    });
}
