/** Applies a scenario's fault to the playground. */
import { parseDuration } from '../../settings/duration.js';
import { Resources, type Node } from '../../kube/index.js';
import { compileSelector } from '../../scheduling/index.js';
import type { Playground } from '../playground/playground.js';
import type { Fault } from './format.js';

function parseSelector(text: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (text ?? '').split(',').map((p) => p.trim()).filter(Boolean)) {
    const [k = '', v = ''] = part.split('=');
    out[k.trim()] = v.trim();
  }
  return out;
}

async function stopKubelets(pg: Playground, f: { labelSelector?: string; count?: number }): Promise<string> {
  const matches = compileSelector({ matchLabels: parseSelector(f.labelSelector) });
  const nodes = (await pg.client.list<Node>(Resources.nodes)).items
    .filter((n) => matches(n.metadata.labels ?? {}))
    .sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1))
    .slice(0, f.count ?? Number.POSITIVE_INFINITY);
  for (const n of nodes) pg.world.kubelets.stopKubelet(n.metadata.name ?? '');
  return `stopped the kubelets of ${nodes.map((n) => n.metadata.name).join(', ') || 'no node'}`;
}

function noCapacity(pg: Playground, f: { instanceType?: string; zone?: string; capacityType?: string }): string {
  const account = pg.ec2.account;
  const types = f.instanceType ? [f.instanceType] : account.catalog.map((c) => c.name);
  const zones = f.zone ? [f.zone] : account.zones;
  const capacityTypes = (f.capacityType ? [f.capacityType] : ['on-demand', 'spot']) as Array<'on-demand' | 'spot'>;
  let pools = 0;
  for (const instanceType of types) {
    for (const zone of zones) {
      for (const capacityType of capacityTypes) {
        pg.ec2.setCapacity({ instanceType, zone, capacityType }, 0);
        pools++;
      }
    }
  }
  return `no capacity in ${pools} pools`;
}

function loseInstances(pg: Playground, count: number): string {
  const running = pg.ec2.listInstances({ states: ['running'] }).slice(0, count);
  for (const i of running) pg.ec2.loseInstance(i.instanceId);
  return `terminated ${running.map((i) => i.instanceId).join(', ') || 'no instance'}`;
}

/** Injects the fault; returns what it did, for the report. */
export async function injectFault(pg: Playground, fault: Fault): Promise<string> {
  if ('ccmDelay' in fault) {
    pg.world.ccm.setInitDelay({ min: parseDuration(fault.ccmDelay.min) ?? 0, max: parseDuration(fault.ccmDelay.max) ?? 0 });
    return `CCM initializes nodes after ${fault.ccmDelay.min}–${fault.ccmDelay.max}`;
  }
  if ('kubeletStop' in fault) return stopKubelets(pg, fault.kubeletStop);
  if ('insufficientCapacity' in fault) return noCapacity(pg, fault.insufficientCapacity);
  if ('apiErrors' in fault) {
    pg.server.faults.addError({ verb: fault.apiErrors.verb, resource: fault.apiErrors.resource, code: 500, rate: fault.apiErrors.rate });
    return `API errors at rate ${fault.apiErrors.rate}`;
  }
  if ('watchDrop' in fault) {
    pg.server.closeWatches();
    return 'closed every watch';
  }
  return loseInstances(pg, fault.instanceLoss.count);
}
