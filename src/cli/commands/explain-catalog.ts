/**
 * The instance types `tenon explain` judges NodePools by when it runs outside the controller: the shipped catalog,
 * offered in the zones of each EC2NodeClass's subnets as the AWS provider computes them, priced by the simulated
 * account (the playground's own prices). It cannot see the controller's unavailable-offerings cache; recent
 * InsufficientCapacityError events say what ran out instead.
 */
import { FakeClock } from '../../clock/index.js';
import { SchedulingInputCache, toSchedulingInstanceType } from '../../controllers/provisioning/scheduling-input.js';
import type { ClusterSnapshot } from '../../explain/index.js';
import { generateUserData } from '../../providers/aws/bootstrap/index.js';
import { AwsCloudProvider } from '../../providers/aws/index.js';
import type { InstanceType } from '../../scheduling/index.js';
import { SimEc2 } from '../../sim/ec2/index.js';

function regionOf(zones: readonly string[]): string {
  return (zones[0] ?? 'us-east-1a').replace(/[a-z]$/, '');
}

/** The instance types each NodePool of the snapshot may launch, by NodePool name. */
export async function catalogInstanceTypes(
  snapshot: ClusterSnapshot,
  now: number,
): Promise<Map<string, InstanceType[]>> {
  const out = new Map<string, InstanceType[]>();
  const cache = new SchedulingInputCache();
  for (const np of snapshot.nodePools) {
    const ref = np.spec.template.spec.nodeClassRef;
    const nodeClass = snapshot.nodeClasses.find((c) => c.metadata.name === ref.name);
    const zones = [...new Set(nodeClass?.status?.subnets?.map((s) => s.zone) ?? [])].sort();
    if (!nodeClass || zones.length === 0) {
      out.set(np.metadata.name ?? '', []);
      continue;
    }
    const clock = new FakeClock(now);
    const port = new SimEc2({ clock, region: regionOf(zones), zones });
    const provider = new AwsCloudProvider({
      port,
      clock,
      cluster: { name: 'explain', endpoint: 'https://cluster.invalid' },
      kubernetesVersion: '1.33',
      getNodeClass: (n) => (n === ref.name ? nodeClass : undefined),
      userDataGenerator: generateUserData,
    });
    const pool = { ...np, metadata: { ...np.metadata, name: np.metadata.name ?? '' } };
    out.set(
      np.metadata.name ?? '',
      (await provider.getInstanceTypes(pool)).map((it) => toSchedulingInstanceType(it, cache)),
    );
  }
  return out;
}
