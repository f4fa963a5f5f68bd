/** Host ports: two pods on one node clash on the same protocol and port when their host IPs overlap. */
import type { Pod } from '../model.js';
import type { Violation } from './violation.js';
import type { PlacedPod, World } from './world.js';

interface Port {
  protocol: string;
  ip: string;
  port: number;
}

function portsOf(pod: Pod): Port[] {
  const out: Port[] = [];
  for (const c of [...(pod.spec.initContainers ?? []), ...pod.spec.containers]) {
    for (const p of c.ports ?? [])
      if (p.hostPort) out.push({ protocol: p.protocol ?? 'TCP', ip: p.hostIP || '0.0.0.0', port: p.hostPort });
  }
  return out;
}

function clash(a: Port, b: Port): boolean {
  return a.port === b.port && a.protocol === b.protocol && (a.ip === b.ip || a.ip === '0.0.0.0' || b.ip === '0.0.0.0');
}

/** Host-port clashes involving a pod placed by this solve. */
export function checkHostPorts(world: World): Violation[] {
  const out: Violation[] = [];
  for (const node of world.nodes) {
    const seen: { p: PlacedPod; port: Port }[] = [];
    for (const p of node.pods) {
      for (const port of portsOf(p.pod)) {
        const other = seen.find((s) => s.p !== p && (s.p.isNew || p.isNew) && clash(s.port, port));
        if (other)
          out.push({
            family: 'host-ports',
            pod: p.key,
            target: node.target,
            message: `host port ${port.protocol}/${port.port} is also used by ${other.p.key}`,
          });
        seen.push({ p, port });
      }
    }
  }
  return out;
}
