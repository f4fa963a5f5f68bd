/**
 * The report's "unexplained waits": at the end of a run, every pod the kube-scheduler could not place is explained
 * as `tenon explain pod` would; those Tenon cannot give a cause for (`explained: false`, or no cause at all) are
 * listed. A run of a correct Tenon lists none.
 */
import { cloudPool } from '../../controllers/cloud-objects.js';
import { SchedulingInputCache, toSchedulingInstanceType } from '../../controllers/provisioning/scheduling-input.js';
import { isOwnedBy } from '../../controllers/provisioning/provisionable.js';
import { explainContext, explainPod, readSnapshot, type Explanation } from '../../explain/index.js';
import type { Pod } from '../../kube/index.js';
import type { InstanceType } from '../../scheduling/index.js';
import type { Playground } from '../playground/playground.js';
import type { UnexplainedWait } from './run-report.js';

/** At most this many waiting pods are explained (each is a solve against the whole cluster). */
const maxExplained = 100;

/** A pod the kube-scheduler tried and could not place (the pods Tenon provisions for), still waiting. */
function waiting(p: Pod): boolean {
  if (p.spec.nodeName || p.metadata.deletionTimestamp) return false;
  if (p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed') return false;
  const scheduled = p.status?.conditions?.find((c) => c.type === 'PodScheduled');
  if (scheduled?.status !== 'False' || scheduled.reason !== 'Unschedulable') return false;
  return !isOwnedBy(p, 'DaemonSet') && !isOwnedBy(p, 'Node');
}

function unexplained(e: Explanation): boolean {
  return !e.explained || (e.cause === undefined && e.state === 'Pending');
}

async function instanceTypesOf(
  pg: Playground,
  pools: ReadonlyArray<{ metadata: { name?: string } }>,
): Promise<Map<string, InstanceType[]>> {
  const out = new Map<string, InstanceType[]>();
  const cache = new SchedulingInputCache();
  for (const np of pools) {
    const types = await pg.provider.getInstanceTypes(cloudPool(np as Parameters<typeof cloudPool>[0]));
    out.set(
      np.metadata.name ?? '',
      types.map((t) => toSchedulingInstanceType(t, cache)),
    );
  }
  return out;
}

/** Explains every waiting pod of the playground now and returns those without a cause. */
export async function findUnexplainedWaits(pg: Playground): Promise<UnexplainedWait[]> {
  const snapshot = await readSnapshot(pg.client);
  const now = pg.clock.now();
  const pods = snapshot.pods.filter(waiting).slice(0, maxExplained);
  if (pods.length === 0) return [];
  const ctx = explainContext(snapshot, { instanceTypes: await instanceTypesOf(pg, snapshot.nodePools), now });
  const out: UnexplainedWait[] = [];
  for (const p of pods) {
    const key = `${p.metadata.namespace ?? 'default'}/${p.metadata.name ?? ''}`;
    const e = explainPod(ctx, key);
    if (!e || !unexplained(e)) continue;
    const since = p.status?.conditions?.find((c) => c.type === 'PodScheduled')?.lastTransitionTime;
    const pendingSeconds = Math.max(0, Math.round((now - (Date.parse(since ?? '') || now)) / 1000));
    out.push({ pod: key, state: e.state, summary: e.summary, pendingSeconds });
  }
  return out.sort((a, b) => b.pendingSeconds - a.pendingSeconds || a.pod.localeCompare(b.pod));
}

function escape(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);
}

/** The report's section: the unexplained waits, or that there were none; empty when they were not looked for. */
export function unexplainedWaitsSection(waits: readonly UnexplainedWait[] | undefined): string {
  if (waits === undefined) return '';
  if (waits.length === 0)
    return '<h2>Unexplained waits</h2>\n<p id="unexplained-waits">None: every waiting pod has a cause `tenon explain` names.</p>';
  const rows = waits
    .map(
      (w) =>
        `<tr class="fail"><td>${escape(w.pod)}</td><td>${w.pendingSeconds}</td><td>${escape(w.state)}</td><td>${escape(w.summary)}</td></tr>`,
    )
    .join('\n');
  return `<h2>Unexplained waits</h2>
<p>${waits.length} pod${waits.length === 1 ? '' : 's'} waited without a cause Tenon can name (there should be none); \`tenon explain pod NAME\` shows the detail.</p>
<table id="unexplained-waits"><tr><th>pod</th><th>pending (s)</th><th>state</th><th>explanation</th></tr>
${rows}
</table>`;
}
